import { rm } from 'node:fs/promises';
import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { pageMeta, type TPageQuery } from '@herald/shared/common/pagination.schemas';
import { joinValues } from '@herald/shared/common/csv-cells';
import type {
  TFailedRowLine,
  TFailedRowsHead,
  TImportFormat,
  TImportMappingRequest,
} from '@herald/shared/imports/imports.schemas';
import { message, type TMessage } from '@herald/shared/common/messages';
import type { AuthUser } from '../../auth/authenticate.ts';
import { AppError } from '../../http/app-error.ts';
import { pageArgs } from '../../http/paging.ts';
import type { Language } from '../../http/request-language.ts';
import { columnNames, proposeMapping } from './column-mapping.ts';
import {
  checkContentMatches,
  checkZip,
  detectDelimiter,
  detectEncoding,
  readHead,
  XLS_MAX_BYTES,
} from './file-sniff.ts';
import { historyItemOf, importFileOf, syncImportOf } from './import-file.dto.ts';
import { isResumable, listDeleted } from './import-failure.ts';
import type { ImportFileRow, ImportsRepository } from './imports.repository.ts';
import { parseInWorker } from './parser/parse-client.ts';

export interface ImportsDeps {
  repo: ImportsRepository;
  attributes: (teamId: number) => Promise<TLeadAttribute[]>;
  createAttributes: (
    teamId: number,
    rows: Array<{ name: string; sort_order: number; type: 'string' | 'number' | 'date' | 'url' }>,
  ) => Promise<TLeadAttribute[]>;
  requireList: (teamId: number, listId: number) => Promise<{ id: number; source_id: number }>;
  /** The team's default phone country, which the proposed mapping reads sample phones in. */
  defaultCountry?: (teamId: number) => Promise<string>;
  /** Starts the background run (job + process row); returns the process id. */
  start: (user: AuthUser, importId: number, title: string) => Promise<number>;
  /** Sends an import's job again: to resume publishing after a failure, or to take back a cancelled one. */
  resume: (importId: number) => Promise<void>;
  /** Rows the team may still import under its plan (null: unlimited, until plans land). */
  importAllowance: (teamId: number) => Promise<number | null>;
  /** Tells the user who started an import that it ended failed (as it stood, with its reason). */
  announceFailed: (row: ImportFileRow) => Promise<void>;
}

export interface UploadInput {
  listId: number | undefined;
  blackList: boolean;
  fileName: string;
  format: TImportFormat;
  path: string;
  storedName: string;
  size: number;
  /** The uploader's, for the names of blank columns. */
  language: Language;
}

/**
 * Columns a file may have: as many as Match Format takes in one request (its schema's cap). A
 * wider file could not be mapped, and its preview is matched cell by cell on this thread.
 */
export const MAX_IMPORT_COLUMNS = 500;

/**
 * Uploads read at once: each reads its header in a parser thread of up to 384 MB, so twenty at once
 * could take the process's memory (and, embedded, the database's with it). More wait their turn.
 */
const PREVIEWS_AT_ONCE = 2;

/** Failed rows read at once for their export: at most 100,000 are kept an import. */
const FAILED_EXPORT_BATCH = 2000;

/** A failed row's reason in English and as the message the web translates (older rows: its English). */
function reasonOf(row: { reason: string; reason_message: TMessage | null }) {
  return { reason: row.reason, reason_message: row.reason_message ?? { code: row.reason } };
}

