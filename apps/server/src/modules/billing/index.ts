import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { EventBus } from '../../events/event-bus.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { createRenewals } from './billing.jobs.ts';
import { billingRoutes } from './billing.routes.ts';
import { createBillingService } from './billing.service.ts';
import { createChargesService } from './charges.service.ts';
import { sandboxCheckoutRoutes } from './checkout/sandbox.routes.ts';
import { type CheckoutSettings, createCheckoutService } from './checkout.service.ts';
import { createLedgerRepository } from './ledger.repository.ts';
import { createOrdersRepository } from './orders.repository.ts';
import { createDebtsRepository } from './debts.repository.ts';
import { createRefunds } from './refunds.service.ts';
import type { DomainEventsHub } from '../../events/domain-events.ts';
import type { RefundRequest } from '@herald/shared/billing/charges';
import { type PlansDeps, plansPortOf } from './plans-port.ts';
import { randomUUID } from 'node:crypto';
import { done } from '@herald/shared/common/messages';
import { phoneCountry } from '@herald/shared/messages/phone-country';
import type { TCurrency } from '@herald/shared/billing/billing.schemas';
import { AppError } from '../../http/app-error.ts';

export type { ChargeRequest, ChargeResult, RefundRequest, RefundResult } from '@herald/shared/billing/charges';
export type { PlansDeps, PlansPort } from './plans-port.ts';

export interface BillingModuleDeps {
  db: Kysely<DB>;
  bus: EventBus;
  jobs: Pick<JobQueue, 'register' | 'send' | 'schedule'>;
  mailer: Mailer;
  runWorkers: boolean;
  checkout: CheckoutSettings;
  /** The plans module's catalogue and subscription primitives; without it no plan is sold and no SMS is free. */
  plans?: PlansDeps;
  /** Minor units of one SMS part to a country (the plans' price list): `pricePerPart` and the test tab's SMS. */
  smsPartPrice?: (countryIso: string, currency: TCurrency) => number;
  /** The in-process events: `billing.balance_raised` after each credit commits. */
  events?: DomainEventsHub;
}

/**
 * Money (decision 016): balances and their ledger, charges, the hosted checkout and its callback,
 * shares, plan purchases and renewals. What it offers other modules:
 * - `charge(tx, teamId, request)` / `chargeMany(tx, teamId, requests)`: in the caller's
 *   transaction, one statement per user for a batch, free SMS of the plan first, idempotent by
 *   `key`; each request answers `charged` or `insufficient`. After its commit the caller calls
 *   `announce(teamId, [...balances.keys()])` so open tabs see the new balance; `chargeNow` does
 *   both in a transaction of its own.
 * - `profileBalance(teamId, userId)`: balance, currency and free SMS for `/api/user`.
 * - `freeSmsUsage` (the plans' usage provider of `free-sms-limit`) and `spendFreeSms` (its consumer).
 */
