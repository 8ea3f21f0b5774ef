import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZId } from '@herald/shared/common/id.schemas';
import type { GatewayWebhooks } from './gateway-webhooks.ts';

/**
 * `/api/webhooks/gateways/:gatewayId/status|inbound`: public (no session), the body kept raw,
 * because signatures cover the exact bytes (Telnyx) or the exact form fields (Twilio).
 */
export async function webhooksRoutes(
  app: FastifyInstance,
  { webhooks, appUrl }: { webhooks: GatewayWebhooks; appUrl: string },
) {
  // Parsers are scoped to this plugin: elsewhere JSON is parsed as usual.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  const r = app.withTypeProvider<ZodTypeProvider>();
  const params = z.object({ gatewayId: ZId, kind: z.enum(['status', 'inbound']) });

  r.post('/webhooks/gateways/:gatewayId/:kind', { schema: { tags: ['webhooks'], params } }, async (request, reply) => {
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(',') : v]),
    );
    // The URL the provider called, as it knows it: the public origin plus the path and query.
    const answer = await webhooks.receive(
      request.params.gatewayId,
      request.params.kind,
      { url: `${appUrl}${request.url}`, headers, rawBody: typeof request.body === 'string' ? request.body : '' },
      (err) => request.log.warn({ err, gatewayId: request.params.gatewayId }, 'verified callback dropped: bad data'),
    );
    return reply.status(200).header('content-type', answer.contentType).send(answer.body);
  });
}
