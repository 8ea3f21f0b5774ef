import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { DiffEntry } from '../../db/tables/leads.tables.ts';
import type { TLeadLogEntry } from '@herald/shared/leads/leads.schemas';

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

  return {
    /** `since`: the plan's history window (null: all of it). */
    async page(teamId: number, leadId: number, offset: number, limit: number, since: Date | null = null) {
      const [rows, total] = await Promise.all([
        db
          .selectFrom('lead_logs as g')
          .leftJoin('import_files as f', (j) => j.onRef('f.id', '=', 'g.import_file_id').on('f.team_id', '=', teamId))
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
          .where('g.lead_id', '=', leadId)
          .$if(since !== null, (q) => q.where('g.created_at', '>=', since as Date))
          .orderBy('g.id', 'desc')
          .offset(offset)
          .limit(limit)
          .execute(),
        db
          .selectFrom('lead_logs')
          .select(sql<number>`count(*)`.as('n'))
          .where('team_id', '=', teamId)
          .where('lead_id', '=', leadId)
          .$if(since !== null, (q) => q.where('created_at', '>=', since as Date))
          .executeTakeFirstOrThrow(),
      ]);
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
      return {
        rows: entries.map((e) => {
          const id = e.diff_log.find((d) => d.message_id)?.message_id;
          const sent = id ? messages.get(id) : undefined;
          return sent ? { ...e, message: sent } : e;
        }),
        total: Number(total.n),
      };
    },
  };
}

export type LeadLogRepository = ReturnType<typeof createLeadLogRepository>;
