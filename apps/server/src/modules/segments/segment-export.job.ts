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
import { type ExportRow, type ExportsRepository, toExport } from './exports.repository.ts';
import { LEAD_ORDER_FIELDS, type LeadOrderField, type SegmentLeadsRepository } from './segment-leads.repository.ts';
import type { SegmentsService } from './segments.service.ts';

export const EXPORT_JOB = 'segments.export';

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
}

/** Another run has taken the export (this one was given up for dead): it stops quietly. */
class SupersededError extends Error {}

/** Streams a segment's leads to a CSV file in keyset batches (decision 010). */
export function createExportRunner(deps: ExportRunnerDeps) {
  async function emit(row: ExportRow | undefined) {
    if (row?.user_id) await deps.bus.publish({ userId: row.user_id }, { type: 'ExportStatus', payload: toExport(row) });
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
    const request = row.request as unknown as TExportRequest;
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
      if (row.segment_id === null) throw new Error('The audience was deleted.');
      const chain = await deps.segments.requireChain(teamId, Number(row.segment_id));
      const where = await deps.segments.predicate(teamId, chain);
      const all = await deps.attributes(teamId);
      const byId = new Map(all.map((a) => [a.id, a]));
      const chosen = request.attributes.flatMap((id) => byId.get(id) ?? []);
      const columns = chosen.length > 0 ? chosen : all;
      const field = LEAD_ORDER_FIELDS.includes(request.order?.field as LeadOrderField)
        ? (request.order?.field as LeadOrderField)
        : 'id';
      const order = { field, dir: request.order?.dir ?? 'desc' };
      const search = request.search?.trim() || undefined;
      const { total } = await deps.leads.count(teamId, { where, search });

      const walk = await deps.leads.prepareWalk(teamId, Number(row.id), { where, search, order });
      const out = createWriteStream(part, { encoding: 'utf8' });
      const write = async (text: string) => {
        if (!out.write(text)) await once(out, 'drain');
      };
      let written = 0;
      try {
        await write(CSV_BOM + csvLine([...columns.map((a) => a.name), 'Status']));
        let after: number | undefined;
        let lastReported = 0;
        for (;;) {
          if (context.signal.aborted) throw new Error('The export was stopped.');
          const batch = await deps.leads.renderBatch(
            teamId,
            walk,
            { where, search },
            after,
            deps.batchSize,
            columns.map((a) => a.id),
          );
          if (batch.count === 0) break;
          await write(batch.text);
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
        out.end();
        await once(out, 'finish');
      } catch (error) {
        out.destroy();
        throw error;
      } finally {
        await deps.leads.endWalk(walk);
      }
      const storedName = join(String(teamId), `${row.id}-${randomUUID()}.csv`);
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
