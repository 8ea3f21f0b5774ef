import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { TLeadStatus } from '@herald/shared/leads/leads.schemas';
import { retryOnDeadlock } from '../../db/lead-store/deadlock-retry.ts';
import { beginStagedPublish, unpublishStaged } from '../../db/lead-store/staged-leads.ts';
import type { DB } from '../../db/schema.ts';
import { fixedSlices, type SliceSizer } from '../../db/slice-sizer.ts';
import { ImportFailure, listDeleted } from './import-failure.ts';
import type { MappedColumn } from './parser/parse-protocol.ts';

/** Thrown when another run has taken the import over: this run stops without writing. */
export class SupersededError extends Error {
  constructor() {
    super('The import was taken over by another run.');
  }
}

export interface PublishArgs {
  table: string;
  importId: number;
  attempt: number;
  teamId: number;
  sourceId: number;
  listId: number;
  userId: number | null;
  status: TLeadStatus;
  filename: string;
  columns: Array<MappedColumn & { name: string }>;
  /** Publishes staged rows with lo < row_no <= hi. */
  lo: number;
  hi: number;
  /** See `StagedChunk.plannerKnowsPhones`: true after the run's first committed chunk. */
  plannerKnowsPhones?: boolean;
}

/** A committed chunk: the leads it added, and how long its transaction held the connection. */
export interface PublishedChunk {
  leads: number;
  heldMs: number;
}

/**
 * Holds the import's row for a chunk's transaction, or throws when another run owns it now. A
 * key-share lock: the run's other chunk may update the row meanwhile, while the orphan sweep
 * (FOR UPDATE SKIP LOCKED) passes over an import whose chunk is being written.
 */
async function holdImport(tx: Kysely<DB>, importId: number, attempt: number) {
  const owned = await sql`
    select id from import_files where id = ${importId} and attempt = ${attempt} for key share`.execute(tx);
  if (owned.rows.length === 0) throw new SupersededError();
}

/**
 * The staging table of one run (`import_rows_<import>_<attempt>`): parsed, normalised rows with a
 * lead id drawn from the leads sequence, invisible to the app until published in chunks.
 */
