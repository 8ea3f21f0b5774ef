import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZExport, ZExportList, ZExportRequest } from '@herald/shared/segments/segments.schemas';
import { ZIdParams } from '@herald/shared/common/id.schemas';
import { currentUser } from '../../auth/authenticate.ts';
import { requestLanguage } from '../../http/request-language.ts';
import type { ExportsService } from './exports.service.ts';

/** `POST /api/segments/{id}/leads/csv`, the user's active exports and the download. */
export async function exportsRoutes(app: FastifyInstance, { exports }: { exports: ExportsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['segments'];
  const read = { preHandler: app.authorize('segments:read') };

  r.post(
    '/segments/:id/leads/csv',
    { ...read, schema: { tags, params: ZIdParams, body: ZExportRequest, response: { 202: ZExport } } },
    async (req, reply) => {
      const language = requestLanguage(req.headers['accept-language']);
      return reply.status(202).send(await exports.start(currentUser(req), req.params.id, req.body, language));
    },
  );
  r.get('/exports/active', { ...read, schema: { tags, response: { 200: ZExportList } } }, (req) =>
    exports.active(currentUser(req)),
  );
  // A plain link (an <a download>) cannot send headers: the token may come as ?token=, as for events.
  r.get(
    '/exports/:id/download',
    { ...read, config: { tokenInQuery: true }, schema: { tags, params: ZIdParams } },
    async (req, reply) => {
      const file = await exports.file(currentUser(req), req.params.id);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="${file.fileName.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
        )
        .send(createReadStream(file.path));
    },
  );
}
