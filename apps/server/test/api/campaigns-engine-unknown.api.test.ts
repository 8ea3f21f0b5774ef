import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectLedgerBalanced } from '../support/billing.ts';
import { campaignFixtures, paidSmsPlans } from '../support/campaigns.ts';
import { startFakeTwilio } from '../support/fake-providers/fake-twilio.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

/** The one send that dies after its call began, before Twilio got it (decision 024's `called` moment). */
let crashAt: { phone: string; text: string } | null = null;

/**
 * A campaign message whose worker died mid-call and that Twilio never received stays `unknown`
 * until the deadline, then gets its charge back (decision 024). It has ended: its step is sent and
 * the campaign completes, the recipient gets no next step, and nobody is charged for it.
 */
describe.each(databases)('a campaign with a message lost mid-call on %s', (kind) => {
  let t: TestApp;
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    t = await startTestApp(
      kind,
      // A short lease and so a five-second unknown deadline (ten leases).
      { HERALD_PLANS_FILE: paidSmsPlans(), MESSAGE_CLAIM_LEASE_MS: '500' },
      {
        sweepEveryMs: 100,
        beforeGatewayCall: async (row) => {
          const at = row as unknown as { moment: string; phone: string; text: string };
          if (crashAt && at.moment === 'called' && at.phone === crashAt.phone && at.text === crashAt.text) {
            crashAt = null;
            throw new Error('crash while calling');
          }
        },
      },
    );
  });
  afterAll(async () => {
    await t?.close();
    await twilio?.close();
  });
  const { db, team, launch, campaign } = campaignFixtures(
    () => t,
    () => twilio,
  );

  it('refunds the lost message, sends the step to the others, and completes', async () => {
    const { owner, list, phones } = await team(2);
    const lost = phones[0] as string;
    crashAt = { phone: lost, text: 'Lost first' };
    const id = await launch(owner.token, list.id, [{ message: 'Lost first' }, { message: 'Lost second' }]);
    await waitUntil('the campaign completed', async () => (await campaign(id)).status === 'completed', 60_000);

    // The crash abandons the whole window of calls it is in: the lost phone's, and maybe others'.
    const rows = await db()
      .selectFrom('messages')
      .select(['phone', 'text', 'state', sql<boolean>`refunded_at is not null`.as('refunded')])
      .where('campaign_id', '=', id)
      .orderBy('id')
      .execute();
    const first = rows.filter((r) => r.text === 'Lost first');
    const unsent = first.filter((r) => r.state !== 'submitted');
    expect(first).toHaveLength(2);
    expect(unsent.map((r) => r.phone)).toContain(lost);
    for (const r of unsent) {
      expect(r).toMatchObject({ state: 'unknown', refunded: true });
      expect(twilio.sent(r.phone, 'Lost first')).toBe(0);
    }
    for (const r of first.filter((x) => x.state === 'submitted')) {
      expect(r.refunded).toBe(false);
      expect(twilio.sent(r.phone, 'Lost first')).toBe(1);
    }
    // Step 2 went exactly to those whose step 1 went, once each.
    const second = rows.filter((r) => r.text === 'Lost second');
    expect(second.map((r) => r.phone).sort()).toEqual(
      first
        .filter((r) => r.state === 'submitted')
        .map((r) => r.phone)
        .sort(),
    );
    for (const r of second) {
      expect(r).toMatchObject({ state: 'submitted', refunded: false });
      expect(twilio.sent(r.phone, 'Lost second')).toBe(1);
    }
    expect(twilio.sent(lost, 'Lost second')).toBe(0);
    const steps = await db()
      .selectFrom('campaign_steps')
      .select('status')
      .where('campaign_id', '=', id)
      .orderBy('position')
      .execute();
    expect(steps.map((s) => s.status)).toEqual(['sent', 'sent']);
    const money = await sql<{ type: string; n: number }>`select type, count(*)::int as n from transactions
      where user_id = ${owner.user.id} and type in ('sent_message', 'refund') group by type order by type`.execute(
      db(),
    );
    expect(money.rows).toEqual([
      { type: 'refund', n: unsent.length },
      { type: 'sent_message', n: rows.length },
    ]);
    await expectLedgerBalanced(t);
  });
});
