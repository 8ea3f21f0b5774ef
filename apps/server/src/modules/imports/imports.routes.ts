import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZId, ZIdParams } from '@herald/shared/common/id.schemas';
import { ZPageQuery } from '@herald/shared/common/pagination.schemas';
import {
  ZActiveImports,
  ZBlackListUpdate,
  ZFailedLeadsPage,
  ZImportFile,
  ZImportHistoryPage,
  ZImportMappingRequest,
  ZSyncImport,
  ZSyncImportUpdate,
} from '@herald/shared/imports/imports.schemas';
import { z } from 'zod';
import { currentUser } from '../../auth/authenticate.ts';
import { AppError } from '../../http/app-error.ts';
import { requestLanguage } from '../../http/request-language.ts';
import { formatOfName } from './file-sniff.ts';
import type { FailedRowsService } from './failed-rows.service.ts';
import type { ImportUploadService, UploadInput } from './import-upload.service.ts';
import type { ImportsService } from './imports.service.ts';

const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;

/** Streams the multipart upload to DATA_DIR/files; fields may come before or after the file. */
async function receiveUpload(request: FastifyRequest, dir: string): Promise<UploadInput> {
  await mkdir(dir, { recursive: true });
  const fields: Record<string, string> = {};
  let file: Omit<UploadInput, 'listId' | 'blackList' | 'language'> | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (file) {
          part.file.resume();
          continue;
        }
        const fileName = (part.filename || 'import').slice(0, 255);
        const format = formatOfName(fileName);
        const storedName = `${randomUUID()}.${format}`;
        const path = join(dir, storedName);
        file = { fileName, format, path, storedName, size: 0 };
        await pipeline(part.file, createWriteStream(path));
        if (part.file.truncated) throw new AppError('payload_too_large', 'The file is larger than 1 GB.');
        file.size = part.file.bytesRead;
      } else fields[part.fieldname] = String(part.value);
    }
  } catch (error) {
    if (file) await rm(file.path, { force: true });
    if (error instanceof AppError) throw error;
    throw new AppError('bad_request', 'The upload could not be read.');
  }
  if (!file) throw AppError.field('file', 'file_required');
  const list = fields['list_id[0]'] ?? fields.list_id ?? fields['list_id[]'];
  // An id past the database's bigint range would reach it as an error (500): it is no list at all.
  const listId = list && /^\d+$/.test(list) ? ZId.safeParse(list).data : undefined;
  // The spec's '1'/'0' (and the words, since a form field is text); anything else is a mistake to
  // say, not a "no" to assume: a blacklisted import is not sent to.
  const flag = fields.black_list ?? '0';
  if (!['1', '0', 'true', 'false'].includes(flag)) {
    await rm(file.path, { force: true });
    throw AppError.field('black_list', 'black_list_flag');
  }
  const blackList = flag === '1' || flag === 'true';
  return { ...file, listId, blackList, language: requestLanguage(request.headers['accept-language']) };
}

/** `/api/imports`, `/api/sync-import`, `/api/import-files` (spec section 7, Imports). */
export async function importsRoutes(
  app: FastifyInstance,
  opts: { imports: ImportsService; upload: ImportUploadService; failed: FailedRowsService; filesDir: string },
) {
  const { imports, failed } = opts;
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, fieldSize: 1024 } });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { preHandler: app.authorize('imports:read') };
  const create = { preHandler: app.authorize('imports:create') };
  const tags = ['imports'];

  r.post(
    '/imports',
    {
      ...create,
      schema: {
        tags,
        summary: 'Upload a file (multipart: file, list_id[0], black_list)',
        response: { 201: ZImportFile },
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      const upload = await receiveUpload(req, opts.filesDir);
      return reply.status(201).send(await opts.upload.upload(user, upload));
    },
  );
  r.get(
    '/imports',
    {
      ...read,
      schema: {
        tags,
        summary: 'Import history',
        querystring: ZPageQuery.extend({ limit: z.coerce.number().int().min(1).max(100).default(15) }),
        response: { 200: ZImportHistoryPage },
      },
    },
    (req) => imports.history(currentUser(req), req.query),
  );
  r.get('/imports/active', { ...read, schema: { tags, response: { 200: ZActiveImports } } }, (req) =>
    imports.active(currentUser(req)),
  );
  r.get('/imports/:id', { ...read, schema: { tags, params: ZIdParams, response: { 200: ZImportFile } } }, (req) =>
    imports.get(currentUser(req), req.params.id),
  );
  r.get('/import-files/:id', { ...read, schema: { tags, params: ZIdParams, response: { 200: ZImportFile } } }, (req) =>
    imports.get(currentUser(req), req.params.id),
  );
  r.post(
    '/imports/:id/dispatch',
    { ...create, schema: { tags, params: ZIdParams, response: { 200: ZImportFile } } },
    (req) => imports.dispatch(currentUser(req), req.params.id),
  );
  r.post(
    '/imports/:id/cancel',
    {
      ...create,
      schema: {
        tags,
        summary: 'Cancel an import: nothing of it stays (its published leads are taken back)',
        params: ZIdParams,
        response: { 200: ZImportFile },
      },
    },
    (req) => imports.cancel(currentUser(req), req.params.id),
  );
  r.put(
    '/imports/:id/black-list',
    { ...create, schema: { tags, params: ZIdParams, body: ZBlackListUpdate, response: { 200: ZImportFile } } },
    (req) =>
      imports.setBlackList(
        currentUser(req),
        req.params.id,
        req.body.black_list === true || req.body.black_list === '1',
      ),
  );
  r.get(
    '/imports/:id/sync-import',
    { ...read, schema: { tags, params: ZIdParams, response: { 200: ZSyncImport } } },
    (req) => imports.syncImport(currentUser(req), req.params.id),
  );
  r.put(
    '/sync-import/:id',
    { ...create, schema: { tags, params: ZIdParams, body: ZSyncImportUpdate, response: { 200: ZSyncImport } } },
    (req) => imports.requestSync(currentUser(req), req.params.id),
  );
  r.post(
    '/sync-import/:id/import-attributes/multiple',
    {
      ...create,
      schema: {
        tags,
        summary: 'Match Format: map columns',
        params: ZIdParams,
        body: ZImportMappingRequest,
        response: { 200: ZImportFile },
      },
    },
    (req) => imports.mapColumns(currentUser(req), req.params.id, req.body),
  );
  r.get(
    '/import-files/:id/leads-failed',
    { ...read, schema: { tags, params: ZIdParams, querystring: ZPageQuery, response: { 200: ZFailedLeadsPage } } },
    (req) => failed.failedLeads(currentUser(req), req.params.id, req.query),
  );
  // Not in the spec: the failed rows to fix in a spreadsheet and import again. The web saves them as
  // a CSV with the reasons in the user's language, which only it knows how to say.
  r.get(
    '/import-files/:id/leads-failed/export',
    { ...read, schema: { tags, params: ZIdParams } },
    async (req, reply) => {
      const lines = await failed.failedRowsExport(currentUser(req), req.params.id);
      return reply.type('application/x-ndjson; charset=utf-8').send(Readable.from(lines));
    },
  );
}