export function createImportStaging(db: Kysely<DB>, connectionString?: string) {
  /** A staging table, if the name is one (never anything else, whatever the caller passes). */
  async function dropTable(table: string | null) {
    if (table && /^import_rows_\d+_\d+$/.test(table)) await sql.raw(`drop table if exists ${table}`).execute(db);
  }
  let leadSequence: string | undefined;
  async function sequence() {
    if (!leadSequence) {
      const r = await sql<{ s: string }>`select pg_get_serial_sequence('leads', 'id') as s`.execute(db);
      leadSequence = r.rows[0].s;
    }
    return leadSequence;
  }

  /** The last staged row number (0 for none): a resumed parse stages only the rows after it. */
  async function lastRow(table: string) {
    const r = await sql<{ hi: number | null }>`select max(row_no) as hi from ${sql.table(table)}`.execute(db);
    return Number(r.rows[0]?.hi ?? 0);
  }

  return {
    tableName: (importId: number, attempt: number) => `import_rows_${importId}_${attempt}`,

    async create(table: string, columnCount: number) {
      const cols = Array.from({ length: columnCount }, (_, i) => `, c${i} text`).join('');
      const seq = (await sequence()).replaceAll("'", "''");
      await sql.raw(`drop table if exists ${table}`).execute(db);
      await sql
        .raw(
          `create table ${table} (row_no integer primary key, lead_id bigint not null default nextval('${seq}'::regclass)${cols})`,
        )
        .execute(db);
    },

    /** Whether batches can be streamed in with COPY (PostgreSQL; the embedded database takes arrays). */
    copies: Boolean(connectionString),

    /**
     * A COPY writer for one staging table on a connection of its own (PostgreSQL): each batch of
     * COPY text lines is one `COPY … FROM STDIN`, committed on its own like the array inserts.
     */
    async copyWriter(table: string, columnCount: number) {
      if (!connectionString) throw new Error('COPY needs a PostgreSQL connection');
      const client = new pg.Client({ connectionString });
      client.on('error', () => {});
      await client.connect();
      const names = ['row_no', ...Array.from({ length: columnCount }, (_, i) => `c${i}`)].join(', ');
      return {
        async write(text: string) {
          if (!text) return;
          const stream = client.query(copyFrom(`copy ${table} (${names}) from stdin`));
          await new Promise<void>((resolve, reject) => {
            stream.on('error', reject);
            stream.on('finish', resolve);
            stream.end(text);
          });
        },
        async close() {
          await client.end().catch(() => {});
        },
      };
    },

    drop: dropTable,

    /** Every staging table of an import (one an attempt), for when the import is gone. */
    async dropAllOf(importId: number) {
      const r = await sql<{ name: string }>`
        select tablename as name from pg_tables
        where schemaname = current_schema() and tablename ~ ${`^import_rows_${importId}_[0-9]+$`}`.execute(db);
      for (const { name } of r.rows) await dropTable(name);
    },

    /**
     * Staging tables no run will read: of an import that is gone (deleted with its list, source or
     * team while it ran or waited for a resume) or has ended without keeping them.
     */
    async orphanTables(): Promise<string[]> {
      const r = await sql<{ name: string }>`
        select t.tablename as name from pg_tables t
        left join import_files f on f.id = substring(t.tablename from '^import_rows_([0-9]+)_[0-9]+$')::bigint
        where t.schemaname = current_schema() and t.tablename ~ '^import_rows_[0-9]+_[0-9]+$'
          and (f.id is null or f.status in ('completed', 'cancelled')
            or (f.status = 'failed' and f.staging_table is distinct from t.tablename))`.execute(db);
      return r.rows.map((row) => row.name);
    },

    /** One batch, one statement: arrays unnested into rows (set-based on both databases). */
    async insert(table: string, rowNos: number[], cols: Array<Array<string | null>>) {
      if (rowNos.length === 0) return;
      const seq = await sequence();
      const names = cols.map((_, i) => `c${i}`).join(', ');
      const arrays = sql.join([sql`${rowNos}::int[]`, ...cols.map((c) => sql`${c}::text[]`)]);
      await sql`
        insert into ${sql.table(table)} (row_no, lead_id${sql.raw(names ? `, ${names}` : '')})
        select r, nextval(${seq}::regclass)${sql.raw(names ? `, ${names}` : '')}
        from unnest(${arrays}) as t(r${sql.raw(names ? `, ${names}` : '')})
        on conflict (row_no) do nothing`.execute(db);
    },

    /** Fresh statistics, so publishing plans for the real size of the staging table. */
    async analyze(table: string) {
      await sql`analyze ${sql.table(table)}`.execute(db);
    },

    /**
     * Fresh planner statistics for the lead tables after an import or a cancel moved many rows:
     * the embedded database has no autovacuum to do it, and audience counts and searches plan by
     * them (columns never analyzed fall back to guesses). ANALYZE samples, so it costs well under a
     * second even on millions of rows; PostgreSQL's autovacuum would do the same within a minute.
     * After a cancel the embedded database also vacuums (seconds on millions of dead rows).
     */
    async refreshStatistics(vacuum: boolean) {
      for (const table of ['leads', 'lead_values', 'lead_logs'] as const) {
        // VACUUM takes dead rows back as well (a cancel leaves many); it cannot run in a transaction.
        await sql`${sql.raw(vacuum ? 'vacuum (analyze)' : 'analyze')} ${sql.table(table)}`.execute(db);
      }
    },

    /**
     * The next chunk of staged rows after `from` (through `upTo`): at most `size` of them, read
     * along the row number's index, so it costs the chunk's rows, not every row staged ahead of it.
     */
    async nextChunk(table: string, from: number, size: number, upTo = 2 ** 31 - 1) {
      const r = await sql<{ hi: number | null; n: number }>`
        select max(row_no) as hi, count(*)::int as n from (
          select row_no from ${sql.table(table)} where row_no > ${from} and row_no <= ${upTo} order by row_no limit ${size}
        ) x`.execute(db);
      const row = r.rows[0];
      return row?.hi == null ? null : { hi: Number(row.hi), rows: Number(row.n) };
    },

    /** Staged rows after row number `from`. */
    async countAfter(table: string, from: number) {
      const r = await sql<{
        n: number;
      }>`select count(*)::int as n from ${sql.table(table)} where row_no > ${from}`.execute(db);
      return Number(r.rows[0]?.n ?? 0);
    },

    lastRow,

    /**
     * Moves one chunk into leads, values, the Timeline and the duplicate counts, in one
     * transaction that also advances the import's high-water mark: a crash between chunks
     * resumes after the last committed one, never doubling or losing a row.
     *
     * Two chunks may run at once on two connections (PostgreSQL). The values and Timeline rows,
     * most of the work, are written first; the rest waits for `turn` (the chunk before has
     * committed), so chunks commit in order, the high-water mark stays a plain number (advanced
     * only where it still stands at `lo`, by this attempt), and the duplicate recount sees every
     * earlier chunk. Only one transaction at a time holds the tallies, the team's counters and
     * the import's row, so two chunks never wait on each other.
     */
    async publish(a: PublishArgs, turn: Promise<unknown> = Promise.resolve()): Promise<PublishedChunk> {
      return retryOnDeadlock(() =>
        db.transaction().execute(async (tx) => {
          // The connection's hold, for the chunk sizer: from the first statement to the last,
          // without the wait for the chunk before (on PostgreSQL two chunks overlap).
          const started = performance.now();
          await holdImport(tx, a.importId, a.attempt);
          const chunk = await beginStagedPublish(tx, { ...a, autovacuum: connectionString !== undefined });
          if (chunk.missing) {
            throw chunk.missing === 'list'
              ? listDeleted()
              : new ImportFailure('import_attribute_deleted', 'An attribute of this import was deleted.');
          }
          await chunk.writeValues();
          const waitedFrom = performance.now();
          await turn;
          const waited = performance.now() - waitedFrom;
          // Still this run's, right after the chunk before: a superseded chunk stops here, before it
          // touches other leads' duplicate counts, the tallies and the team (no lock taken).
          const ours = await sql`
          select 1 from import_files where id = ${a.importId} and attempt = ${a.attempt} and published_upto = ${a.lo}`.execute(
            tx,
          );
          if (ours.rows.length === 0) throw new SupersededError();
          // Another import of the team may publish at once (two run side by side): the leads phase
          // takes the team's duplicate lock, so the team's chunks take turns from here to commit.
          // Chunks of different teams never wait on each other.
          const count = await chunk.insertLeads();
          // The high-water mark last: its row lock lasts only to the commit, so the parse, which
          // updates the same import row while chunks publish, never waits behind a chunk's recount.
          const advanced = await sql`
          update import_files set published_upto = ${a.hi}, leads_processed = leads_processed + ${count},
            heartbeat_at = clock_timestamp(), updated_at = clock_timestamp()
          where id = ${a.importId} and attempt = ${a.attempt} and published_upto = ${a.lo}
          returning id`.execute(tx);
          if (advanced.rows.length === 0) throw new SupersededError();
          return { leads: count, heldMs: performance.now() - started - waited };
        }),
      );
    },

    /**
     * Takes back the leads a cancelled import published from staged rows lo < row_no <= hi (the
     * lead store recounts the duplicates they shared), and lowers the high-water mark to `lo`, in
     * one transaction: a run killed midway resumes from the mark, never deleting twice.
     */
    async unpublish(a: Pick<PublishArgs, 'table' | 'importId' | 'attempt' | 'teamId' | 'columns' | 'lo' | 'hi'>) {
      return db.transaction().execute(async (tx) => {
        await holdImport(tx, a.importId, a.attempt);
        const count = await unpublishStaged(tx, a);
        const lowered = await sql`
          update import_files set published_upto = ${a.lo}, heartbeat_at = now(), updated_at = now(),
            leads_processed = greatest(0, leads_processed - ${count})
          where id = ${a.importId} and attempt = ${a.attempt} and published_upto = ${a.hi}
          returning id`.execute(tx);
        if (lowered.rows.length === 0) throw new SupersededError();
        return count;
      });
    },

    /**
     * The imported leads once everything is published: how many, how many repeat a phone that an
     * earlier lead held (in this file or before it: of a pair in the file, the second), and how
     * many hold no phone. Only leads counted as sharing a phone are probed for an earlier holder.
     * Read in ranges of row numbers as `slices` sizes them (on the embedded database one statement
     * over a million rows would hold the connection for seconds).
     */
    async summary(table: string, slices: SliceSizer = fixedSlices(2 ** 31 - 1)) {
      const out = { total: 0, duplicates: 0, withoutPhone: 0 };
      const last = await lastRow(table);
      for (let lo = 0; lo < last; ) {
        const hi = Math.min(last, lo + slices.size());
        const started = performance.now();
        const r = await sql<{ total: number; duplicates: number; without_phone: number }>`
          select count(*)::int as total,
            (count(*) filter (where l.duplicates > 0 and exists (
              select 1 from lead_values mine
              join lead_values o on o.team_id = l.team_id and o.type = 'phone' and o.value = mine.value and o.lead_id < l.id
              where mine.lead_id = l.id and mine.type = 'phone')))::int as duplicates,
            (count(*) filter (where not exists (
              select 1 from lead_values v where v.lead_id = l.id and v.type = 'phone')))::int as without_phone
          from ${sql.table(table)} s join leads l on l.id = s.lead_id
          where s.row_no > ${lo} and s.row_no <= ${hi}`.execute(db);
        slices.held(hi - lo, performance.now() - started);
        out.total += Number(r.rows[0].total);
        out.duplicates += Number(r.rows[0].duplicates);
        out.withoutPhone += Number(r.rows[0].without_phone);
        lo = hi;
      }
      return out;
    },
  };
}
