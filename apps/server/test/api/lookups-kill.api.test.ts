import { afterAll, describe, expect, it } from 'vitest';
import { engineWorkers } from '../support/engine-workers.ts';
import { type FakeLookup, lookupGatewayBody, startFakeLookup } from '../support/fake-providers/fake-lookup.ts';
import { everyFiveSeconds, killAtRandom } from '../support/kill-workers.ts';
import { waitUntil } from '../support/wait.ts';

const base = process.env.TEST_DATABASE_URL;
const PHONES = 20_000;

/**
 * kill -9 of the lookup workers while a 20,000-phone list is looked up through the fake Twilio
 * Lookup (decision 040). Two worker processes, each killed at random moments and started again. At
 * the end every phone has exactly one result, its row is done, and the ledger holds exactly one net
 * charge per phone (a phone charged twice would show as two unrefunded keys); the provider was
 * asked again only for phones whose call a kill cut off.
 */
describe.skipIf(!base)('a lookup survives kill -9 of its workers on postgres', () => {
  let engine: Awaited<ReturnType<typeof engineWorkers>> | undefined;
  let fake: FakeLookup | undefined;
  afterAll(async () => {
    await engine?.dispose();
    await fake?.close();
  });

  it('gives every phone one result and one charge', async () => {
    fake = await startFakeLookup({ latencyMs: 5 });
    engine = await engineWorkers(base as string, 2, { MESSAGE_CLAIM_LEASE_MS: '1000', GATEWAY_TIMEOUT_MS: '2000' });
    const [first, second] = engine.workers;
    await Promise.all([first.start(), second.start()]);
    const owner = await engine.owner();
    const client = engine.client;
    const gateway = await first.api('POST', '/config/gateway/messaging', owner.token, lookupGatewayBody(fake));
    expect(gateway.status).toBe(201);
    // 800 lookups a second for the gateway: the kills land while phones are being looked up.
    await client.query(`update gateways set params = params || '{"lookups_per_second": "800"}'::jsonb where id = $1`, [
      gateway.json.id,
    ]);
    await client.query('update users set balance = 100000000 where id = $1', [owner.userId]);
    await client.query(
      `insert into transactions (team_id, user_id, type, amount, name, idempotency_key)
       values ($1, $2, 'top_up', 100000000, 'Kill test', 'kill-test-top-up')`,
      [owner.teamId, owner.userId],
    );
    const list = (
      await client.query(
        `with s as (insert into sources (team_id, name) values ($1, 'Kill source') returning id)
         insert into lists (team_id, source_id, name) select $1, s.id, 'Kill list' from s returning id, source_id`,
        [owner.teamId],
      )
    ).rows[0] as { id: string; source_id: string };
    await client.query(
      `insert into leads (team_id, source_id, list_id, status) select $1, $2, $3, 'active' from generate_series(1, $4::int)`,
      [owner.teamId, list.source_id, list.id, PHONES],
    );
    await client.query(
      `insert into lead_values (team_id, lead_id, attribute_id, type, value)
       select $1, l.id, a.id, 'phone', '+38067' || lpad((row_number() over (order by l.id))::text, 7, '0')
       from leads l, lead_attributes a where l.team_id = $1 and a.team_id = $1 and a.slug = 'phone'`,
      [owner.teamId],
    );
    await client.query('analyze leads');
    await client.query('analyze lead_values');

    const started = await first.api('POST', '/sources/lists/lookup', owner.token, { ids: [Number(list.id)] });
    expect(started.status, JSON.stringify(started.json)).toBe(200);
    const id = Number(started.json.lookups[0].id);
    const began = Date.now();
    const status = async () =>
      Number((await client.query('select status from lookups where id = $1', [id])).rows[0].status);
    const stop = everyFiveSeconds('lookups-kill', async () => {
      const r = await client.query(
        'select state, count(*)::int as n from lookup_items where lookup_id = $1 group by 1 order by 1',
        [id],
      );
      return `status=${await status()} ${r.rows.map((x) => `${x.state}:${x.n}`).join(' ')} calls=${fake?.total()}`;
    });
    try {
      let whileRunning = 0;
      const kills = await killAtRandom(
        engine.workers,
        async (k) => {
          if ((await status()) === 1) whileRunning = k;
          return k >= 8 || (await status()) === 3;
        },
        { min: 1_000, max: 3_000 },
      );
      await waitUntil('the lookup completed', async () => (await status()) === 3, 240_000, 250);
      expect(whileRunning).toBeGreaterThanOrEqual(3);

      const items = await client.query(
        'select state, count(*)::int as n from lookup_items where lookup_id = $1 group by 1',
        [id],
      );
      expect(items.rows).toEqual([{ state: 'done', n: PHONES }]);
      const results = await client.query(
        'select count(*)::int as n, count(distinct phone)::int as phones from phone_lookups where team_id = $1',
        [owner.teamId],
      );
      expect(results.rows[0]).toEqual({ n: PHONES, phones: PHONES });
      // Net charges: each charge key either refunded or not; the unrefunded ones are one per phone.
      const ledger = await client.query(
        `select count(*)::int as charges,
           count(*) filter (where not exists (select 1 from transactions r
             where r.user_id = c.user_id and r.idempotency_key = 'refund:' || c.idempotency_key))::int as kept,
           count(distinct c.name) filter (where not exists (select 1 from transactions r
             where r.user_id = c.user_id and r.idempotency_key = 'refund:' || c.idempotency_key))::int as phones
         from transactions c where c.user_id = $1 and c.type = 'lookup'`,
        [owner.userId],
      );
      expect(ledger.rows[0].kept).toBe(PHONES);
      expect(ledger.rows[0].phones).toBe(PHONES);
      const lookup = (await client.query('select looked_up, cost from lookups where id = $1', [id])).rows[0];
      expect(lookup.looked_up).toBe(PHONES);
      expect(Number(lookup.cost)).toBe(PHONES * 40);
      // Every phone reached the provider; again only where a kill cut a call off.
      const calls = fake.state.calls;
      expect(calls.size).toBe(PHONES);
      const repeated = [...calls.values()].filter((n) => n > 1).length;
      console.info(
        `lookups-kill: ${kills} kills (${whileRunning} while running) in ${Math.round((Date.now() - began) / 1000)} s; ` +
          `${PHONES} phones, ${repeated} asked twice after a kill cut their call off, ${ledger.rows[0].charges} charges`,
      );
    } finally {
      stop();
    }
  }, 300_000);
});
