import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { DiffEntry } from '../../db/tables/leads.tables.ts';

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
      return {
        rows: rows.map(({ import_values, staging_columns, ...r }) => ({
          ...r,
          created_at: r.created_at.toISOString(),
          diff_log: import_values
            ? importDiff(import_values, staging_columns)
            : typeof r.diff_log === 'string'
              ? (JSON.parse(r.diff_log) as DiffEntry[])
              : r.diff_log,
        })),
        total: Number(total.n),
      };
    },
  };
}

export type LeadLogRepository = ReturnType<typeof createLeadLogRepository>;
