import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZAccessTicket } from '@herald/shared/auth/tickets.schemas';
import { ZExport, ZExportList, ZExportRequest } from '@herald/shared/segments/segments.schemas';
import { ZIdParams } from '@herald/shared/common/id.schemas';
import { z } from 'zod';
import { currentUser } from '../../auth/authenticate.ts';
import { requestLanguage } from '../../http/request-language.ts';
import type { ExportsService } from './exports.service.ts';

/** `POST /api/segments/{id}/leads/csv` (or `/xlsx`), the user's active exports and the download. */
export async function exportsRoutes(app: FastifyInstance, { exports }: { exports: ExportsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['segments'];
  const read = { preHandler: app.authorize('segments:read') };

  for (const format of ['csv', 'xlsx'] as const) {
    r.post(
      `/segments/:id/leads/${format}`,
      { ...read, schema: { tags, params: ZIdParams, body: ZExportRequest, response: { 202: ZExport } } },
      async (req, reply) => {
        const language = requestLanguage(req.headers['accept-language']);
        const request = { ...req.body, format };
        return reply.status(202).send(await exports.start(currentUser(req), req.params.id, request, language));
      },
    );
  }
  r.get('/exports/active', { ...read, schema: { tags, response: { 200: ZExportList } } }, (req) =>
    exports.active(currentUser(req)),
  );
  // A download link cannot send headers, and the session token never goes in a URL: the web asks
  // for a single-use ticket for this one file and follows `download?ticket=`. A bearer header works too.
  r.post(
    '/exports/:id/tickets',
    { ...read, schema: { tags, params: ZIdParams, response: { 201: ZAccessTicket } } },
    async (req, reply) => {
      await exports.file(currentUser(req), req.params.id);
      return reply.status(201).send(await app.issueTicket(req, downloadTicket(req.params.id)));
    },
  );
  r.get(
    '/exports/:id/download',
    {
      ...read,
      config: { ticketPurpose: (req) => downloadTicket((req.params as { id: number }).id) },
      schema: { tags, params: ZIdParams, querystring: z.object({ ticket: z.string().optional() }) },
    },
    async (req, reply) => {
      const file = await exports.file(currentUser(req), req.params.id);
      return reply
        .header('content-type', file.contentType)
        .header(
          'content-disposition',
          `attachment; filename="${file.fileName.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
        )
        .send(createReadStream(file.path));
    },
  );
}

const downloadTicket = (exportId: number) => `export:${exportId}`;
