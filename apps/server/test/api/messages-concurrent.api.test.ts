import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupVerified } from '../support/accounts.ts';
import { topUpThroughSandbox } from '../support/billing.ts';
import { createGateway, freePort } from '../support/gateways.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

const SENDS = 40;

/**
 * One user's single SMS sent all at once: each request writes its message row (a key-share lock on
 * the user through the row's foreign key) and then charges the same user. The charge's lock must
 * not need more than the row's writers hold, or two requests wait on each other: no 500, one
 * charge per message, the ledger equal to the balance.
 */
describe.each(databases)('one user sending at once on %s', (kind) => {
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

  it('40 single SMS at once: every one answered, each charged once, ledger = balance', async () => {
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
      where user_id = ${owner.user.id} and type = 'sent_single_message'`.execute(db);
    expect(Number(charges.rows[0].n)).toBe(SENDS);
    const sums = await sql<{ balance: string; ledger: string }>`
      select u.balance::text as balance, coalesce(sum(t.amount), 0)::text as ledger
      from users u left join transactions t on t.user_id = u.id
      where u.id = ${owner.user.id} group by u.balance`.execute(db);
    expect(sums.rows[0].ledger).toBe(sums.rows[0].balance);
  });
});
