import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { TAttributeType } from '@herald/shared/attributes/attributes.schemas';
import type { TLeadStatus } from '@herald/shared/leads/leads.schemas';
import type { DB } from '../schema.ts';
import { bumpDataVersion } from './data-version.ts';
import { holdTeamDuplicates, recountDuplicates } from './lead-duplicates.ts';
import { maskOf, writeMasksInBulk } from './presence-bits.ts';
import { insertCountingDuplicates, phonesUnknownToPlanner } from './staged-duplicates.ts';

/**
 * Rows lo < row_no <= hi of a staging table (`row_no`, `lead_id` drawn from the leads sequence,
 * text columns c0…cN holding normalised values or null), to become leads of one list, set-based:
 * one `insert … select` per table and chunk, never a statement per row.
 */
export interface StagedChunk {
  table: string;
  teamId: number;
  sourceId: number;
  listId: number;
  userId: number | null;
  status: TLeadStatus;
  /** The import the leads come from, named on their Timeline. */
  importId: number;
  filename: string;
  /** Column cN holds values of `columns[N]`'s attribute. */
  columns: Array<{ attributeId: number; type: TAttributeType }>;
  lo: number;
  hi: number;
  /**
   * Whether anything merges the trigram index's pending list besides the inserts themselves
   * (PostgreSQL's autovacuum; the embedded database has none).
   */
  autovacuum?: boolean;
  /**
   * An earlier chunk of the same run found the planner's statistics covering the team's phones (or
   * refreshed them): the check, two statements a chunk, is not repeated.
   */
  plannerKnowsPhones?: boolean;
}

const col = (i: number) => sql.ref(`s.c${i}`);
/** A staged field's values, one row each: a cell may have held several, joined by chr(31) (the parser's VALUE_SEPARATOR). */
const each = (field: RawBuilder<unknown>) => sql`unnest(string_to_array(${field}, chr(31)))`;
const rangeOf = (c: Pick<StagedChunk, 'lo' | 'hi'>) => sql`s.row_no > ${c.lo} and s.row_no <= ${c.hi}`;
const stagedOf = (c: Pick<StagedChunk, 'table'>) => sql`${sql.table(c.table)} s`;

/**
 * The phones of a chunk's staged rows, one row (`p.value`) for each phone column's value, as the
 * FROM … WHERE of a query over them; null when no column holds phones.
 */
function stagedPhones(c: Pick<StagedChunk, 'table' | 'columns' | 'lo' | 'hi'>): RawBuilder<unknown> | null {
  const rows = c.columns.flatMap((column, i) => (column.type === 'phone' ? [sql`(${col(i)})`] : []));
  if (rows.length === 0) return null;
  return sql`${stagedOf(c)} cross join lateral (values ${sql.join(rows)}) as f(field)
    cross join lateral ${each(sql.ref('f.field'))} as p(value) where ${rangeOf(c)} and p.value is not null`;
}

export type StagedPublish =
  | { missing: 'list' | 'attribute' }
  | {
      missing: null;
      /** Phase one: the values and Timeline rows, most of the work, under no team-wide lock. */
      writeValues(): Promise<void>;
      /** Phase two: the leads with their masks and duplicates, then the data version. Returns how many. */
      insertLeads(): Promise<number>;
    };

/**
 * Starts publishing a chunk in the caller's transaction: locks its list and attributes as foreign
 * keys would (lead rows have none, migration 0006), once a chunk, so one deleted meanwhile stops
 * the publish and nothing dangles; `missing` says which is gone. The caller then runs the two
 * phases in order, and may wait between them (an import's chunks take turns to commit there):
 * the team's duplicate lock is taken only in phase two, so chunks write their values side by side.
 */
