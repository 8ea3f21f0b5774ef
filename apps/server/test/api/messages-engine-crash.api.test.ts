import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupVerified } from '../support/accounts.ts';
import { expectLedgerBalanced, topUpThroughSandbox } from '../support/billing.ts';
import { startFakeTwilio } from '../support/fake-providers/fake-twilio.ts';
import { createGateway, twilioGatewayBody } from '../support/gateways.ts';
import { databases, startTestApp, type TestApp, UNLIMITED_TRIAL_PLANS } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

/** The unlimited Trial without free SMS: every part is paid from the balance, so refunds show as money. */
function paidSmsPlans(): string {
  const catalogue = JSON.parse(readFileSync(UNLIMITED_TRIAL_PLANS, 'utf8'));
  catalogue.plans[0].features['free-sms-limit'] = 0;
  const file = join(tmpdir(), `herald-engine-crash-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(catalogue));
  return file;
}

/** Where the next crash happens: the moment, and the message it hits (once). */
let crashAt: { moment: string; text: string } | null = null;

/**
 * One queued message through each moment a worker can die at (decision 024): inside the claim's
 * transaction, after it committed, after `called_at` (the call begun, the provider never reached),
 * after the provider answered and before the answer was written. The crash is a throw at that
 * moment: the worker abandons the row as a killed process would, and only leases, the sweep and the
 * provider's own list decide what happens next. Counted at the fake: never sent twice, never
 * charged twice; a message that was not sent is refunded once.
 */
describe.each(databases)('a queued message through each crash moment on %s', (kind) => {
  let t: TestApp;
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    t = await startTestApp(
      kind,
      // A short lease (a dead claim is found within two seconds), yet long enough that a live batch
      // on a busy machine calls its rows before it runs out; a short unknown deadline of its own.
      { HERALD_PLANS_FILE: paidSmsPlans(), MESSAGE_CLAIM_LEASE_MS: '1500' },
      {
        messagesEngine: { unknownDeadlineMs: 5_000 },
        sweepEveryMs: 100,
        beforeGatewayCall: async (row) => {
          const at = row as unknown as { moment: string; text: string };
          if (crashAt && at.moment === crashAt.moment && at.text === crashAt.text) {
            crashAt = null;
            throw new Error(`crash at ${at.moment}`);
          }
        },
      },
    );
  });
  afterAll(async () => {
    await t?.close();
    await twilio?.close();
  });

  const db = () => t.app.services.database.db;

  async function team() {
    const owner = await signupVerified(t);
    const gateway = await createGateway(t, owner.token, twilioGatewayBody(twilio));
    await topUpThroughSandbox(t, owner.token, '10.00');
    return { owner, gateway };
  }

  /** A pending row as a campaign step queues it: rendered, not yet charged. */
  async function queue(owner: { user: { id: number; team_id: number } }, gatewayId: number, text: string) {
    const row = await db()
      .insertInto('messages')
      .values({
        team_id: owner.user.team_id,
        user_id: owner.user.id,
        lead_id: null,
        kind: 'campaign_step',
        phone: '+380501234567',
        gateway_id: gatewayId,
        sender: null,
        text,
        parts: 1,
        encoding: 'GSM-7',
        charge_key: `crash-test:${text}`,
        client_key: null,
        state: 'pending',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  const row = async (id: number) =>
    (
      await sql<{
        state: string;
        attempt: number;
        provider_message_id: string | null;
        refunded: boolean;
        called: boolean;
      }>`select state, attempt, provider_message_id, refunded_at is not null as refunded, called_at is not null as called
        from messages where id = ${id}`.execute(db())
    ).rows[0];
  const ledger = async (userId: number, text: string) => {
    const rows = (
      await sql<{
        type: string;
        amount: string;
        key: string;
      }>`select type, amount, idempotency_key as key from transactions
        where user_id = ${userId} and idempotency_key like ${`%crash-test:${text}`}`.execute(db())
    ).rows;
    return {
      charges: rows.filter((r) => r.type === 'sent_message').map((r) => Number(r.amount)),
      refunds: rows.filter((r) => r.type === 'refund').map((r) => Number(r.amount)),
    };
  };

  it('dies inside the claim: the claim rolls back, the row is sent once and charged once', async () => {
    const { owner, gateway } = await team();
    crashAt = { moment: 'claim', text: 'Crash in claim' };
    const id = await queue(owner, gateway.id, 'Crash in claim');
    await waitUntil('the message sent', async () => (await row(id))?.state === 'submitted');
    expect(crashAt).toBeNull();
    expect(twilio.sent('+380501234567', 'Crash in claim')).toBe(1);
    expect(await row(id)).toMatchObject({ attempt: 1, refunded: false });
    const money = await ledger(owner.user.id, 'Crash in claim');
    expect(money.charges).toHaveLength(1);
    expect(money.refunds).toEqual([]);
    await expectLedgerBalanced(t);
  });

  it('dies after the claim committed: the lease runs out, the row is pending again and sent once, its charge replayed', async () => {
    const { owner, gateway } = await team();
    crashAt = { moment: 'claimed', text: 'Crash after claim' };
    const id = await queue(owner, gateway.id, 'Crash after claim');
    await waitUntil('the message sent', async () => (await row(id))?.state === 'submitted');
    expect(twilio.sent('+380501234567', 'Crash after claim')).toBe(1);
    // Claimed again, charged once: the later claim's charge was the first one's, by its key.
    // (A third claim when the second's short lease ran out before its call: still one send.)
    expect((await row(id))?.attempt).toBeGreaterThanOrEqual(2);
    expect(await row(id)).toMatchObject({ refunded: false });
    const money = await ledger(owner.user.id, 'Crash after claim');
    expect(money.charges).toHaveLength(1);
    expect(money.refunds).toEqual([]);
  });

  it('dies after the call began and before the provider got it: unknown, not found at Twilio, refunded once after the deadline', async () => {
    const { owner, gateway } = await team();
    crashAt = { moment: 'called', text: 'Crash while calling' };
    const id = await queue(owner, gateway.id, 'Crash while calling');
    await waitUntil('the message refunded', async () => (await row(id))?.refunded === true, 30_000);
    // Never sent again: Twilio dedupes by no key, so an unproven send stays unknown.
    expect(await row(id)).toMatchObject({ state: 'unknown', called: true, provider_message_id: null });
    expect(twilio.sent('+380501234567', 'Crash while calling')).toBe(0);
    const money = await ledger(owner.user.id, 'Crash while calling');
    expect(money.charges).toHaveLength(1);
    expect(money.refunds).toEqual([-money.charges[0]]);
    // Later sweeps change nothing: one refund.
    await new Promise((r) => setTimeout(r, 500));
    expect((await ledger(owner.user.id, 'Crash while calling')).refunds).toHaveLength(1);
    await expectLedgerBalanced(t);
  });

  it("dies after Twilio answered, before the answer was written: unknown, then found in Twilio's list and reconciled", async () => {
    const { owner, gateway } = await team();
    crashAt = { moment: 'answered', text: 'Crash after answer' };
    const id = await queue(owner, gateway.id, 'Crash after answer');
    await waitUntil('the message reconciled', async () => (await row(id))?.state === 'submitted', 30_000);
    const sid = [...twilio.messages].find(([, m]) => m.body === 'Crash after answer')?.[0];
    expect(await row(id)).toMatchObject({ provider_message_id: sid, refunded: false });
    expect(twilio.sent('+380501234567', 'Crash after answer')).toBe(1);
    const money = await ledger(owner.user.id, 'Crash after answer');
    expect(money.charges).toHaveLength(1);
    expect(money.refunds).toEqual([]);
  });

  it('a 429 puts the row back with its Retry-After and gives the bucket its tokens back', async () => {
    const { owner } = await team();
    // Its own rate: five parts a second, a bucket of five.
    const gateway = await createGateway(
      t,
      owner.token,
      twilioGatewayBody(twilio, {
        name: 'Slow Twilio',
        credentials: { ...twilioGatewayBody(twilio).credentials, parts_per_second: '5' },
      }),
    );
    twilio.retryAfter = 30;
    const id = await queue(owner, gateway.id, 'Too many');
    await waitUntil(
      'the 429 heard',
      async () => (await row(id))?.attempt === 1 && (await row(id))?.state === 'pending',
    );
    const after = (
      await sql<{ wait: number; tokens: number; burst: number; code: string }>`
        select extract(epoch from (m.not_before - now()))::float8 as wait, b.tokens, b.burst, m.error_code as code
        from messages m, rate_buckets b where m.id = ${id} and b.key = ${`gateway:${gateway.id}`}`.execute(db())
    ).rows[0];
    twilio.retryAfter = null;
    expect(after.code).toBe('20429');
    expect(after.wait).toBeGreaterThan(25);
    expect(after.wait).toBeLessThanOrEqual(30);
    // The one token the call took is back (and the refill meanwhile cannot pass the burst).
    expect(Number(after.tokens)).toBe(Number(after.burst));
    expect(await row(id)).toMatchObject({ called: false });
    // Its time comes (the clock moved on): sent once, charged once.
    await sql`update messages set not_before = now() where id = ${id}`.execute(db());
    await waitUntil('the message sent', async () => (await row(id))?.state === 'submitted');
    expect(twilio.sent('+380501234567', 'Too many')).toBe(1);
    expect((await ledger(owner.user.id, 'Too many')).charges).toHaveLength(1);
  });

  it('a retried single SMS whose row is still claimed answers "outcome unknown", never "sent"', async () => {
    const { owner } = await team();
    const send = () =>
      t.request({
        method: 'POST',
        url: '/api/leads/single-sms',
        token: owner.token,
        payload: { phone: '+380501234568', message: 'Retried' },
        headers: { 'idempotency-key': `retried-${owner.user.id}` },
      });
    let retried: Awaited<ReturnType<typeof send>> | undefined;
    // The client retries while the first request's message is at Twilio.
    twilio.onCall = async (call) => {
      if (call.method === 'POST' && call.body.includes('Retried') && !retried) retried = await send();
    };
    const first = await send();
    // On a slow machine the first request may hand its row to the dispatch (its turn did not come
    // within its wait): the call, and the retry during it, then come later.
    await waitUntil('the retry answered', () => retried !== undefined);
    twilio.onCall = undefined;
    expect(retried?.statusCode).toBe(200);
    expect(retried?.json()).toMatchObject({ code: 'sms_send_unknown', data: { state: 'claimed' } });
    const answered = first.json();
    expect(answered.code).toBe(answered.data.state === 'submitted' ? 'sms_sent' : 'sms_send_unknown');
    await waitUntil('sent', () => twilio?.sent('+380501234568', 'Retried') === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(twilio.sent('+380501234568', 'Retried')).toBe(1);
  });
});
