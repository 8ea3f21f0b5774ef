import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import type { TImportStage } from '@herald/shared/imports/imports.schemas';
import type { TProcessPhase } from '@herald/shared/processes/processes.schemas';
import type { ImportAllowance } from '../../db/plan-limits.ts';
import type { EventBus } from '../../events/event-bus.ts';
import type { JobContext as ProcessContext } from '../../jobs/process-jobs.ts';
import type { SliceSizer } from '../../db/slice-sizer.ts';
import type { FailedRowsRepository } from './failed-rows.repository.ts';
import { ImportFailure } from './import-failure.ts';
import type { ImportEvent } from './import-state.ts';
import { type createImportStaging, SupersededError } from './import-staging.repository.ts';
import type { ImportFilePatch, ImportFileRow, ImportsRepository } from './imports.repository.ts';
import type { MappedColumn } from './parser/parse-protocol.ts';

/** A run's context: its process shows the import's phases (parsing, resolving, failing, cancelling). */
export type JobContext = ProcessContext<TProcessPhase<'imports.run'>>;

/** A mapped column as staged: c0, c1, … hold these, in this order. */
export type StagedColumn = MappedColumn & { name: string };

/** Leads an import adds (or a cancel takes back) from which the lead tables are analyzed after it. */
export const REFRESH_STATISTICS_AFTER = 10_000;

export interface ImportRunnerDeps {
  repo: ImportsRepository;
  failedRows: FailedRowsRepository;
  staging: ReturnType<typeof createImportStaging>;
  bus: EventBus;
  attributes: (teamId: number) => Promise<TLeadAttribute[]>;
  ignoredFormats: (teamId: number) => Promise<string>;
  defaultCountry?: (teamId: number) => Promise<string>;
  filePath: (storedName: string) => string;
  /** A sizer for one run's publishing chunks (a fresh one per run: each learns its own rate). */
  chunks: () => SliceSizer;
  /** Sizes the reads of the summary over every staged row (a fresh one per run). */
  readSlices: () => SliceSizer;
  /** Leads per take-back transaction: smaller on the embedded database so other queries interleave. */
  chunkSize: number;
  /** Chunks published at once, each on its own connection (1 on the embedded database). */
  publishConcurrency: number;
  batchSize: number;
  /** VACUUM after a cancel or a broken file took many leads back: the embedded database has no autovacuum. */
  vacuumAfterTakeBack: boolean;
  /** The plan's import limit: the run claims its good rows as it reads them (decision 015). */
  importAllowance: ImportAllowance;
  /**
   * Runs after an import completes (the lookups module starts a lookup of its list when the mapping
   * asked for `check_mobile_status`); registered at build time, none by default.
   */
  completed: Array<(row: ImportFileRow) => Promise<void>>;
}

/**
 * The file could not be read, or holds more leads than the plan allows (as opposed to the database
 * failing): retrying will not help, and what the run published of it is taken back.
 */
export class FileError extends ImportFailure {}

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Tells the user who started an import where it stands (`ImportStatus`). */
export async function announceImport(bus: EventBus, row: ImportFileRow, stage: TImportStage, progress: number) {
  if (row.user_id === null) return;
  await bus.publish(
    { userId: row.user_id },
    {
      type: 'ImportStatus',
      payload: {
        id: row.id,
        name: row.name,
        stage,
        status: row.status,
        progress,
        parsed_leads_count: row.parsed_leads_count,
        leads_processed: row.leads_processed,
        leads_failed: row.leads_failed,
        error: row.error,
        error_code: row.error_code,
      },
    },
  );
}

/**
 * Writes `patch` for `row`'s run, fenced by its attempt, moving its status by `event` if given; a
 * run that has lost its import (to a newer run, or with its list) stops here.
 */
export async function advance(
  deps: Pick<ImportRunnerDeps, 'repo'>,
  row: ImportFileRow,
  patch: Omit<ImportFilePatch, 'status'>,
  event?: Exclude<ImportEvent, 'claim' | 'orphan'>,
): Promise<ImportFileRow> {
  const fence = { attempt: row.attempt };
  const updated = event
    ? await deps.repo.move(row.id, event, patch, fence)
    : await deps.repo.update(row.id, patch, fence);
  if (!updated) throw new SupersededError();
  return updated;
}

/** The columns as staged (c0, c1, …), recorded when the run that read the file made its table. */
export function stagedColumnsOf(row: ImportFileRow): StagedColumn[] {
  if (!row.staging_columns) throw new Error(`Import ${row.id} has no staged columns.`);
  return row.staging_columns;
}

/** Best effort, after the import has ended: a failure here must not turn it into a failed one. */
export async function refreshStatistics(deps: Pick<ImportRunnerDeps, 'staging'>, vacuum: boolean) {
  await deps.staging.refreshStatistics(vacuum).catch(() => {});
}