export async function createBillingModule(deps: BillingModuleDeps) {
  const { db, bus } = deps;
  const ledger = createLedgerRepository();
  const orders = createOrdersRepository(db);
  const port = deps.plans ? plansPortOf(deps.plans) : undefined;
  const plans = () => port;
  const freeSms = async (tx: Kysely<DB>, teamId: number) => (await port?.freeSms(tx, teamId)) ?? null;
  // Members refilled inside a caller's transaction: its `announce` after the commit tells
  // `billing.balance_raised` for them (a rolled-back refill only makes a subscriber look again).
  const refilled = new Set<string>();
  const charges = createChargesService({
    ledger,
    freeSms,
    onRefill: (teamId, userId) => refilled.add(`${teamId}:${userId}`),
  });
  const debts = createDebtsRepository();
  const refund = createRefunds({ ledger, debts, freeSms });
  const testPayments = !deps.checkout.liqpay || deps.checkout.liqpay.sandbox;
  let checkout: ReturnType<typeof createCheckoutService> | undefined;
  const service = createBillingService({
    db,
    bus,
    ledger,
    charges,
    debts,
    orders,
    plans,
    checkout: () => checkout as NonNullable<typeof checkout>,
    events: deps.events,
    testPayments,
    refilled,
  });
  checkout = createCheckoutService({
    db,
    ledger,
    orders,
    debts,
    plans,
    settings: deps.checkout,
    announce: service.announce,
  });
  const renewals = createRenewals({
    db,
    jobs: deps.jobs,
    mailer: deps.mailer,
    ledger,
    plans,
    announce: service.announce,
  });
  await renewals.register(deps.runWorkers);
  const checkoutService = checkout;

  return {
    service,
    checkout: checkoutService,
    charge: service.charge,
    chargeMany: service.chargeMany,
    chargeNow: service.chargeNow,
    announce: service.announce,
    /**
     * Gives back what the charge keyed `chargeKey` took (money and free SMS), once, in the
     * caller's transaction: `refunded`, `already_refunded` or `nothing_to_refund`. After its
     * commit the caller calls `announce(teamId, [userId], { raised: true })`.
     */
    refund,
    /** `refund` in a transaction of its own, announced when committed. */
    async refundNow(teamId: number, request: RefundRequest) {
      const result = await db.transaction().execute((tx) => refund(tx, teamId, request));
      if (result.status === 'refunded') await service.announce(teamId, [request.userId], { raised: true });
      return result;
    },
    /**
     * Refuses new paid work of a user who owes a reversed payment: 422 `balance_debt`. `charge`
     * answers `debt` for them too.
     */
    assertNoDebt: service.assertNoDebt,
    /** Whether the checkout is the sandbox (no real money): said at start and on the balance. */
    testPayments,
    profileBalance: service.profileBalance,
    /** Minor units of one SMS part to this phone in the user's balance currency (the plans' price list). */
    async pricePerPart(teamId: number, userId: number, phone: string) {
      const { balance_currency } = await service.profileBalance(teamId, userId);
      return deps.smsPartPrice?.(phoneCountry(phone) ?? 'UA', balance_currency) ?? 0;
    },
    renewDue: renewals.renewDue,
    /** Free SMS parts the team used since `since`: the usage of `free-sms-limit`, from the ledger. */
    freeSmsUsage: (tx: Kysely<DB>, teamId: number, since: Date) => ledger.freePartsQuery(tx, teamId, since),
    /**
     * The test tab's "send 10 SMS": `amount` SMS parts charged as sent, free SMS first (the plans
     * check that enough are left before they call it), in the caller's transaction.
     */
    async spendFreeSms(tx: Kysely<DB>, input: { teamId: number; userId: number; amount: number }) {
      const me = await ledger.balanceOf(tx, input.teamId, input.userId);
      if (!me) throw new AppError('not_found');
      const price = deps.smsPartPrice?.(me.default_country, me.balance_currency) ?? 0;
      const { results } = await charges.chargeMany(tx, input.teamId, [
        {
          userId: input.userId,
          code: 'sent_message',
          parts: input.amount,
          pricePerPart: price,
          count: input.amount,
          key: `sms-test:${randomUUID()}`,
          name: 'Test',
          meta: { test: true },
        },
      ]);
      if (results[0].status !== 'charged')
        throw new AppError('balance_insufficient', { code: 'balance_not_enough_messages' });
      return { ...done('sms_test_sent'), afterCommit: () => service.announce(input.teamId, [input.userId]) };
    },
    /** The `/api/balance…` routes, under `/api`. */
    routes: (app: FastifyInstance) => {
      // Said once at start: an installation taking test payments should never pass unnoticed.
      if (testPayments)
        app.log.warn(
          deps.checkout.liqpay
            ? 'Payments: LiqPay sandbox (LIQPAY_SANDBOX) — test payments, no real money'
            : 'Payments: the built-in sandbox checkout — test payments, no real money (set LIQPAY_PUBLIC_KEY and LIQPAY_PRIVATE_KEY for real ones)',
        );
      return billingRoutes(app, { billing: service, checkout: checkoutService });
    },
    /** The sandbox checkout page, outside `/api`. */
    pageRoutes: (app: FastifyInstance) =>
      sandboxCheckoutRoutes(app, { checkout: checkoutService, appUrl: deps.checkout.appUrl }),
  };
}
export type BillingModule = Awaited<ReturnType<typeof createBillingModule>>;
