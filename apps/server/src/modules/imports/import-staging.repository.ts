import { type Kysely, type RawBuilder, sql } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { TLeadStatus } from '@herald/shared/leads/leads.schemas';
import { bumpDataVersion } from '../../db/data-version.ts';
import { retryOnDeadlock } from '../../db/deadlock-retry.ts';
import { holdTeamDuplicates, recountDuplicates } from '../../db/lead-duplicates.ts';
import type { DB } from '../../db/schema.ts';
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
}

const col = (i: number) => sql.ref(`s.c${i}`);
/** A staged field's values, one row each: a cell may have held several, joined by VALUE_SEPARATOR (chr 31). */
const each = (field: RawBuilder<unknown>) => sql`unnest(string_to_array(${field}, chr(31)))`;

/**
 * The phones of a chunk's staged rows, one row (`p.value`) for each phone column's value, as the
 * FROM … WHERE of a query over them; null when no column holds phones.
 */
function stagedPhones(
  columns: PublishArgs['columns'],
  staged: RawBuilder<unknown>,
  range: RawBuilder<unknown>,
): RawBuilder<unknown> | null {
  const rows = columns.flatMap((c, i) => (c.type === 'phone' ? [sql`(${col(i)})`] : []));
  if (rows.length === 0) return null;
  return sql`${staged} cross join lateral (values ${sql.join(rows)}) as f(field)
    cross join lateral ${each(sql.ref('f.field'))} as p(value) where ${range} and p.value is not null`;
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

    /** The staged rows after `from` (through `upTo`) in chunks of `size`: each one's last row number and row count. */
    async chunkBounds(table: string, from: number, size: number, upTo = 2 ** 31 - 1) {
      const r = await sql<{ hi: number; n: number }>`
        select row_no as hi, n from (
          select row_no, row_number() over (order by row_no) as n, count(*) over () as total
          from ${sql.table(table)} where row_no > ${from} and row_no <= ${upTo}
        ) x where n % ${size} = 0 or n = total order by row_no`.execute(db);
      return r.rows.map((x, i, all) => ({ hi: Number(x.hi), rows: Number(x.n) - (i > 0 ? Number(all[i - 1].n) : 0) }));
    },

    /** Staged rows after row number `from`. */
    async countAfter(table: string, from: number) {
      const r = await sql<{
        n: number;
      }>`select count(*)::int as n from ${sql.table(table)} where row_no > ${from}`.execute(db);
      return Number(r.rows[0]?.n ?? 0);
    },

    /** The last staged row number (0 for none): a resumed parse stages only the rows after it. */
    async lastRow(table: string) {
      const r = await sql<{ hi: number | null }>`select max(row_no) as hi from ${sql.table(table)}`.execute(db);
      return Number(r.rows[0]?.hi ?? 0);
    },

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
    async publish(a: PublishArgs, turn: Promise<unknown> = Promise.resolve()): Promise<number> {
      return retryOnDeadlock(() =>
        db.transaction().execute(async (tx) => {
          await holdImport(tx, a.importId, a.attempt);
          // The list and the attributes are locked as foreign keys would (lead rows have none,
          // migration 0006), once a chunk: one deleted meanwhile stops the import, nothing dangles.
          const list = await sql`
          select id from lists where id = ${a.listId} and team_id = ${a.teamId} and source_id = ${a.sourceId}
          for key share`.execute(tx);
          if (list.rows.length === 0) throw listDeleted();
          const attributeIds = [...new Set(a.columns.map((c) => c.attributeId))];
          const held = await sql<{ id: number; presence_bit: number | null }>`
          select id, presence_bit from lead_attributes where team_id = ${a.teamId} and id = any(${attributeIds}::bigint[])
          for key share`.execute(tx);
          if (held.rows.length !== attributeIds.length) {
            throw new ImportFailure('import_attribute_deleted', 'An attribute of this import was deleted.');
          }
          // The GIN trigram index on values takes a big batch into its pending list, merged later
          // (autovacuum) instead of inside this transaction. The leads' presence bits are written
          // with the leads below, so the per-statement trigger on values stands aside (migration 0007).
          await sql`set local gin_pending_list_limit = '64MB'`.execute(tx);
          await sql`set local herald.bulk_values = 'on'`.execute(tx);
          const bits = new Map(held.rows.map((r) => [Number(r.id), r.presence_bit]));
          const range = sql`s.row_no > ${a.lo} and s.row_no <= ${a.hi}`;
          const staged = sql`${sql.table(a.table)} s`;
          if (a.columns.length > 0) {
            const values = sql.join(
              a.columns.map((c, i) => sql`(${sql.lit(c.attributeId)}::bigint, ${sql.lit(c.type)}, ${col(i)})`),
            );
            await sql`
            insert into lead_values (team_id, lead_id, attribute_id, type, value)
            select ${a.teamId}, s.lead_id, v.attribute_id, v.type, u.value
            from ${staged} cross join lateral (values ${values}) as v(attribute_id, type, field)
            cross join lateral ${each(sql.ref('v.field'))} as u(value)
            where ${range} and v.field is not null`.execute(tx);
            // The values as staged, in column order: the Timeline renders them as the creation's
            // diff when read (migration 0010), instead of a jsonb built and stored for every lead.
            const stagedValues = sql.join(a.columns.map((_, i) => col(i)));
            await sql`
            insert into lead_logs (team_id, lead_id, user_id, type, action, filename, import_file_id, import_values)
            select ${a.teamId}, s.lead_id, ${a.userId}, 'lead', 'created', ${a.filename}, ${a.importId},
              array[${stagedValues}]::text[]
            from ${staged} where ${range}`.execute(tx);
          }
          await turn;
          // Still this run's, right after the chunk before: a superseded chunk stops here, before it
          // touches other leads' duplicate counts, the tallies and the team (no lock taken).
          const ours = await sql`
          select 1 from import_files where id = ${a.importId} and attempt = ${a.attempt} and published_upto = ${a.lo}`.execute(
            tx,
          );
          if (ours.rows.length === 0) throw new SupersededError();
          // Another import of the team may publish at once (two run side by side): each recount must
          // see the other's committed leads, so the team's chunks take turns from here to commit
          // (the team's row, bumped below, would queue them there anyway, but after a recount that
          // had missed the other's phones). Chunks of different teams never wait on each other.
          await holdTeamDuplicates(tx, a.teamId);
          // The bits of the attributes this row has a value of; several columns may share one.
          const present = a.columns.flatMap((c, i) => {
            const bit = bits.get(c.attributeId);
            return bit === null || bit === undefined
              ? []
              : [sql`case when ${col(i)} is not null then 1::bigint << ${sql.lit(Number(bit))} else 0 end`];
          });
          const mask = present.length === 0 ? sql`0::bigint` : sql.join(present, sql` | `);
          const lead = sql`${a.teamId}, ${a.sourceId}, ${a.listId}, ${a.status}, ${mask}`;
          const phones = stagedPhones(a.columns, staged, range);
          let count: number;
          if (phones) {
            if (await phonesUnknownToPlanner(tx, a.teamId, phones)) await sql`analyze lead_values`.execute(tx);
            count = await insertCountingDuplicates(tx, a.teamId, lead, staged, range, phones);
          } else {
            const inserted = await sql`
            insert into leads (id, team_id, source_id, list_id, status, value_mask) overriding system value
            select s.lead_id, ${lead} from ${staged} where ${range} order by s.row_no`.execute(tx);
            count = Number(inserted.numAffectedRows ?? 0);
          }
          await bumpDataVersion(tx, a.teamId);
          // The high-water mark last: its row lock lasts only to the commit, so the parse, which
          // updates the same import row while chunks publish, never waits behind a chunk's recount.
          const advanced = await sql`
          update import_files set published_upto = ${a.hi}, leads_processed = leads_processed + ${count},
            heartbeat_at = clock_timestamp(), updated_at = clock_timestamp()
          where id = ${a.importId} and attempt = ${a.attempt} and published_upto = ${a.lo}
          returning id`.execute(tx);
          if (advanced.rows.length === 0) throw new SupersededError();
          return count;
        }),
      );
    },

    /**
     * Takes back the leads a cancelled import published from staged rows lo < row_no <= hi (their
     * values, Timeline and tallies go with them by the cascades of 0006), recounts the duplicates
     * of the team's other leads that shared their phones, and lowers the high-water mark to `lo`,
     * in one transaction: a run killed midway resumes from the mark, never deleting twice.
     */
    async unpublish(a: Pick<PublishArgs, 'table' | 'importId' | 'attempt' | 'teamId' | 'columns' | 'lo' | 'hi'>) {
      return db.transaction().execute(async (tx) => {
        await holdImport(tx, a.importId, a.attempt);
        await holdTeamDuplicates(tx, a.teamId);
        const staged = sql`${sql.table(a.table)} s`;
        const range = sql`s.row_no > ${a.lo} and s.row_no <= ${a.hi}`;
        const deleted = await sql`
          delete from leads l using ${staged} where ${range} and l.id = s.lead_id and l.team_id = ${a.teamId}`.execute(
          tx,
        );
        const count = Number(deleted.numAffectedRows ?? 0);
        const phones = stagedPhones(a.columns, staged, range);
        if (phones && count > 0) {
          await recountDuplicates(
            tx,
            a.teamId,
            sql`select distinct lv.lead_id from lead_values lv
              join (select distinct p.value from ${phones}) c on c.value = lv.value
              where lv.team_id = ${a.teamId} and lv.type = 'phone'`,
          );
        }
        const lowered = await sql`
          update import_files set published_upto = ${a.lo}, heartbeat_at = now(), updated_at = now(),
            leads_processed = greatest(0, leads_processed - ${count})
          where id = ${a.importId} and attempt = ${a.attempt} and published_upto = ${a.hi}
          returning id`.execute(tx);
        if (lowered.rows.length === 0) throw new SupersededError();
        if (count > 0) await bumpDataVersion(tx, a.teamId);
        return count;
      });
    },

    /** Imported leads with and without a duplicate, once everything is published. */
    async summary(table: string) {
      const r = await sql<{ total: number; duplicates: number }>`
        select count(*)::int as total, (count(*) filter (where l.duplicates > 0))::int as duplicates
        from ${sql.table(table)} s join leads l on l.id = s.lead_id`.execute(db);
      return { total: Number(r.rows[0].total), duplicates: Number(r.rows[0].duplicates) };
    },
  };
}

