import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZSubscriptionsResponse,
  ZSubscriptionTestRequest,
  ZSubscriptionTestResponse,
} from '@herald/shared/plans/plans.schemas';
import { currentUser } from '../../auth/authenticate.ts';
import type { PlansService } from './plans.service.ts';

/** `/api/subscriptions`: the plans, the team's subscription, the price list, and the test tab. */
export async function plansRoutes(app: FastifyInstance, { plans }: { plans: PlansService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/subscriptions',
    {
      preHandler: app.authorize('plans:read'),
      schema: { tags: ['subscriptions'], response: { 200: ZSubscriptionsResponse } },
    },
    (request) => plans.overview(currentUser(request)),
  );

  r.post(
    '/subscriptions/test',
    {
      preHandler: app.authorize('plans:manage'),
      schema: { tags: ['subscriptions'], body: ZSubscriptionTestRequest, response: { 200: ZSubscriptionTestResponse } },
    },
    (request) => plans.test(currentUser(request), request.body),
  );
}
