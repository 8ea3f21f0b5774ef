import { rm } from 'node:fs/promises';
import type { TLeadAttribute } from '@herald/shared/attributes/attributes.schemas';
import { message } from '@herald/shared/common/messages';
import type { TImportFormat } from '@herald/shared/imports/imports.schemas';
import type { AuthUser } from '../../auth/authenticate.ts';
import { AppError } from '../../http/app-error.ts';
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
import { importFileOf } from './import-file.dto.ts';
import type { ImportsRepository } from './imports.repository.ts';
import { parseInWorker } from './parser/parse-client.ts';

export interface ImportUploadDeps {
  repo: ImportsRepository;
  attributes: (teamId: number) => Promise<TLeadAttribute[]>;
  requireList: (teamId: number, listId: number) => Promise<{ id: number; source_id: number }>;
  /** The team's default phone country, which the proposed mapping reads sample phones in. */
  defaultCountry?: (teamId: number) => Promise<string>;
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

/** An import's first step: the file is checked and previewed, and its columns given a proposed mapping. */
export function createImportUploadService(deps: ImportUploadDeps) {
  const { repo } = deps;
  const previewing = createLimiter(PREVIEWS_AT_ONCE);

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
        return importFileOf(file, await repo.columns(user.teamId, file.id));
      } catch (error) {
        await rm(input.path, { force: true });
        throw error;
      }
    },
  };
}

export type ImportUploadService = ReturnType<typeof createImportUploadService>;
