// Opens a stopped (or killed) embedded data directory and reports what is in it: whether PGlite
// opens it at all, the import's own bookkeeping, the leads of one list and whether every tally
// agrees with them, and amcheck's verdict on every heap and index (a torn page or a half-written
// index shows there even when the counts happen to agree).
import { PGlite } from '@electric-sql/pglite';
import { amcheck } from '@electric-sql/pglite/contrib/amcheck';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export interface Inspection {
  opened: boolean;
  openMs: number;
  error?: string;
  import?: {
    status: string;
    attempt: number;
    leads_processed: number;
    published_upto: number;
    staged_rows: number | null;
    staging_table: string | null;
  };
  /** Leads of the list, their phone values, distinct phones, all their values, lead_counts total. */
  leads?: number;
  phones?: number;
  distinctPhones?: number;
  values?: number;
  tally?: number;
  stagingTables?: number;
  /** Names given to lists by this experiment that exist (writes acknowledged just before a kill). */
  lists?: string[];
  /** amcheck: relations checked, and one line per corruption found. */
  checked?: number;
  corruption?: string[];
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

export async function inspect(pgliteDir: string, listId: number | undefined, importId: number | undefined) {
  const started = performance.now();
  let db: PGlite;
  try {
    db = await PGlite.create(pgliteDir, { extensions: { amcheck, pg_trgm } });
  } catch (error) {
    return { opened: false, openMs: performance.now() - started, error: String(error) } satisfies Inspection;
  }
  const out: Inspection = { opened: true, openMs: Math.round(performance.now() - started) };
  try {
    const one = async (sql: string, params: unknown[] = []) =>
      (await db.query<Record<string, unknown>>(sql, params)).rows[0] ?? {};
    if (importId !== undefined) {
      const r = await one(
        'select status, attempt, leads_processed, published_upto, staged_rows, staging_table from import_files where id = $1',
        [importId],
      );
      out.import = {
        status: String(r.status),
        attempt: num(r.attempt),
        leads_processed: num(r.leads_processed),
        published_upto: num(r.published_upto),
        staged_rows: r.staged_rows === null ? null : num(r.staged_rows),
        staging_table: (r.staging_table as string | null) ?? null,
      };
    }
    if (listId !== undefined) {
      const l = await one(
        `select count(*)::int as leads, count(v.value)::int as phones, count(distinct v.value)::int as distinct_phones
         from leads l left join lead_values v on v.lead_id = l.id and v.type = 'phone' where l.list_id = $1`,
        [listId],
      );
      out.leads = num(l.leads);
      out.phones = num(l.phones);
      out.distinctPhones = num(l.distinct_phones);
      out.values = num(
        (
          await one(
            'select count(*)::int as n from lead_values v join leads l on l.id = v.lead_id where l.list_id = $1',
            [listId],
          )
        ).n,
      );
      out.tally = num((await one('select sum(total)::int as n from lead_counts where list_id = $1', [listId])).n);
    }
    out.stagingTables = num(
      (await one(`select count(*)::int as n from pg_tables where tablename like 'import_rows_%'`)).n,
    );
    out.lists = (await db.query<{ name: string }>(`select name from lists where name like 'after-kill-%'`)).rows.map(
      (r) => r.name,
    );
    await db.exec('create extension if not exists amcheck');
    const relations = (
      await db.query<{ oid: number; name: string; kind: string; am: string | null }>(
        `select c.oid, n.nspname || '.' || c.relname as name, c.relkind as kind, am.amname as am
         from pg_class c join pg_namespace n on n.oid = c.relnamespace left join pg_am am on am.oid = c.relam
         where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'
           and c.relpersistence = 'p' and (c.relkind in ('r', 'm') or (c.relkind = 'i' and am.amname in ('btree', 'gin')))`,
      )
    ).rows;
    out.corruption = [];
    for (const r of relations) {
      try {
        if (r.kind !== 'i') {
          const bad = await db.query<{ blkno: number; msg: string }>('select blkno, msg from verify_heapam($1)', [
            r.oid,
          ]);
          for (const b of bad.rows) out.corruption.push(`${r.name} block ${b.blkno}: ${b.msg}`);
        } else if (r.am === 'btree') await db.query('select bt_index_check($1, true)', [r.oid]);
        else await db.query('select gin_index_check($1)', [r.oid]);
      } catch (error) {
        out.corruption.push(`${r.name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    out.checked = relations.length;
  } catch (error) {
    out.error = String(error);
  } finally {
    await db.close().catch(() => {});
  }
  return out;
}