export async function beginStagedPublish(tx: Transaction<DB>, c: StagedChunk): Promise<StagedPublish> {
  const list = await sql`
    select id from lists where id = ${c.listId} and team_id = ${c.teamId} and source_id = ${c.sourceId}
    for key share`.execute(tx);
  if (list.rows.length === 0) return { missing: 'list' };
  const attributeIds = [...new Set(c.columns.map((column) => column.attributeId))];
  const held = await sql<{ id: number; presence_bit: number | null }>`
    select id, presence_bit from lead_attributes where team_id = ${c.teamId} and id = any(${attributeIds}::bigint[])
    for key share`.execute(tx);
  if (held.rows.length !== attributeIds.length) return { missing: 'attribute' };
  const bits = new Map(held.rows.map((r) => [Number(r.id), r.presence_bit]));
  const staged = stagedOf(c);
  const range = rangeOf(c);

  return {
    missing: null,
    async writeValues() {
      // The GIN trigram index on values takes a big batch into its pending list, merged later
      // (autovacuum) instead of inside this transaction. Without autovacuum (embedded) the insert
      // that fills the list merges all of it: at 64 MB one chunk in ~20 held the one connection
      // for 11 s; at 1 MB each chunk merges about its own values, for the same total time
      // (decision 013). The leads' masks are written with the leads in phase two, so the value
      // triggers of 0007 stand aside.
      await sql`set local gin_pending_list_limit = ${sql.lit(c.autovacuum === false ? '1MB' : '64MB')}`.execute(tx);
      await writeMasksInBulk(tx);
      if (c.columns.length === 0) return;
      const values = sql.join(
        c.columns.map((column, i) => sql`(${sql.lit(column.attributeId)}::bigint, ${sql.lit(column.type)}, ${col(i)})`),
      );
      await sql`
        insert into lead_values (team_id, lead_id, attribute_id, type, value)
        select ${c.teamId}, s.lead_id, v.attribute_id, v.type, u.value
        from ${staged} cross join lateral (values ${values}) as v(attribute_id, type, field)
        cross join lateral ${each(sql.ref('v.field'))} as u(value)
        where ${range} and v.field is not null`.execute(tx);
      // The values as staged, in column order: the Timeline renders them as the creation's diff
      // when read (migration 0010), instead of a jsonb built and stored for every lead.
      const stagedValues = sql.join(c.columns.map((_, i) => col(i)));
      await sql`
        insert into lead_logs (team_id, lead_id, user_id, type, action, filename, import_file_id, import_values)
        select ${c.teamId}, s.lead_id, ${c.userId}, 'lead', 'created', ${c.filename}, ${c.importId},
          array[${stagedValues}]::text[]
        from ${staged} where ${range}`.execute(tx);
    },

    async insertLeads() {
      // From here to the commit the team's writers that move phones take turns: each recount must
      // see the other's committed leads (two imports side by side, an import and a hand-made lead).
      await holdTeamDuplicates(tx, c.teamId);
      const mask = maskOf(c.columns.map((column, i) => ({ bit: bits.get(column.attributeId), value: col(i) })));
      const lead = sql`${c.teamId}, ${c.sourceId}, ${c.listId}, ${c.status}, ${mask}`;
      const phones = stagedPhones(c);
      let count: number;
      if (phones) {
        if (!c.plannerKnowsPhones && (await phonesUnknownToPlanner(tx, c.teamId, phones))) {
          await sql`analyze lead_values`.execute(tx);
        }
        count = await insertCountingDuplicates(tx, c.teamId, lead, staged, range, phones);
      } else {
        const inserted = await sql`
          insert into leads (id, team_id, source_id, list_id, status, value_mask) overriding system value
          select s.lead_id, ${lead} from ${staged} where ${range} order by s.row_no`.execute(tx);
        count = Number(inserted.numAffectedRows ?? 0);
      }
      // Phones the team already looked up make their new leads looked up (and verified) at once: the
      // value triggers of 0039 stand aside for a chunk, as 0007's do.
      await sql`select herald_lead_lookup_flags(array(
        select distinct v.lead_id from lead_values v
        join phone_lookups pl on pl.team_id = v.team_id and pl.phone = v.value
        where v.team_id = ${c.teamId} and v.type = 'phone'
          and v.lead_id in (select s.lead_id from ${staged} where ${range})))`.execute(tx);
      await bumpDataVersion(tx, c.teamId);
      return count;
    },
  };
}

/**
 * Takes back the leads published from a chunk's staged rows (their values, Timeline and tallies go
 * with them, the cascades of 0006), recounts the duplicates of the team's other leads that shared
 * their phones, and bumps the data version when any went; returns how many. In the caller's
 * transaction, after the caller's own locks.
 */
export async function unpublishStaged(
  tx: Transaction<DB>,
  c: Pick<StagedChunk, 'table' | 'teamId' | 'columns' | 'lo' | 'hi'>,
): Promise<number> {
  await holdTeamDuplicates(tx, c.teamId);
  const deleted = await sql`
    delete from leads l using ${stagedOf(c)} where ${rangeOf(c)} and l.id = s.lead_id and l.team_id = ${c.teamId}`.execute(
    tx,
  );
  const count = Number(deleted.numAffectedRows ?? 0);
  const phones = stagedPhones(c);
  if (phones && count > 0) {
    await recountDuplicates(
      tx,
      c.teamId,
      sql`select distinct lv.lead_id from lead_values lv
        join (select distinct p.value from ${phones}) c on c.value = lv.value
        where lv.team_id = ${c.teamId} and lv.type = 'phone'`,
    );
  }
  if (count > 0) await bumpDataVersion(tx, c.teamId);
  return count;
}
