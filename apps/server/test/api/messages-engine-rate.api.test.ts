import { afterAll, describe, expect, it } from 'vitest';
import { engineWorkers } from '../support/engine-workers.ts';
import { startFakeTwilio } from '../support/fake-providers/fake-twilio.ts';
import { waitUntil } from '../support/wait.ts';

const base = process.env.TEST_DATABASE_URL;

/**
 * A gateway's rate is one bucket in the database (decision 024): two worker processes sending from
 * the same queue hold it together, so 2,000 messages at 50 a second take 40 s, not 20.
 */
describe.skipIf(!base)('two worker processes share one gateway rate on postgres', () => {
  let engine: Awaited<ReturnType<typeof engineWorkers>> | undefined;
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>> | undefined;
  afterAll(async () => {
    await engine?.dispose();
    await twilio?.close();
  });

  it('sends 2,000 queued messages at 50 a second in 40 s ± 10 %', async () => {
    twilio = await startFakeTwilio();
    engine = await engineWorkers(base as string, 2);
    await Promise.all(engine.workers.map((w) => w.start()));
    const owner = await engine.owner();
    const gateway = await engine.workers[0].api('POST', '/config/gateway/messaging', owner.token, {
      type: 'twilio',
      name: 'Fifty a second',
      credentials: {
        sid: twilio.account.sid,
        token: twilio.account.token,
        from_twilio: '+15005550006',
        base_url: twilio.url,
        parts_per_second: '50',
      },
    });
    expect(gateway.status).toBe(201);
    const client = engine.client;
    const submitted = async () =>
      Number((await client.query(`select count(*)::int as n from messages where state = 'submitted'`)).rows[0].n);

    const started = Date.now();
    await engine.queue(owner, gateway.json.id, 2_000, 'Rate');
    await waitUntil('2,000 sent', async () => (await submitted()) === 2_000, 90_000, 200);
    const seconds = (Date.now() - started) / 1_000;
    // The bucket starts full (a second's worth), then refills at 50 a second: 39 s and the polls.
    expect(seconds).toBeGreaterThan(36);
    expect(seconds).toBeLessThan(44);
    // Each message once: the two workers never took the same row.
    expect(twilio.calls.filter((c) => c.method === 'POST')).toHaveLength(2_000);
    expect(twilio.sends.size).toBe(2_000);
  }, 240_000);
});
