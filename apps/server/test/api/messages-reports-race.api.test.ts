import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupVerified } from '../support/accounts.ts';
import { topUpThroughSandbox } from '../support/billing.ts';
import { createGateway, freePort } from '../support/gateways.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

const SENDS = 40;

/**
 * The outside probe's case (issue 31, decision 025): the simulator at 0 ms latency posts its reports
 * while the send is still writing the answer, so reports reach rows that have no provider id yet.
 * Each is matched by the row its URL names, or kept and applied when the row settles: every one of
 * the 40 messages ends delivered, and nothing stays kept.
 */
describe.each(databases)('reports racing their sends on %s', (kind) => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signupVerified>>;
  beforeAll(async () => {
    const port = await freePort();
    t = await startTestApp(kind, { APP_URL: `http://127.0.0.1:${port}` });
    await t.app.listen({ port, host: '127.0.0.1' });
    owner = await signupVerified(t);
    await topUpThroughSandbox(t, owner.token, '50.00');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('40 single SMS through the simulator at 0 ms latency all end delivered', async () => {
    const gateway = await createGateway(t, owner.token, {
      type: 'simulator',
      name: 'Sim',
      credentials: {
        from: 'Herald',
        latency_ms: '0',
        delivery_rate: '100',
        failure_rate: '0',
        block_rate: '0',
        reply_text: '',
      },
    });
    // One after another: each send's answer is being written while its reports arrive.
    const sent: number[] = [];
    for (let i = 0; i < SENDS; i++) {
      const res = await t.request({
        method: 'POST',
        url: '/api/leads/single-sms',
        token: owner.token,
        payload: { phone: `+3806712600${String(i).padStart(2, '0')}`, message: 'Race', gateway_id: gateway.id },
      });
      expect(res.statusCode, res.body).toBe(200);
      sent.push(res.json().data.id as number);
    }
    const db = t.app.services.database.db;
    const delivered = async () =>
      Number(
        (
          await sql<{ n: number }>`select count(*) as n from messages
            where id = any(${sent}::bigint[]) and status = 'delivered' and state = 'submitted'`.execute(db)
        ).rows[0].n,
      );
    await waitUntil('every message delivered', async () => (await delivered()) === SENDS, 60_000, 100);
    const left = await sql<{ n: number }>`select count(*) as n from message_reports_kept`.execute(db);
    expect(Number(left.rows[0].n)).toBe(0);
  });
  /**
   * All at once, from one user: each request writes its message row (a key-share lock on the user
   * through the row's foreign key) and then charges that user. The charge's lock must not need more
   * than the row's writers hold, or two requests wait on each other: no 500, one charge per message,
   * the ledger equal to the balance.
   */
  it('40 single SMS of one user at once: every one answered, each charged once, ledger = balance', async () => {
    const gateway = await createGateway(t, owner.token, {
      type: 'simulator',
      name: 'Sim at once',
      credentials: { from: 'Herald', latency_ms: '0', delivery_rate: '100', failure_rate: '0', block_rate: '0' },
    });
    const answers = await Promise.all(
      Array.from({ length: SENDS }, (_, i) =>
        t.request({
          method: 'POST',
          url: '/api/leads/single-sms',
          token: owner.token,
          payload: { phone: `+3806712700${String(i).padStart(2, '0')}`, message: 'At once', gateway_id: gateway.id },
        }),
      ),
    );
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    const db = t.app.services.database.db;
    const charges = await sql<{ n: number }>`select count(*) as n from transactions
      where user_id = ${owner.user.id} and type = 'sent_single_message' and name like '+3806712700%'`.execute(db);
    expect(Number(charges.rows[0].n)).toBe(SENDS);
    const sums = await sql<{ balance: string; ledger: string }>`
      select u.balance::text as balance, coalesce(sum(t.amount), 0)::text as ledger
      from users u left join transactions t on t.user_id = u.id
      where u.id = ${owner.user.id} group by u.balance`.execute(db);
    expect(sums.rows[0].ledger).toBe(sums.rows[0].balance);
  });
});
