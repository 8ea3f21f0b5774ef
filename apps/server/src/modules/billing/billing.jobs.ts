import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { LedgerRepository } from './ledger.repository.ts';
import type { PlansPort } from './plans-port.ts';

import { ENDED_MAIL_JOB, RENEWAL_JOB } from '@herald/shared/jobs/billing.jobs';

export { ENDED_MAIL_JOB, RENEWAL_JOB };

const endedTexts = {
  subject: 'Your Herald plan has ended / Ваш тариф Herald завершився',
  body: (plan: string) =>
    `Your plan "${plan}" has ended: the balance did not cover its renewal. Top up the balance and choose a plan on the Subscriptions page to continue.\n\n` +
    `Ваш тариф «${plan}» завершився: на балансі не вистачило коштів для продовження. Поповніть баланс і виберіть тариф на сторінці «Підписки», щоб продовжити.\n`,
};

/**
 * Renews every due subscription from the owner's balance, each in its own transaction with its
 * payment. The payment's key names the subscription and the period, so a run repeated (a retry,
 * two processes) charges a period once. A balance that does not cover it ends the subscription
 * and mails the owner (by a retried job, after the commit).
 */
export function createRenewals(deps: {
  db: Kysely<DB>;
  jobs: Pick<JobQueue, 'register' | 'send' | 'schedule'>;
  mailer: Mailer;
  ledger: LedgerRepository;
  plans: () => PlansPort | undefined;
  announce: (teamId: number, userIds: number[]) => Promise<void>;
}) {
  const { db, ledger } = deps;

  async function renewDue(now = new Date()) {
    const plans = deps.plans();
    if (!plans) return { renewed: 0, ended: 0 };
    let renewed = 0;
    let ended = 0;
    for (const due of await plans.dueForRenewal(db, now)) {
      const plan = await plans.plan(due.planId);
      const owner = await ledger.ownerOf(db, due.teamId);
      if (!owner) continue;
      const outcome = await db.transaction().execute(async (tx) => {
        const price = plan?.purchasable ? (plan.price ?? 0) : 0;
        if (!plan?.purchasable || price <= 0) {
          // The Trial and plans no longer sold are not renewed.
          await plans.end(tx, due.id);
          return 'ended' as const;
        }
        const key = `renew:${due.id}:${due.periodEnd.toISOString()}`;
        const paid = await ledger.post(tx, due.teamId, owner.id, [
          {
            type: 'subscribe_payment',
            amount: -price,
            key,
            name: plan.name,
            meta: { plan_id: plan.id, subscription_id: due.id },
          },
        ]);
        if (!paid) {
          await plans.end(tx, due.id);
          return 'ended' as const;
        }
        if (paid.written.length === 0) {
          // Paid by an earlier run for this period: put back what this statement took.
          await ledger.adjust(tx, owner.id, price);
          return 'skipped' as const;
        }
        await plans.renew(tx, due.id);
        return 'renewed' as const;
      });
      if (outcome === 'renewed') {
        renewed++;
        await deps.announce(due.teamId, [owner.id]);
      } else if (outcome === 'ended') {
        ended++;
        await deps.jobs.send(ENDED_MAIL_JOB, { email: owner.email, planName: plan?.name ?? '' });
      }
    }
    return { renewed, ended };
  }

  return {
    renewDue,
    async register(runWorkers: boolean) {
      await deps.jobs.register(ENDED_MAIL_JOB, async (data) => {
        await deps.mailer.send({ to: data.email, subject: endedTexts.subject, text: endedTexts.body(data.planName) });
      });
      await deps.jobs.register(RENEWAL_JOB, async () => {
        await renewDue();
      });
      // Every 10 minutes: a period that ends is renewed (or ended) within minutes of its end.
      if (runWorkers) await deps.jobs.schedule(RENEWAL_JOB, '*/10 * * * *', {});
    },
  };
}
