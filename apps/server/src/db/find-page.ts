import { type SelectQueryBuilder, sql } from 'kysely';

/** One page of a table: where it starts, how long it is, and its order (a whitelisted column). */
export interface PageWindow<F extends string = string> {
  offset: number;
  limit: number;
  order: { field: F; dir: 'asc' | 'desc' };
}

/**
 * One page of `from` (already narrowed to the team and the search) with the total it is a page of.
 * Ties in the order fall back to `id` in the same direction, so pages never share or skip a row.
 * `from` must select from one table that has an `id`; `columns` picks what a row carries.
 */
export async function findPage<DB, TB extends keyof DB, O>(
  // biome-ignore lint/complexity/noBannedTypes: Kysely's own type for a query that selects nothing yet.
  from: SelectQueryBuilder<DB, TB, {}>,
  // biome-ignore lint/complexity/noBannedTypes: as above.
  columns: (q: SelectQueryBuilder<DB, TB, {}>) => SelectQueryBuilder<DB, TB, O>,
  page: PageWindow,
): Promise<{ rows: O[]; total: number }> {
  const [rows, total] = await Promise.all([
    columns(from)
      .orderBy(sql.ref(page.order.field), page.order.dir)
      .orderBy(sql.ref('id'), page.order.dir)
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    // Kysely cannot infer a selection on a generic table: the count is cast to what it is.
    (from.select(sql<number>`count(*)`.as('n')) as SelectQueryBuilder<DB, TB, { n: number }>).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}
