import { afterAll, describe, expect, it } from 'vitest';
import { engineWorkers } from '../support/engine-workers.ts';
import { startFakeTwilio } from '../support/fake-providers/fake-twilio.ts';
import { countedSmsPlans, everyFiveSeconds, killAtRandom } from '../support/kill-workers.ts';
import { waitUntil } from '../support/wait.ts';

const base = process.env.TEST_DATABASE_URL;
const RECIPIENTS = 20_000;
const STEPS = ['Kill step one', 'Kill step two'];

/**
 * kill -9 of the workers while a 20,000-recipient, two-step campaign goes out through the fake
 * Twilio, which, like the real one, dedupes by no key and answers its Messages list (decision 024).
 * Two worker processes, each killed at random moments while the campaign sends and started again.
 * At the end each recipient got each step at most once and exactly once where its row says sent
 * (the unknowns the list reconciled included); a row the provider never had was refunded; step 2
 * went to exactly the recipients whose step 1 went; the ledger holds one charge per message and one
 * refund per message not sent; and the campaign completed.
 */
describe.skipIf(!base)('a two-step campaign survives kill -9 of its workers on postgres', () => {
  let engine: Awaited<ReturnType<typeof engineWorkers>> | undefined;
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>> | undefined;
  afterAll(async () => {
    await engine?.dispose();
    await twilio?.close();
  });

  it('sends each step to each recipient at most once, and refunds each message it could not prove sent', async () => {
    twilio = await startFakeTwilio();
    // A short lease (a dead claim comes back within a second or two) and so a 10 s unknown deadline.
    engine = await engineWorkers(base as string, 2, {
      MESSAGE_CLAIM_LEASE_MS: '1000',
      GATEWAY_TIMEOUT_MS: '2000',
      HERALD_PLANS_FILE: countedSmsPlans(),
    });
    const [first, second] = engine.workers;
    await Promise.all([first.start(), second.start()]);
    const owner = await engine.owner();
    const client = engine.client;
    const gateway = await first.api('POST', '/config/gateway/messaging', owner.token, {
      type: 'twilio',
      name: 'Killed',
      credentials: {
        sid: twilio.account.sid,
        token: twilio.account.token,
        from_twilio: '+15005550006',
        base_url: twilio.url,
        // Slow enough that the kills land while messages are on their way, fast enough for ~2 minutes.
        parts_per_second: '500',
      },
    });
    expect(gateway.status).toBe(201);

    // 20,000 leads, one phone each, in one list: written by SQL, as an import would leave them.
    const list = (
      await client.query(
        `with s as (insert into sources (team_id, name) values ($1, 'Kill source') returning id)
         insert into lists (team_id, source_id, name) select $1, s.id, 'Kill list' from s returning id, source_id`,
        [owner.teamId],
      )
    ).rows[0] as { id: string; source_id: string };
    await client.query(
      `insert into leads (team_id, source_id, list_id, status)
       select $1, $2, $3, 'active' from generate_series(1, $4::int)`,
      [owner.teamId, list.source_id, list.id, RECIPIENTS],
    );
    await client.query(
      `insert into lead_values (team_id, lead_id, attribute_id, type, value)
       select $1, l.id, a.id, 'phone', '+38050' || lpad((row_number() over (order by l.id))::text, 7, '0')
       from leads l, lead_attributes a where l.team_id = $1 and a.team_id = $1 and a.slug = 'phone'`,
      [owner.teamId],
    );
    // As autovacuum would after an import: without statistics the planner takes the 20,000 for none.
    await client.query('analyze leads');
    await client.query('analyze lead_values');

    const created = await first.api('POST', '/campaigns', owner.token, {});
    expect(created.status).toBe(201);
    const id = Number(created.json.id);
    const audience = await first.api('POST', `/campaigns/${id}/audiences`, owner.token, {
      kind: 'list',
      ref_ids: [Number(list.id)],
    });
    expect(audience.status).toBe(200);
    for (const message of STEPS) {
      const step = await first.api('POST', `/campaigns/${id}/campaign-steps`, owner.token, {
        message,
        delay_minutes: 0,
      });
      expect(step.status).toBe(201);
    }
    // No quiet hours and no campaign rate to speak of: the gateway's own rate is the pace.
    await client.query('update campaigns set quiet_hours = false, frequency_per_minute = 1000000 where id = $1', [id]);
    const scheduled = await first.api('PUT', `/campaigns/${id}/status`, owner.token, { status: 'scheduled' });
    expect(scheduled.status, JSON.stringify(scheduled.json)).toBe(200);
    const started = Date.now();
    await client.query(`update campaigns set start_at = now() - interval '1 minute' where id = $1`, [id]);

    const status = async () =>
      (await client.query('select status from campaigns where id = $1', [id])).rows[0].status as string;
    let killed = 0;
    const stop = everyFiveSeconds('campaigns-kill', async () => {
      const r = await client.query(
        `select s.position || ':' || m.state || (case when m.refunded_at is null then '' else '+refunded' end) as s,
           count(*)::int as n
         from messages m join campaign_steps s on s.id = m.campaign_step_id where m.campaign_id = $1 group by 1 order by 1`,
        [id],
      );
      return `kills=${killed} ${await status()} ${r.rows.map((x) => `${x.s}:${x.n}`).join(' ')}`;
    });
    try {
      // Twelve kills, 3–8 s apart, while the campaign sends (it takes longer than that).
      let whileSending = 0;
      const kills = await killAtRandom(
        engine.workers,
        async (k) => {
          killed = k;
          if ((await status()) !== 'completed') whileSending = k;
          return k >= 12;
        },
        { min: 3_000, max: 8_000 },
      );
      // Two to three minutes on an idle 2-core machine; several times that when others' suites share it.
      await waitUntil('the campaign completed', async () => (await status()) === 'completed', 540_000, 500);
      expect(whileSending).toBeGreaterThanOrEqual(10);

      const recipients = Number(
        (
          await client.query(
            'select count(*)::int as n from campaign_recipients where campaign_id = $1 and skip_reason is null',
            [id],
          )
        ).rows[0].n,
      );
      expect(recipients).toBe(RECIPIENTS);
      const rows = (
        await client.query(
          `select s.position, m.phone, m.text, m.state, m.provider_message_id, m.refunded_at is not null as refunded
           from messages m join campaign_steps s on s.id = m.campaign_step_id where m.campaign_id = $1`,
          [id],
        )
      ).rows as Array<{
        position: number;
        phone: string;
        text: string;
        state: string;
        provider_message_id: string | null;
        refunded: boolean;
      }>;
      const step = (p: number) => rows.filter((r) => Number(r.position) === p);
      // Step 1 to every recipient, once (a row per step and phone).
      expect(step(1)).toHaveLength(RECIPIENTS);
      expect(new Set(step(1).map((r) => r.phone)).size).toBe(RECIPIENTS);

      // What Twilio took, counted per (step, phone): never twice.
      const taken = new Map<string, number>();
      for (const m of twilio.messages.values())
        taken.set(`${m.body}|${m.to}`, (taken.get(`${m.body}|${m.to}`) ?? 0) + 1);
      expect([...taken].filter(([, n]) => n > 1)).toEqual([]);
      const submitted = rows.filter((r) => r.state === 'submitted');
      const notSent = rows.filter((r) => r.state !== 'submitted');
      // A sent row is exactly one message at Twilio, bound to it; a row not sent is none, and refunded.
      expect(submitted.filter((r) => taken.get(`${r.text}|${r.phone}`) !== 1)).toEqual([]);
      for (const r of submitted) {
        const at = twilio.messages.get(r.provider_message_id as string);
        expect(at && `${at.body}|${at.to}`).toBe(`${r.text}|${r.phone}`);
      }
      expect(notSent.filter((r) => taken.has(`${r.text}|${r.phone}`) || !r.refunded)).toEqual([]);
      expect(submitted.some((r) => r.refunded)).toBe(false);
      expect(twilio.messages.size).toBe(submitted.length);
      // Step 2 went to exactly the recipients whose step 1 went.
      const firstSent = new Set(
        step(1)
          .filter((r) => r.state === 'submitted')
          .map((r) => r.phone),
      );
      expect(new Set(step(2).map((r) => r.phone))).toEqual(firstSent);

      const ledger = (
        await client.query(
          `select type, count(*)::int as n, count(distinct idempotency_key)::int as keys from transactions
           where user_id = $1 and type in ('sent_message', 'refund') group by type`,
          [owner.userId],
        )
      ).rows as Array<{ type: string; n: number; keys: number }>;
      const of = (type: string) => ledger.find((l) => l.type === type) ?? { type, n: 0, keys: 0 };
      expect(of('sent_message')).toEqual({ type: 'sent_message', n: rows.length, keys: rows.length });
      expect(of('refund')).toEqual({ type: 'refund', n: notSent.length, keys: notSent.length });
      console.info(
        `campaigns-kill: ${kills} kills (${whileSending} while sending) in ${Math.round((Date.now() - started) / 1000)} s; ` +
          `${submitted.length} sent (step 1 ${firstSent.size}, step 2 ${step(2).length}), ${notSent.length} not sent and refunded`,
      );
    } finally {
      stop();
    }
  }, 720_000);
});
