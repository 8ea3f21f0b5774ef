import type { ColumnType, Generated } from 'kysely';
import type { TSegmentCondition } from '@herald/shared/segments/segment-conditions';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

export interface SegmentsTable {
  id: Generated<number>;
  team_id: number;
  parent_id: number | null;
  name: string;
  ignore_new_leads: Generated<boolean>;
  conditions: ColumnType<TSegmentCondition[], string, string>;
  version: Generated<number>;
  frozen_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface SegmentMembersTable {
  segment_id: number;
  lead_id: number;
  team_id: number;
}

export interface ExportsTable {
  id: Generated<number>;
  team_id: number;
  user_id: number | null;
  segment_id: number | null;
  process_id: number | null;
  name: string;
  request: ColumnType<Record<string, unknown>, string, string>;
  stored_name: string | null;
  status: Generated<'pending' | 'completed' | 'failed'>;
  rows: Generated<number>;
  progress: Generated<number>;
  error: string | null;
  /** Bumped by each run that claims the export (migration 0008). */
  attempt: Generated<number>;
  /** Last sign of life of the run writing the file; null before a run starts. */
  heartbeat_at: Date | null;
  created_at: CreatedAt;
  completed_at: Date | null;
}

export interface SegmentsTables {
  segments: SegmentsTable;
  segment_members: SegmentMembersTable;
  exports: ExportsTable;
}
