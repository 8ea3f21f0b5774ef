import { afterAll, describe, expect, it } from 'vitest';
import { engineWorkers } from '../support/engine-workers.ts';
import { startFakeTwilio } from '../support/fake-providers/fake-twilio.ts';
import { countedSmsPlans, everyFiveSeconds, killAtRandom } from '../support/kill-workers.ts';
import { waitUntil } from '../support/wait.ts';

const base = process.env.TEST_DATABASE_URL;
const COUNT = 5_000;

/**
 * kill -9 of the workers while 5,000 queued messages go out through the fake Twilio, which, like
 * the real one, dedupes by no key, posts status callbacks to the URL it was given and answers its
 * Messages list (decision 024). Two worker processes, each killed at random moments and restarted.
 * At the end every message reached Twilio at most once; each one Twilio has is `submitted` (sent,
 * or reconciled by a report naming its row or by Twilio's list); each one it has not was refunded.
 * The ledger holds one charge per message and one refund per message not sent.
 */
describe.skipIf(!base)('queued messages survive kill -9 of their workers on postgres', () => {
  let engine: Awaited<ReturnType<typeof engineWorkers>> | undefined;
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>> | undefined;
  afterAll(async () => {
    await engine?.dispose();
    await twilio?.close();
  });

  it('sends each message at most once, and refunds each one it could not prove sent', async () => {
    twilio = await startFakeTwilio();
    twilio.autoCallbacks = true;
    // A short lease (a dead claim comes back within a second or two) and so a 10 s unknown deadline.
    engine = await engineWorkers(base as string, 2, {
      MESSAGE_CLAIM_LEASE_MS: '1000',
      GATEWAY_TIMEOUT_MS: '2000',
      HERALD_PLANS_FILE: countedSmsPlans(),
    });
    const [first, second] = engine.workers;
    await Promise.all([first.start(), second.start()]);
    const owner = await engine.owner();
    const gateway = await first.api('POST', '/config/gateway/messaging', owner.token, {
      type: 'twilio',
      name: 'Killed',
      credentials: {
        sid: twilio.account.sid,
        token: twilio.account.token,
        from_twilio: '+15005550006',
        base_url: twilio.url,
        // Slow enough that the kills land while messages are on their way.
        parts_per_second: '200',
      },
    });
    expect(gateway.status).toBe(201);
    const client = engine.client;
    let killed = 0;
    const count = async (where: string) =>
      Number((await client.query(`select count(*)::int as n from messages where ${where}`)).rows[0].n);

    await engine.queue(owner, gateway.json.id, COUNT, 'Kill');
    const progress = everyFiveSeconds('messages-kill', async () => {
      const r = await client.query(`select state || (case when refunded_at is null then '' else '+refunded' end) as s,
          count(*)::int as n from messages group by 1 order by 1`);
      return `kills=${killed} ${r.rows.map((x) => `${x.s}:${x.n}`).join(' ')}`;
    });
    // At random moments, one worker at a time is killed and started again; the other keeps sending.
    const kills = await killAtRandom(
      engine.workers,
      (k) => {
        killed = k;
        return k >= 12;
      },
      { min: 300, max: 1_800 },
    );
    await waitUntil(
      'every message settled: sent, or unknown and refunded, or failed',
      async () => (await count(`state in ('pending', 'claimed') or (state = 'unknown' and refunded_at is null)`)) === 0,
      120_000,
      250,
    );

    progress();
    const rows = (
      await client.query(
        `select text, state, provider_message_id, refunded_at is not null as refunded, charge_key from messages`,
      )
    ).rows as Array<{
      text: string;
      state: string;
      provider_message_id: string | null;
      refunded: boolean;
      charge_key: string;
    }>;
    expect(rows).toHaveLength(COUNT);
    const received = new Map<string, number>();
    for (const m of twilio.messages.values()) received.set(m.body, (received.get(m.body) ?? 0) + 1);
    // Never twice.
    expect([...received.values()].filter((n) => n > 1)).toEqual([]);
    const submitted = rows.filter((r) => r.state === 'submitted');
    const notSent = rows.filter((r) => r.state !== 'submitted');
    // What Twilio has is exactly what the rows say was sent, each bound to its own message.
    expect(new Set(submitted.map((r) => r.text))).toEqual(new Set(received.keys()));
    for (const r of submitted) expect(twilio.messages.get(r.provider_message_id as string)?.body).toBe(r.text);
    expect(notSent.every((r) => r.refunded)).toBe(true);
    expect(submitted.some((r) => r.refunded)).toBe(false);

    const ledger = (
      await client.query(
        `select type, count(*)::int as n, count(distinct idempotency_key)::int as keys from transactions
         where user_id = $1 and type in ('sent_message', 'refund') group by type`,
        [owner.userId],
      )
    ).rows as Array<{ type: string; n: number; keys: number }>;
    const of = (type: string) => ledger.find((l) => l.type === type) ?? { n: 0, keys: 0 };
    expect(of('sent_message')).toEqual({ type: 'sent_message', n: COUNT, keys: COUNT });
    expect(of('refund').n).toBe(notSent.length);
    expect(of('refund').keys).toBe(notSent.length);
    console.info(
      `messages-kill: ${kills} kills, ${submitted.length} sent, ${notSent.length} refunded (unknown ${notSent.filter((r) => r.state === 'unknown').length})`,
    );
  }, 300_000);
});
