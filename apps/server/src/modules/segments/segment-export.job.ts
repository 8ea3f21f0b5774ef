import { processMessage } from '@herald/shared/processes/processes.schemas';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import type { TExportRequest } from '@herald/shared/segments/segments.schemas';
import type { EventBus } from '../../events/event-bus.ts';
import type { JobContext, JobOutcome } from '../../jobs/process-jobs.ts';
import { startHeartbeat } from '../../jobs/resumable-runs.ts';
import { CSV_BOM, csvLine } from '@herald/shared/common/csv-cells';
import { exportColumnName, exportLabels, type TExportLanguage } from '@herald/shared/segments/export-labels';
import { type ExportRow, type ExportsRepository, toExport } from './exports.repository.ts';
import { LEAD_ORDER_FIELDS, type LeadOrderField, type SegmentLeadsRepository } from './segment-leads.repository.ts';
import type { SegmentsService } from './segments.service.ts';

export { EXPORT_JOB } from '@herald/shared/jobs/segments.jobs';

export interface ExportRunnerDeps {
  exports: ExportsRepository;
  leads: SegmentLeadsRepository;
  segments: Pick<SegmentsService, 'requireChain' | 'predicate'>;
  attributes: (teamId: number) => Promise<TLeadAttribute[]>;
  bus: EventBus;
  dir: string;
  /** Leads per keyset batch: one batch is all the export holds in memory. */
  batchSize: number;
  /** How often a run tells the database it is alive (the sweep's stale limit is several times it). */
  beatEveryMs: number;
  /** Rows other modules export through this runner, by the request's key (`campaign_id`). */
  sources?: { campaign?: ExportRowsSource };
}

type ExportRequest = TExportRequest & { language?: TExportLanguage; campaign_id?: number };

/** What a file is written from: its header, its rows in batches after a key, and what to release at the end. */
interface ExportPlan {
  header: string[];
  total: number;
  next(
    after: number | undefined,
    xlsx: boolean,
  ): Promise<{ count: number; last: number; text?: string; rows?: string[][] }>;
  end(): Promise<void>;
}

/**
 * Another module's rows as an export's file (the campaign audience, decision 038): registered by
 * that module at its start, so the exports' rows, files, progress and downloads stay in one place.
 */
export interface ExportRowsSource {
  plan(
    teamId: number,
    id: number,
    args: { search?: string; language?: TExportLanguage },
  ): Promise<{
    header: string[];
    total: number;
    batch(after: number, limit: number): Promise<{ rows: string[][]; count: number; last: number }>;
  }>;
}

/** Another run has taken the export (this one was given up for dead): it stops quietly. */
class SupersededError extends Error {}

