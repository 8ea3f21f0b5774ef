import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { message, type TMessage } from '@herald/shared/common/messages';
import { pageMeta, type TPageQuery } from '@herald/shared/common/pagination.schemas';
import type { TImportMappingRequest } from '@herald/shared/imports/imports.schemas';
import type { AuthUser } from '../../auth/authenticate.ts';
import type { ImportAllowance } from '../../db/plan-limits.ts';
import { AppError } from '../../http/app-error.ts';
import { pageArgs } from '../../http/paging.ts';
import { historyItemOf, importFileOf, syncImportOf } from './import-file.dto.ts';
import { isResumable, listDeleted } from './import-failure.ts';
import type { ImportFileRow, ImportsRepository } from './imports.repository.ts';

export interface ImportsDeps {
  repo: ImportsRepository;
  attributes: (teamId: number) => Promise<TLeadAttribute[]>;
  createAttributes: (
    teamId: number,
    rows: Array<{ name: string; sort_order: number; type: 'string' | 'number' | 'date' | 'url' }>,
  ) => Promise<TLeadAttribute[]>;
  /** Starts the background run (job + process row); returns the process id. */
  start: (user: AuthUser, importId: number, title: string) => Promise<number>;
  /** Sends an import's job again: to resume publishing after a failure, or to take back a cancelled one. */
  resume: (importId: number) => Promise<void>;
  /** The plan's import limit: dispatch reserves its place under it (decision 015). */
  importAllowance: ImportAllowance;
  /** Tells the user who started an import that it ended failed (as it stood, with its reason). */
  announceFailed: (row: ImportFileRow) => Promise<void>;
  /** The start of the plan's history window: the history leaves out imports that ended before it. */
  historySince?: (teamId: number) => Promise<Date | null>;
}

const HISTORY_ORDER = ['created_at', 'name', 'id', 'parsed_leads_count', 'leads_processed', 'leads_failed'] as const;

