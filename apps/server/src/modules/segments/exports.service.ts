import { join } from 'node:path';
import type { TExportRequest } from '@herald/shared/segments/segments.schemas';
import { message } from '@herald/shared/common/messages';
import type { AuthUser } from '../../auth/authenticate.ts';
import type { EventBus } from '../../events/event-bus.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { AppError } from '../../http/app-error.ts';
import type { Language } from '../../http/request-language.ts';
import { type ExportsRepository, toExport } from './exports.repository.ts';
import { EXPORT_JOB } from './segment-export.job.ts';

export interface ExportsDeps {
  repo: ExportsRepository;
  jobs: Pick<JobQueue, 'enqueueProcess'>;
  bus: EventBus;
  requireSegment: (teamId: number, id: number) => Promise<unknown>;
  dir: string;
}

const EXPORT_WORD: Record<Language, string> = { uk: 'Експорт', en: 'Export', ru: 'Экспорт' };

/** Starting, listing and serving CSV and XLSX exports of segments. */
export function createExportsService(deps: ExportsDeps) {
  const { repo } = deps;
  /** A new export row and its process; `request` is what the run reads (decision 010). */
  async function begin(
    user: AuthUser,
    segmentId: number | null,
    request: Record<string, unknown> & { name: string },
    language: Language,
  ) {
    const row = await repo.create({
      team_id: user.teamId,
      user_id: user.id,
      segment_id: segmentId,
      name: request.name,
      // The requester's language names the file's header and status values (the run has no request).
      request: { ...request, language },
    });
    const process = await deps.jobs.enqueueProcess(
      EXPORT_JOB,
      { exportId: Number(row.id) },
      { teamId: user.teamId, userId: user.id, title: `${EXPORT_WORD[language]} ${request.name}` },
    );
    const updated = (await repo.update(Number(row.id), { process_id: process.id })) ?? row;
    const payload = toExport(updated);
    await deps.bus.publish({ userId: user.id }, { type: 'ExportStatus', payload });
    return payload;
  }

  return {
    /** `language`: the requester's, for the process title their popover shows. */
    async start(user: AuthUser, segmentId: number, request: TExportRequest, language: Language) {
      await deps.requireSegment(user.teamId, segmentId);
      return begin(user, segmentId, request, language);
    },

    /**
     * A campaign's audience as a file (decision 038), through the same rows, job, popover and
     * download; `requireCampaign` answers 404 for another team's campaign before anything is made.
     */
    async startCampaign(
      user: AuthUser,
      campaignId: number,
      request: { name: string; search?: string; format: 'csv' | 'xlsx' },
      language: Language,
      requireCampaign: (teamId: number, id: number) => Promise<void>,
    ) {
      await requireCampaign(user.teamId, campaignId);
      return begin(user, null, { ...request, attributes: [], campaign_id: campaignId }, language);
    },

    async active(user: AuthUser) {
      return { data: (await repo.findActive(user.teamId, user.id)).map(toExport) };
    },

    /** The file of a finished export of the user's team. */
    async file(user: AuthUser, id: number) {
      const row = await repo.findById(user.teamId, id);
      if (row?.status !== 'completed' || !row.stored_name) throw new AppError('not_found', message('export_not_found'));
      const xlsx = row.stored_name.endsWith('.xlsx');
      const safeName = `${row.name.replace(/[^\p{L}\p{N} ._-]+/gu, '_').trim() || 'export'}.${xlsx ? 'xlsx' : 'csv'}`;
      const contentType = xlsx
        ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
        : 'text/csv; charset=utf-8';
      return { path: join(deps.dir, row.stored_name), fileName: safeName, contentType };
    },
  };
}

export type ExportsService = ReturnType<typeof createExportsService>;
