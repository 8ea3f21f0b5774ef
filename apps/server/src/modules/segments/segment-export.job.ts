import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import type { TExportRequest } from '@herald/shared/segments/segments.schemas';
import type { EventBus } from '../../events/event-bus.ts';
import type { JobContext } from '../../jobs/job-queue.ts';
import { CSV_BOM, csvLine } from './csv-cells.ts';
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
}

/** Streams a segment's leads to a CSV file in keyset batches (decision 010). */
export function createExportRunner(deps: ExportRunnerDeps) {
  async function emit(row: ExportRow | undefined) {
    if (row?.user_id) await deps.bus.publish({ userId: row.user_id }, { type: 'ExportStatus', payload: toExport(row) });
  }

  async function run(data: { exportId: number }, context: JobContext) {
    const row = await deps.exports.findByIdUnscoped(data.exportId);
    if (!row || Number(row.team_id) !== context.teamId) throw new Error('Export not found.');
    const teamId = context.teamId;
    const request = row.request as unknown as TExportRequest;
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

      const storedName = join(String(teamId), `${row.id}-${randomUUID()}.csv`);
      const path = join(deps.dir, storedName);
      await mkdir(join(deps.dir, String(teamId)), { recursive: true });
      const walk = await deps.leads.prepareWalk(teamId, Number(row.id), { where, search, order });
      const out = createWriteStream(path, { encoding: 'utf8' });
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
            await emit(await deps.exports.update(row.id, { progress, rows: written }));
          }
        }
        out.end();
        await once(out, 'finish');
      } catch (error) {
        out.destroy();
        await rm(path, { force: true });
        throw error;
      } finally {
        await deps.leads.endWalk(walk);
      }
      await emit(
        await deps.exports.update(row.id, {
          status: 'completed',
          stored_name: storedName,
          rows: written,
          progress: 100,
          completed_at: new Date(),
        }),
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await emit(await deps.exports.update(row.id, { status: 'failed', error: message }));
      throw error;
    }
  }

  return { run };
}
