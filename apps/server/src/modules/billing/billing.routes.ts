import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZBalance,
  ZCheckout,
  ZPaymentCallback,
  ZPaymentOrder,
  ZShareAnswer,
  ZShareRequest,
  ZSubscribeAnswer,
  ZSubscribeRequest,
  ZTopUpRequest,
  ZTransactionPage,
  ZTransactionQuery,
  ZTransactionTotal,
} from '@herald/shared/billing/billing.schemas';
import { currentUser } from '../../auth/authenticate.ts';
import type { BillingService } from './billing.service.ts';
import { type CheckoutService, PaymentRejected } from './checkout.service.ts';

/** Reads `application/x-www-form-urlencoded` (LiqPay's callback, the sandbox page's forms) in this plugin only. */
export function acceptForms(app: FastifyInstance) {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
}

/** `/api/balance…`: the user's balance and ledger, top-up, share, subscribe, and the payment callback. */
export async function billingRoutes(
  app: FastifyInstance,
  { billing, checkout }: { billing: BillingService; checkout: CheckoutService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  acceptForms(app);

  r.get(
    '/balance',
    { preHandler: app.authorize('balance:read'), schema: { tags: ['balance'], response: { 200: ZBalance } } },
    (request) => {
      const user = currentUser(request);
      return billing.balanceOf(user.teamId, user.id);
    },
  );

  r.get(
    '/balance/transactions',
    {
      preHandler: app.authorize('balance:read'),
      schema: { tags: ['balance'], querystring: ZTransactionQuery, response: { 200: ZTransactionPage } },
    },
    (request) => billing.transactions(currentUser(request), request.query),
  );

  r.get(
    '/balance/transactions/total',
    { preHandler: app.authorize('balance:read'), schema: { tags: ['balance'], response: { 200: ZTransactionTotal } } },
    (request) => billing.transactionTotals(currentUser(request)),
  );

  r.post(
    '/balance/topup',
    {
      preHandler: app.authorize('balance:manage'),
      schema: { tags: ['balance'], body: ZTopUpRequest, response: { 200: ZCheckout } },
    },
    async (request) => {
      const user = currentUser(request);
      const { balance_currency } = await billing.balanceOf(user.teamId, user.id);
      return checkout.topUp({
        teamId: user.teamId,
        userId: user.id,
        amount: request.body.amount,
        currency: balance_currency,
        redirectUrl: request.body.redirect_url,
      });
    },
  );

  r.get(
    '/balance/orders/:order_id',
    {
      preHandler: app.authorize('balance:read'),
      schema: {
        tags: ['balance'],
        params: z.object({ order_id: z.string().max(100) }),
        response: { 200: ZPaymentOrder },
      },
    },
    (request) => billing.order(currentUser(request), request.params.order_id),
  );

  r.post(
    '/balance/share',
    {
      preHandler: app.authorize('balance:manage'),
      schema: { tags: ['balance'], body: ZShareRequest, response: { 200: ZShareAnswer } },
    },
    (request) => billing.share(currentUser(request), request.body),
  );

  r.post(
    '/balance/subscribe',
    {
      preHandler: app.authorize('balance:manage'),
      schema: {
        tags: ['balance'],
        body: ZSubscribeRequest.extend({ redirect_url: z.string().max(2000).optional() }),
        response: { 200: ZSubscribeAnswer },
      },
    },
    (request) => billing.subscribe(currentUser(request), request.body.plan_id, request.body.redirect_url),
  );

  // The payment provider's server callback: no bearer token; trusted only through its signature.
  r.post(
    '/balance/callback',
    {
      schema: {
        tags: ['balance'],
        body: ZPaymentCallback,
        response: {
          200: z.object({
            status: z.enum(['paid', 'credited', 'already_settled', 'declined', 'pending', 'reversed']),
          }),
        },
      },
    },
    async (request) => {
      try {
        const answer = await checkout.applyCallback(request.body.data, request.body.signature);
        request.log.info(
          { orderId: answer.orderId, providerStatus: answer.providerStatus, outcome: answer.outcome },
          'payment callback',
        );
        return { status: answer.outcome };
      } catch (error) {
        // Every refused callback is worth a look: what failed, the order and the status it named,
        // never the data or the signature.
        if (error instanceof PaymentRejected)
          request.log.warn(
            { reason: error.reason, orderId: error.orderId, providerStatus: error.providerStatus },
            'payment callback rejected',
          );
        throw error;
      }
    },
  );
}