/** Runs `fn` when fewer than `limit` others run (first come, first served). */
function createLimiter(limit: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

const HISTORY_ORDER = ['created_at', 'name', 'id', 'parsed_leads_count', 'leads_processed', 'leads_failed'] as const;
const FAILED_ORDER = ['id', 'row_number', 'reason'] as const;

/** The import flow: upload → Match Format → dispatch → progress, history and failed rows. */
export function createImportsService(deps: ImportsDeps) {
  const { repo } = deps;
  const previewing = createLimiter(PREVIEWS_AT_ONCE);

  /**
   * The attributes an import's columns were mapped to (`mapped`, once each in column order, with
   * their names), and every attribute's name by id.
   */
  async function mappedAttributes(teamId: number, id: number) {
    const [columns, attributes] = await Promise.all([repo.columns(teamId, id), deps.attributes(teamId)]);
    const names = new Map(attributes.map((a) => [a.id, a.name]));
    const ids = new Set(columns.flatMap((c) => (c.lead_attribute_id && !c.ignored ? [c.lead_attribute_id] : [])));
    return { names, mapped: [...ids].map((aid) => ({ id: aid, name: names.get(aid) ?? '' })) };
  }

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

  /** Reads the header and first rows; refuses lying, unsafe, unreadable and empty files. */
  async function inspect(input: UploadInput) {
    const head = await readHead(input.path);
    checkContentMatches(input.format, head);
    if (input.format === 'xlsx') await checkZip(input.path);
    if (input.format === 'xls' && input.size > XLS_MAX_BYTES) {
      throw new AppError(
        'import_file_unsafe',
        `XLS files over ${XLS_MAX_BYTES / 1024 / 1024} MB are refused; save it as XLSX or CSV.`,
      );
    }
    const text = input.format === 'csv' || input.format === 'tsv';
    const encoding = text ? detectEncoding(head) : null;
    const delimiter =
      input.format === 'tsv' ? '\t' : text ? detectDelimiter(new TextDecoder(encoding ?? 'utf-8').decode(head)) : null;
    let preview: { header: string[]; rows: string[][]; complete: boolean } | undefined;
    try {
      await previewing(async () => {
        for await (const m of parseInWorker({
          mode: 'preview',
          path: input.path,
          format: input.format,
          encoding,
          delimiter,
        })) {
          if (m.type === 'preview') preview = m;
        }
      });
    } catch (error) {
      throw new AppError('import_file_unreadable', `The file could not be read: ${(error as Error).message}`);
    }
    if (!preview || preview.header.length === 0) throw new AppError('import_file_empty');
    if (preview.rows.length === 0 && preview.complete) {
      throw new AppError('import_file_empty', 'The file has a header but no rows to import.');
    }
    return { encoding, delimiter, ...preview };
  }

  return {
    async upload(user: AuthUser, input: UploadInput) {
      try {
        if (!input.listId)
          throw new AppError('import_list_required', undefined, { list_id: [message('source_first')] });
        const list = await deps.requireList(user.teamId, input.listId);
        const doc = await inspect(input);
        const width = doc.rows.reduce((w, r) => Math.max(w, r.length), doc.header.length);
        if (width > MAX_IMPORT_COLUMNS) {
          throw new AppError(
            'import_file_too_many_columns',
            `The file has ${width} columns; at most ${MAX_IMPORT_COLUMNS} can be imported. Remove the columns you do not need.`,
          );
        }
        const names = columnNames(doc.header, width, input.language);
        const rows = doc.rows.map((r) => names.map((_, i) => r[i] ?? ''));
        const [attributes, country] = await Promise.all([
          deps.attributes(user.teamId),
          deps.defaultCountry?.(user.teamId),
        ]);
        const proposal = proposeMapping(names, rows, attributes, country);
        const file = await repo.create(
          user.teamId,
          {
            user_id: user.id,
            source_id: list.source_id,
            list_id: list.id,
            name: input.fileName,
            stored_name: input.storedName,
            size_bytes: input.size,
            format: input.format,
            encoding: doc.encoding,
            delimiter: doc.delimiter,
            black_list: input.blackList,
            preview: rows,
          } as never,
          names.map((name, i) => ({
            name,
            col_position: i,
            lead_attribute_id: proposal[i],
            ignored: proposal[i] === null,
          })),
        );
        return full(user.teamId, file.id);
      } catch (error) {
        await rm(input.path, { force: true });
        throw error;
      }
    },

    get: (user: AuthUser, id: number) => full(user.teamId, id),

    async mapColumns(user: AuthUser, id: number, body: TImportMappingRequest) {
      const row = await requireImport(user.teamId, id);
      // Asked for and silently skipped would leave the user thinking the phones were checked.
      if (body.check_mobile_status === true || body.check_mobile_status === '1') {
        throw AppError.field('check_mobile_status', 'lookups_unavailable');
      }
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
      await repo.saveMapping(user.teamId, id, mapping);
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
      const allowance = await deps.importAllowance(user.teamId);
      if (allowance !== null && allowance <= 0) throw new AppError('import_limit_reached');
      const queued = await repo.update(
        id,
        { status: 'queued', stage: 'parse', progress: 0 },
        { teamId: user.teamId, status: ['uploaded'] },
      );
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
      const { rows, total } = await repo.page(user.teamId, args);
      return { data: rows.map(historyItemOf), meta: pageMeta(query.page, query.limit, total) };
    },

    async syncImport(user: AuthUser, id: number) {
      return syncImportOf(await requireImport(user.teamId, id));
    },

    /** `PUT sync-import/{id} {status: 'pending'}`: resumes an import that failed once it had published; else a no-op. */
    async requestSync(user: AuthUser, id: number) {
      const row = await requireImport(user.teamId, id);
      if (isResumable(row)) {
        const requeued = await repo.update(
          id,
          { status: 'queued', error: null, error_code: null, finished_at: null },
          { teamId: user.teamId, status: ['failed'] },
        );
        if (requeued) await deps.resume(id);
      }
      return syncImportOf(await requireImport(user.teamId, id));
    },

    async failedLeads(user: AuthUser, id: number, query: TPageQuery) {
      await requireImport(user.teamId, id);
      const [{ rows, total }, { names, mapped }] = await Promise.all([
        repo.failedPage(user.teamId, id, pageArgs(query, FAILED_ORDER, { field: 'row_number', dir: 'asc' })),
        mappedAttributes(user.teamId, id),
      ]);
      return {
        data: rows.map((r) => ({
          id: r.id,
          row_number: r.row_number,
          ...reasonOf(r),
          duplicates: 0,
          status: 'failed' as const,
          lead_values: r.cells.map((c) => ({
            attribute: { id: c.attribute_id, name: names.get(c.attribute_id) ?? '' },
            value: c.value,
          })),
        })),
        meta: pageMeta(query.page, query.limit, total),
        attributes: mapped,
        orderable: [...FAILED_ORDER],
      };
    },

    /**
     * Every failed row of an import as NDJSON lines (`ZFailedRowsHead`, then `ZFailedRowLine`s),
     * read in keyset batches so a hundred thousand rows never sit in memory at once.
     */
    async failedRowsExport(user: AuthUser, id: number): Promise<AsyncIterable<string>> {
      await requireImport(user.teamId, id);
      const { mapped } = await mappedAttributes(user.teamId, id);
      const head: TFailedRowsHead = { attributes: mapped };
      async function* lines() {
        yield `${JSON.stringify(head)}\n`;
        for (let after = 0; ; ) {
          const rows = await repo.failedAfter(user.teamId, id, after, FAILED_EXPORT_BATCH);
          // One chunk a batch, not a row: a hundred thousand tiny writes would cost more than the rows.
          yield rows
            .map((r) => {
              const line: TFailedRowLine = {
                row_number: r.row_number,
                ...reasonOf(r),
                values: mapped.map((a) =>
                  joinValues(r.cells.filter((c) => c.attribute_id === a.id).map((c) => c.value)),
                ),
              };
              return `${JSON.stringify(line)}\n`;
            })
            .join('');
          if (rows.length < FAILED_EXPORT_BATCH) return;
          after = rows[rows.length - 1].row_number;
        }
      }
      return lines();
    },
  };
}

export type ImportsService = ReturnType<typeof createImportsService>;
