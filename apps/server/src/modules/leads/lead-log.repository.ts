import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { DiffEntry } from '../../db/tables/leads.tables.ts';

type Db = Kysely<DB> | Transaction<DB>;

export interface LogEntryInput {
  lead_id: number;
  type: string;
  action: string;
  filename?: string | null;
  diff_log: DiffEntry[];
}

/** The Timeline: one row per change to a lead, with what changed in `diff_log`. */
export function createLeadLogRepository(db: Kysely<DB>) {
  return {
    async add(teamId: number, userId: number | null, entries: LogEntryInput[], tx: Db = db) {
      if (entries.length === 0) return;
      await tx
        .insertInto('lead_logs')
        .values(
          entries.map((e) => ({
            team_id: teamId,
            user_id: userId,
            lead_id: e.lead_id,
            type: e.type,
            action: e.action,
            filename: e.filename ?? null,
            diff_log: JSON.stringify(e.diff_log),
          })),
        )
        .execute();
    },

    async page(teamId: number, leadId: number, offset: number, limit: number) {
      const [rows, total] = await Promise.all([
        db
          .selectFrom('lead_logs')
          .select(['id', 'created_at', 'type', 'action', 'filename', 'diff_log'])
          .where('team_id', '=', teamId)
          .where('lead_id', '=', leadId)
          .orderBy('id', 'desc')
          .offset(offset)
          .limit(limit)
          .execute(),
        db
          .selectFrom('lead_logs')
          .select(sql<number>`count(*)`.as('n'))
          .where('team_id', '=', teamId)
          .where('lead_id', '=', leadId)
          .executeTakeFirstOrThrow(),
      ]);
      return {
        rows: rows.map((r) => ({
          ...r,
          created_at: r.created_at.toISOString(),
          diff_log: typeof r.diff_log === 'string' ? (JSON.parse(r.diff_log) as DiffEntry[]) : r.diff_log,
        })),
        total: Number(total.n),
      };
    },
  };
}

export type LeadLogRepository = ReturnType<typeof createLeadLogRepository>;
