import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { DiffEntry } from '../../db/tables/leads.tables.ts';
import type { TLeadLogEntry } from '@herald/shared/leads/leads.schemas';
import { createLeadCampaignsRepository } from './lead-campaigns.repository.ts';

type StagedName = { name: string };

/**
 * An imported lead's "created" entry keeps its values as an array in the import's column order
 * (migration 0010); the diff is the one a manual create writes, one `added` per stored value.
 */
function importDiff(values: Array<string | null>, columns: StagedName[] | string | null): DiffEntry[] {
  const names = (typeof columns === 'string' ? (JSON.parse(columns) as StagedName[]) : (columns ?? [])).map(
    (c) => c.name,
  );
  // A field may hold several values of a cell, joined (the import's VALUE_SEPARATOR).
  return values.flatMap((field, i) =>
    field === null
      ? []
      : field.split('\u001f').map((value) => ({
          action: 'added' as const,
          lead_attribute_name: names[i] ?? '',
          lead_attribute_value: value,
          value_from: null,
          value_to: value,
        })),
  );
}

/** The Timeline: one row per change to a lead, with what changed in `diff_log` (written by the lead store). */
export function createLeadLogRepository(db: Kysely<DB>) {
  /** The messages a page of entries names, with their gateway's name and the team's currency. */
  async function messagesOf(teamId: number, ids: number[]) {
    if (ids.length === 0) return new Map<number, TLeadLogEntry['message'] & {}>();
    const rows = await db
      .selectFrom('messages as m')
      .innerJoin('teams as t', 't.id', 'm.team_id')
      .leftJoin('gateways as w', (j) => j.onRef('w.id', '=', 'm.gateway_id').onRef('w.team_id', '=', 'm.team_id'))
      .select(['m.id', 'm.sender', 'w.name as gateway', 'm.parts', 'm.price', 't.balance_currency', 'm.status'])
      .where('m.team_id', '=', teamId)
      .where('m.id', 'in', ids)
      .execute();
    return new Map(
      rows.map((r) => [
        Number(r.id),
        {
          id: Number(r.id),
          from: r.sender,
          gateway: r.gateway,
          parts: r.parts,
          price: Number(r.price),
          currency: r.balance_currency,
          status: r.status,
        },
      ]),
    );
  }

  const campaigns = createLeadCampaignsRepository(db);

  /** The page's keys, newest first: the lead's log entries and its campaign messages, interleaved by time. */
  async function pageKeys(teamId: number, leadId: number, offset: number, limit: number, since: Date | null) {
    const logs = sql`select 'log' as src, g.id, g.created_at as at from lead_logs g
      where g.team_id = ${teamId} and g.lead_id = ${leadId} ${since ? sql`and g.created_at >= ${since}` : sql``}`;
    const keys = await sql<{ src: 'log' | 'campaign'; id: string | number }>`select k.src, k.id
      from (${logs} union all ${campaigns.timelineKeys(teamId, leadId, since)}) k
      order by k.at desc, k.id desc offset ${offset} limit ${limit}`.execute(db);
    return keys.rows.map((k) => ({ src: k.src, id: Number(k.id) }));
  }

  async function countAll(teamId: number, leadId: number, since: Date | null): Promise<number> {
    const r = await sql<{ n: string | number }>`select
        (select count(*) from lead_logs g where g.team_id = ${teamId} and g.lead_id = ${leadId}
          ${since ? sql`and g.created_at >= ${since}` : sql``})
        + (select count(*) from (${campaigns.timelineKeys(teamId, leadId, since)}) c) as n`.execute(db);
    return Number(r.rows[0]?.n ?? 0);
  }

  return {
    /** `since`: the plan's history window (null: all of it). */
    async page(teamId: number, leadId: number, offset: number, limit: number, since: Date | null = null) {
      const keys = await pageKeys(teamId, leadId, offset, limit, since);
      const total = await countAll(teamId, leadId, since);
      const logIds = keys.filter((k) => k.src === 'log').map((k) => k.id);
      const rows =
        logIds.length === 0
          ? []
          : await db
              .selectFrom('lead_logs as g')
              .leftJoin('import_files as f', (j) =>
                j.onRef('f.id', '=', 'g.import_file_id').on('f.team_id', '=', teamId),
              )
              .select([
                'g.id',
                'g.created_at',
                'g.type',
                'g.action',
                'g.filename',
                'g.diff_log',
                'g.import_values',
                'f.staging_columns',
              ])
              .where('g.team_id', '=', teamId)
              .where('g.id', 'in', logIds)
              .execute();
      const entries = rows.map(({ import_values, staging_columns, ...r }) => ({
        ...r,
        created_at: r.created_at.toISOString(),
        diff_log: import_values
          ? importDiff(import_values, staging_columns)
          : typeof r.diff_log === 'string'
            ? (JSON.parse(r.diff_log) as DiffEntry[])
            : r.diff_log,
      }));
      const messages = await messagesOf(
        teamId,
        entries.flatMap((e) => e.diff_log.flatMap((d) => (d.message_id ? [d.message_id] : []))),
      );
      const logs = new Map(
        entries.map((e): [number, TLeadLogEntry] => {
          const id = e.diff_log.find((d) => d.message_id)?.message_id;
          const sent = id ? messages.get(id) : undefined;
          return [Number(e.id), sent ? { ...e, message: sent } : e];
        }),
      );
      const sent = await campaigns.entries(
        teamId,
        keys.filter((k) => k.src === 'campaign').map((k) => k.id),
      );
      return {
        rows: keys.flatMap((k) => (k.src === 'log' ? logs.get(k.id) : sent.get(k.id)) ?? []),
        total,
      };
    },
  };
}

export type LeadLogRepository = ReturnType<typeof createLeadLogRepository>;