/**
 * Whether the planner's statistics miss most of the team's phones: on a first import into a new
 * database, and on a team's first import into a database last analyzed while only other teams'
 * values were in it (the statistics know its id as no row at all). The recount's joins were then
 * planned as nested loops over every phone of the chunk (a 20,000-row chunk took 140 s instead of
 * 0.3 s before the recount probed phone by phone; its other joins and the reads right after the
 * import still plan by these figures). The estimate is the planner's own (EXPLAIN), set against
 * the phones this chunk has just written; the caller then analyzes inside its transaction, which
 * counts the chunk's own rows. An estimate short of the team's older phones is harmless.
 */
async function phonesUnknownToPlanner(tx: Kysely<DB>, teamId: number, phones: RawBuilder<unknown>): Promise<boolean> {
  const written = await sql<{ n: number }>`select count(*)::int as n from ${phones}`.execute(tx);
  const plan = await sql<{ 'QUERY PLAN': unknown }>`
    explain (format json) select 1 from lead_values where team_id = ${sql.lit(teamId)} and type = 'phone'`.execute(tx);
  return plannedRows(plan.rows[0]?.['QUERY PLAN']) < Number(written.rows[0]?.n ?? 0) / 2;
}

/** The row estimate of an `EXPLAIN (FORMAT JSON)` answer (parsed by the driver or still text). */
function plannedRows(plan: unknown): number {
  const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as Array<{ Plan?: { 'Plan Rows'?: number } }>;
  return Number(parsed?.[0]?.Plan?.['Plan Rows'] ?? 0);
}

