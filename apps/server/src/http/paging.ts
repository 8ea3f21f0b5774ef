import type { TPageQuery } from '@herald/shared/common/pagination.schemas';
import type { PageWindow } from '../db/find-page.ts';

export interface PageArgs<F extends string> extends PageWindow<F> {
  /** The trimmed search text; absent when blank. */
  search?: string;
}

/**
 * The page a table's query asks for. Only `orderable` columns may order it (the order reaches SQL
 * as a column name); any other asks for `defaultOrder.field`, in the direction the query gave.
 */
export function pageArgs<F extends string>(
  query: TPageQuery,
  orderable: readonly F[],
  defaultOrder: { field: NoInfer<F>; dir: 'asc' | 'desc' },
): PageArgs<F> {
  const order = query.order?.[0];
  const field =
    order && (orderable as readonly string[]).includes(order.field) ? (order.field as F) : defaultOrder.field;
  return {
    offset: (query.page - 1) * query.limit,
    limit: query.limit,
    search: query.search?.trim() || undefined,
    order: { field, dir: order?.dir ?? defaultOrder.dir },
  };
}