/** The import flow after the upload: Match Format → dispatch → progress, history, cancel and resume. */
export function createImportsService(deps: ImportsDeps) {
  const { repo } = deps;

  /** Cancels an import and sends the run that takes it back; undefined when it had ended. */
  async function cancelRun(teamId: number, id: number) {
    const cancelled = await repo.cancel(teamId, id);
    if (cancelled?.status === 'cancel_queued') await deps.resume(id);
    return cancelled;
  }

  async function requireImport(teamId: number, id: number) {
    const row = await repo.findById(teamId, id);
    if (!row) throw new AppError('not_found', 'Import not found.');
    return row;
  }
  async function full(teamId: number, id: number) {
    const row = await requireImport(teamId, id);
    return importFileOf(row, await repo.columns(teamId, id));
  }

  return {
    get: (user: AuthUser, id: number) => full(user.teamId, id),

    async mapColumns(user: AuthUser, id: number, body: TImportMappingRequest) {
      const row = await requireImport(user.teamId, id);
      if (row.status !== 'uploaded') throw new AppError('import_already_started');
      const columns = await repo.columns(user.teamId, id);
      const byId = new Map(columns.map((c) => [c.id, c]));
      let attributes = await deps.attributes(user.teamId);
      const errors: Record<string, TMessage[]> = {};
      body.list.forEach((entry, i) => {
        if (!byId.has(entry.processing_document_attribute_id))
          errors[`list.${i}.processing_document_attribute_id`] = [message('unknown_column')];
        if (entry.lead_attribute_id && !attributes.some((a) => a.id === entry.lead_attribute_id)) {
          errors[`list.${i}.lead_attribute_id`] = [message('unknown_attribute')];
        }
      });
      if (Object.keys(errors).length > 0) throw AppError.fields(errors);
      // A new name equal to an existing attribute's maps to it; others are created once.
      const wanted = new Map<string, { name: string; type: 'string' | 'number' | 'date' | 'url' }>();
      for (const e of body.list) {
        if (e.ignore || e.lead_attribute_id || !e.name) continue;
        const key = e.name.toLowerCase();
        if (!attributes.some((a) => a.name.toLowerCase() === key) && !wanted.has(key)) {
          wanted.set(key, { name: e.name, type: e.type ?? 'string' });
        }
      }
      if (wanted.size > 0) {
        const top = Math.max(0, ...attributes.map((a) => a.sort_order));
        await deps.createAttributes(
          user.teamId,
          [...wanted.values()].map((w, i) => ({ ...w, sort_order: top + i + 1 })),
        );
        attributes = await deps.attributes(user.teamId);
      }
      const mapping = body.list.map((e) => {
        const attribute = e.ignore
          ? undefined
          : e.lead_attribute_id
            ? attributes.find((a) => a.id === e.lead_attribute_id)
            : e.name
              ? attributes.find((a) => a.name.toLowerCase() === (e.name as string).toLowerCase())
              : undefined;
        return {
          id: e.processing_document_attribute_id,
          lead_attribute_id: attribute?.id ?? null,
          ignored: !attribute,
        };
      });
      // Columns left out of the request are ignored.
      for (const c of columns) {
        if (!mapping.some((m) => m.id === c.id)) mapping.push({ id: c.id, lead_attribute_id: null, ignored: true });
      }
      if (!mapping.some((m) => m.lead_attribute_id)) throw new AppError('import_mapping_required');
      // Kept on the import: when it completes, a lookup of its list starts (decision 041).
      const check = body.check_mobile_status === undefined ? undefined : [true, '1'].includes(body.check_mobile_status);
      await repo.saveMapping(user.teamId, id, mapping, check);
      return full(user.teamId, id);
    },

    async setBlackList(user: AuthUser, id: number, blackList: boolean) {
      const row = await requireImport(user.teamId, id);
      if (row.status !== 'uploaded') throw new AppError('import_already_started');
      await repo.update(id, { black_list: blackList }, { teamId: user.teamId });
      return full(user.teamId, id);
    },

    async dispatch(user: AuthUser, id: number) {
      const row = await requireImport(user.teamId, id);
      if (row.status !== 'uploaded') throw new AppError('import_already_started');
      const columns = await repo.columns(user.teamId, id);
      // Mapped, then its attribute deleted (the key sets it null): the user maps the file again.
      if (columns.some((c) => !c.ignored && !c.lead_attribute_id)) throw new AppError('import_mapping_stale');
      if (!columns.some((c) => c.lead_attribute_id && !c.ignored)) throw new AppError('import_mapping_required');
      await deps.importAllowance.reserve(user.teamId, id);
      const queued = await repo.move(id, 'dispatch', { stage: 'parse', progress: 0 }, { teamId: user.teamId });
      if (!queued) throw new AppError('import_already_started');
      const processId = await deps.start(user, id, row.name);
      await repo.update(id, { process_id: processId }, { teamId: user.teamId });
      return full(user.teamId, id);
    },

    /**
     * Cancels the runs under way into lists (or sources) about to be deleted. On PostgreSQL the
     * delete waits for the import's row, which a run's chunks hold two at a time, each taking it
     * while the one before still has it: the delete would wait out the whole publish (decision 009,
     * "Deleting the list of a running import"). Cancelled first, the run stops after its chunk in
     * flight, and its take-back, one chunk at a time, lets the delete in; finding its list gone, it
     * ends its process Failed.
     */
    async stopRunsOf(teamId: number, by: 'list_id' | 'source_id', ids: number[]) {
      const running = await repo.runningOf(teamId, by, ids);
      for (const { id } of running) await cancelRun(teamId, id);
      // Called once the delete is done. The import rows went with it, so their runs end without a
      // word to their users: each is told here, as any failed import ('Import failed!' and why).
      const { message, code } = listDeleted();
      return async () => {
        for (const row of running) {
          await deps.announceFailed({ ...row, status: 'failed', error: message, error_code: code, leads_processed: 0 });
        }
      };
    },

    /**
     * Cancels an import (decision 009, "Cancelling"): one never run ends at once; a running or
     * resumable one is taken back by a run of its job, which the popover shows until Cancelled.
     */
    async cancel(user: AuthUser, id: number) {
      await requireImport(user.teamId, id);
      if (!(await cancelRun(user.teamId, id))) throw new AppError('import_not_cancellable');
      return full(user.teamId, id);
    },

    async active(user: AuthUser) {
      return { data: (await repo.active(user.teamId)).map(historyItemOf) };
    },

    async history(user: AuthUser, query: TPageQuery) {
      const args = pageArgs(query, HISTORY_ORDER, { field: 'created_at', dir: 'desc' });
      const since = (await deps.historySince?.(user.teamId)) ?? null;
      const { rows, total } = await repo.page(user.teamId, { ...args, since });
      return { data: rows.map(historyItemOf), meta: pageMeta(query.page, query.limit, total) };
    },

    async syncImport(user: AuthUser, id: number) {
      return syncImportOf(await requireImport(user.teamId, id));
    },

    /** `PUT sync-import/{id} {status: 'pending'}`: resumes an import that failed once it had published; else a no-op. */
    async requestSync(user: AuthUser, id: number) {
      const row = await requireImport(user.teamId, id);
      if (isResumable(row)) {
        const requeued = await repo.move(
          id,
          'resume',
          { error: null, error_code: null, finished_at: null },
          { teamId: user.teamId },
        );
        if (requeued) await deps.resume(id);
      }
      return syncImportOf(await requireImport(user.teamId, id));
    },
  };
}

export type ImportsService = ReturnType<typeof createImportsService>;