/**
 * Inserts the chunk's leads with decision 007's duplicates already counted, and recounts the
 * team's other leads that share a phone with them. Set-based: only phones the team now holds on
 * more than one lead can change any count, so only the leads holding those are counted. The
 * chunk's values are already written (phase one), so the count needs no lead row; new leads are
 * inserted with their count instead of inserted and then updated (an update of `duplicates` is not
 * HOT: it writes every index of `leads` again). The update cannot see the rows the same statement
 * inserts, so it changes only earlier leads.
 */
async function insertCountingDuplicates(
  tx: Kysely<DB>,
  teamId: number,
  lead: RawBuilder<unknown>,
  staged: RawBuilder<unknown>,
  range: RawBuilder<unknown>,
  phones: RawBuilder<unknown>,
): Promise<number> {
  const r = await sql<{ n: number }>`
    with chunk_phones as (
      select distinct p.value from ${phones}
    ), holders as (
      -- Each of the chunk's phones looked up in the team's phone index, one probe each (the fence
      -- keeps the lookup per phone): the cost follows the chunk. Planned as a join, the recount
      -- read every phone of the team for every chunk (the embedded database scanned all values).
      select c.value, h.lead_id from chunk_phones c
      cross join lateral (
        select lv.lead_id from lead_values lv
        where lv.team_id = ${teamId} and lv.type = 'phone' and lv.value = c.value
        offset 0
      ) h
    ), counted as (
      -- Each holder against the other holders of the same phone: a phone nobody else holds joins
      -- nothing, so only leads sharing one are counted (one join: ~20% off a chunk of duplicates
      -- against first finding the shared phones and the pairs holding them).
      select h.lead_id, count(distinct o.lead_id) as n
      from holders h join holders o on o.value = h.value and o.lead_id <> h.lead_id
      group by h.lead_id
    ), earlier_phones as (
      -- A new lead's phones are all the chunk's, so its count above is whole. An earlier lead may
      -- hold phones the chunk lacks (two phone columns, or a second phone added by hand): it is
      -- counted again over all of them. Only earlier leads exist yet (this statement's inserts are
      -- not seen), and only those sharing a phone of the chunk.
      select c.lead_id, lv.value from counted c
      join leads l on l.id = c.lead_id and l.team_id = ${teamId}
      join lead_values lv on lv.lead_id = c.lead_id and lv.type = 'phone'
    ), recounted as (
      select e.lead_id, count(distinct o.lead_id) as n from earlier_phones e
      cross join lateral (
        select lv.lead_id from lead_values lv
        where lv.team_id = ${teamId} and lv.type = 'phone' and lv.value = e.value
        offset 0
      ) o
      where o.lead_id <> e.lead_id
      group by e.lead_id
    ), inserted as (
      insert into leads (id, team_id, source_id, list_id, status, value_mask, duplicates) overriding system value
      select s.lead_id, ${lead}, coalesce(c.n, 0) from ${staged} left join counted c on c.lead_id = s.lead_id
      where ${range} order by s.row_no
      returning 1
    ), updated as (
      update leads l set duplicates = r.n from recounted r
      where l.id = r.lead_id and l.team_id = ${teamId} and l.duplicates <> r.n
      returning 1
    )
    select (select count(*) from inserted)::int as n`.execute(tx);
  return Number(r.rows[0].n);
}
