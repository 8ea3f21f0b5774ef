import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZIdParams } from '@herald/shared/common/id.schemas';
import { done, ZDone } from '@herald/shared/common/messages';
import {
  ZGateway,
  ZGatewayList,
  ZGatewayRequest,
  ZGatewayTestResult,
  ZSendingGatewayList,
} from '@herald/shared/gateways/gateways.schemas';
import { currentUser } from '../../auth/authenticate.ts';
import type { GatewaysService } from './gateways.service.ts';

/** `/api/config/gateway/messaging` (spec section 7): the team's SMS gateways. */
export async function gatewaysRoutes(app: FastifyInstance, { gateways }: { gateways: GatewaysService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const manage = { preHandler: app.authorize('gateways:manage') };
  const tags = ['gateways'];
  const team = (request: { user: unknown }) => currentUser(request as never).teamId;
  const base = '/config/gateway/messaging';

  r.get(base, { ...manage, schema: { tags, response: { 200: ZGatewayList } } }, async (req) => ({
    data: await gateways.list(team(req)),
  }));
  // Operators send single SMS too: they may see which gateways send, never their settings.
  r.get(
    `${base}/sending`,
    { preHandler: app.authorize('gateways:send'), schema: { tags, response: { 200: ZSendingGatewayList } } },
    async (req) => ({ data: await gateways.sendingList(team(req)) }),
  );
  r.post(
    base,
    { ...manage, schema: { tags, body: ZGatewayRequest, response: { 201: ZGateway } } },
    async (req, reply) => reply.status(201).send(await gateways.create(team(req), req.body)),
  );
  r.put(
    `${base}/:id`,
    { ...manage, schema: { tags, params: ZIdParams, body: ZGatewayRequest, response: { 200: ZGateway } } },
    (req) => gateways.update(team(req), req.params.id, req.body),
  );
  r.delete(`${base}/:id`, { ...manage, schema: { tags, params: ZIdParams, response: { 200: ZDone } } }, async (req) => {
    await gateways.remove(team(req), req.params.id);
    return done('gateway_deleted');
  });
  r.post(
    `${base}/:id/test`,
    { ...manage, schema: { tags, params: ZIdParams, response: { 200: ZGatewayTestResult } } },
    (req) => gateways.testConnection(team(req), req.params.id),
  );
}