/** Streams a segment's leads to a CSV file in keyset batches (decision 010). */
export function createExportRunner(deps: ExportRunnerDeps) {
  async function emit(row: ExportRow | undefined) {
    if (row?.user_id) await deps.bus.publish({ userId: row.user_id }, { type: 'ExportStatus', payload: toExport(row) });
  }

  /** A segment's leads, walked in the table's order (decision 010). */
  async function segmentPlan(
    teamId: number,
    row: ExportRow,
    request: ExportRequest,
    search: string | undefined,
    labels: ReturnType<typeof exportLabels>,
  ): Promise<ExportPlan> {
    if (row.segment_id === null) throw new Error('The audience was deleted.');
    const chain = await deps.segments.requireChain(teamId, Number(row.segment_id));
    const { where, inRanges } = await deps.segments.predicate(teamId, chain);
    const all = await deps.attributes(teamId);
    const byId = new Map(all.map((a) => [a.id, a]));
    const chosen = request.attributes.flatMap((id) => byId.get(id) ?? []);
    const columns = chosen.length > 0 ? chosen : all;
    const field = LEAD_ORDER_FIELDS.includes(request.order?.field as LeadOrderField)
      ? (request.order?.field as LeadOrderField)
      : 'id';
    const order = { field, dir: request.order?.dir ?? 'desc' };
    const { total } = await deps.leads.count(teamId, { where, search, inRanges });
    const ids = columns.map((a) => a.id);
    const walk = await deps.leads.prepareWalk(teamId, Number(row.id), { where, search, order });
    return {
      header: [...columns.map((a) => exportColumnName(a, request.language)), labels.status],
      total,
      next: (after, xlsx) => {
        const args = [teamId, walk, { where, search }, after, deps.batchSize, ids, labels.statuses] as const;
        return xlsx ? deps.leads.rowsBatch(...args) : deps.leads.renderBatch(...args);
      },
      end: () => deps.leads.endWalk(walk),
    };
  }

  /** A campaign's recipients and what each step did for them (decision 038), by lead id. */
  async function campaignPlan(
    teamId: number,
    campaignId: number,
    search: string | undefined,
    language: TExportLanguage | undefined,
  ): Promise<ExportPlan> {
    const source = deps.sources?.campaign;
    if (!source) throw new Error('Campaign exports are not wired.');
    const plan = await source.plan(teamId, campaignId, { search, language });
    return {
      header: plan.header,
      total: plan.total,
      next: async (after, xlsx) => {
        const batch = await plan.batch(after ?? 0, deps.batchSize);
        return xlsx ? batch : { ...batch, text: batch.rows.map((cells) => csvLine(cells)).join('') };
      },
      end: async () => {},
    };
  }

  async function run(data: { exportId: number }, context: JobContext): Promise<JobOutcome> {
    const found = await deps.exports.findByIdUnscoped(data.exportId);
    if (!found || Number(found.team_id) !== context.teamId) throw new Error('Export not found.');
    // A run that finds the export finished (or taken by another run) has nothing to do.
    const row = await deps.exports.claim(Number(found.id));
    if (!row) return 'superseded';
    await context.started();
    const teamId = context.teamId;
    const attempt = row.attempt;
    const request = row.request as unknown as ExportRequest;
    const labels = exportLabels(request.language);
    // Beats on a timer, so a long count or sort keeps the run alive; the sweep resends exports
    // whose beat stops (the process died) and they start over.
    const heartbeat = startHeartbeat(() => deps.exports.beat(row.id, attempt), deps.beatEveryMs);
    // Each attempt writes its own part file; only a completed one is renamed to the stored name.
    await mkdir(join(deps.dir, String(teamId)), { recursive: true });
    const partOf = (k: number) => join(deps.dir, String(teamId), `${row.id}-${k}.part`);
    const part = partOf(attempt);
    // What runs that died before this one had written.
    for (let k = 1; k < attempt; k++) await rm(partOf(k), { force: true });
    try {
      const search = request.search?.trim() || undefined;
      const plan = request.campaign_id
        ? await campaignPlan(teamId, request.campaign_id, search, request.language)
        : await segmentPlan(teamId, row, request, search, labels);
      const xlsx = request.format === 'xlsx';
      const file = xlsx ? await xlsxFile(part, plan.header) : await csvFile(part, plan.header);
      const total = plan.total;
      let written = 0;
      try {
        let after: number | undefined;
        let lastReported = 0;
        for (;;) {
          if (context.signal.aborted) throw new Error('The export was stopped.');
          const batch = await plan.next(after, xlsx);
          if (batch.count === 0) break;
          await file.write(batch);
          written += batch.count;
          after = batch.last;
          const progress = total > 0 ? Math.floor((written / total) * 100) : 100;
          if (progress >= lastReported + 5 && progress < 100) {
            lastReported = progress;
            await context.reportProgress(progress);
            const beat = await deps.exports.beat(row.id, attempt, { progress, rows: written });
            if (!beat) throw new SupersededError();
            await emit(beat);
          }
        }
        await file.end();
      } catch (error) {
        file.destroy();
        throw error;
      } finally {
        await plan.end();
      }
      const storedName = join(String(teamId), `${row.id}-${randomUUID()}.${xlsx ? 'xlsx' : 'csv'}`);
      await rename(part, join(deps.dir, storedName));
      const done = await deps.exports.finish(row.id, attempt, {
        status: 'completed',
        stored_name: storedName,
        rows: written,
        progress: 100,
        completed_at: new Date(),
      });
      if (!done) {
        await rm(join(deps.dir, storedName), { force: true });
        return 'superseded';
      }
      await emit(done);
      // The processes popover offers the file too: its message names the export.
      await context.reportProgress(100, { message: processMessage.exportReady(row.id) });
    } catch (error) {
      await rm(part, { force: true });
      if (error instanceof SupersededError) return 'superseded';
      // Stopped with the process (SIGTERM): the export stays pending, its process Running, and the
      // sweep after the restart sends it again.
      if (context.signal.aborted) return 'superseded';
      const message = error instanceof Error ? error.message : String(error);
      const failed = await deps.exports.finish(row.id, attempt, { status: 'failed', error: message });
      // Another run owns the export now (this one was given up for dead): its process is not ours.
      if (!failed) return 'superseded';
      await emit(failed);
      throw error;
    } finally {
      await heartbeat.stop();
    }
  }

  return { run };
}

/** A CSV file written batch by batch (the database renders the lines), with the BOM spreadsheets need. */
async function csvFile(path: string, header: string[]) {
  const out = createWriteStream(path, { encoding: 'utf8' });
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(CSV_BOM + csvLine(header));
  return {
    write: (batch: { text?: string }) => write(batch.text ?? ''),
    async end() {
      out.end();
      await once(out, 'finish');
    },
    destroy: () => out.destroy(),
  };
}

/**
 * An XLSX file through exceljs's streaming writer: each row is committed to the zip as it is added,
 * so memory stays one batch whatever the size. Every cell is a text cell (inline strings, no shared
 * string table to hold in memory), so phones stay phones and nothing is read as a formula.
 */
async function xlsxFile(path: string, header: string[]) {
  // Loaded with the first XLSX export, not at start: exceljs was the slowest module of a start.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: path,
    useStyles: false,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet('Leads');
  sheet.addRow(header).commit();
  return {
    async write(batch: { rows?: string[][] }) {
      for (const cells of batch.rows ?? []) sheet.addRow(cells).commit();
    },
    async end() {
      sheet.commit();
      await workbook.commit();
    },
    destroy: () => {},
  };
}
