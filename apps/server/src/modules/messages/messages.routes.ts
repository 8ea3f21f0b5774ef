import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZSingleSmsRequest, ZSingleSmsResponse } from '@herald/shared/messages/messages.schemas';
import { currentUser } from '../../auth/authenticate.ts';
import type { SendService } from './send.service.ts';

/** An idempotency key from the client: a retried request with it sends and charges once. */
function clientKeyOf(headers: Record<string, string | string[] | undefined>): string | null {
  const raw = headers['idempotency-key'] ?? headers['x-idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  return key && /^[\w.:-]{8,100}$/.test(key) ? key : null;
}

/** `POST /api/leads/single-sms` (spec section 7): every role sends, from its own balance. */
export async function messagesRoutes(app: FastifyInstance, { send }: { send: SendService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/leads/single-sms',
    {
      preHandler: app.authorize('gateways:send'),
      schema: { tags: ['messages'], body: ZSingleSmsRequest, response: { 200: ZSingleSmsResponse } },
    },
    (req) => {
      const user = currentUser(req);
      return send.sendSingle({ id: user.id, teamId: user.teamId }, req.body, clientKeyOf(req.headers));
    },
  );
}
