import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../apps/server/src/db/schema.ts';
import { allRecipientsFixed, campaignTeam, setAside } from './campaign-setup.ts';
import type { FakeTwilioProcess } from './fake-twilio-process.ts';
import type { RunningHerald } from './herald.ts';

/** Where every benchmark link goes. */
export const TARGET = 'https://shop.example/sale';
/** Seeded leads that end as recipients (the seeder shares 5 % of phones and blacklists 1 in 53). */
const RECIPIENT_SHARE = 0.9;

/**
 * At least `count` short links made as a campaign makes them: seeded leads, a one-step campaign
 * `Sale {{link}}` over them launched through the API, its engine fixing the recipients a chunk a
 * tick and rendering each queued row with its own link (`makeMany`, the lead, the message and its
 * phone). The campaign sends one message a minute and is set aside once every recipient is fixed,
 * so the engine is quiet while the redirects are measured. Codes in the order they were made.
 */
export async function campaignLinks(
  herald: RunningHerald,
  fake: FakeTwilioProcess,
  count: number,
  postgres: boolean,
  log: (m: string) => void,
): Promise<{ teamId: number; db: Kysely<DB>; codes: string[] }> {
  const leads = Math.ceil(count / RECIPIENT_SHARE);
  log(`seeding ${leads.toLocaleString('en')} leads for a campaign's links`);
  const team = await campaignTeam(herald, fake, { leads, vacuum: postgres });
  const made = await team.call('POST', '/campaigns', {
    name: 'Cold clicks',
    gateway_id: team.gatewayId,
    frequency_per_minute: 1,
    quiet_hours: false,
  });
  if (made.status !== 201) throw new Error(`campaign answered ${made.status}: ${JSON.stringify(made.body)}`);
  const id = Number(made.body.id);
  const audience = await team.call('POST', `/campaigns/${id}/audiences`, { kind: 'source', ref_ids: team.sourceIds });
  if (audience.status !== 200) throw new Error(`audience answered ${audience.status}`);
  const step = await team.call('POST', `/campaigns/${id}/campaign-steps`, {
    message: 'Sale {{link}}',
    delay_minutes: 0,
    redirect_to: TARGET,
  });
  if (step.status !== 201) throw new Error(`step answered ${step.status}: ${JSON.stringify(step.body)}`);
  await sql`update campaigns set start_at = now() where id = ${id}`.execute(team.db);
  const calledAt = new Date();
  const moved = await team.call('PUT', `/campaigns/${id}/status`, { status: 'scheduled' });
  if (moved.status !== 200) throw new Error(`start answered ${moved.status}: ${JSON.stringify(moved.body)}`);
  const seconds = await allRecipientsFixed(team, id, calledAt, 10 * 60_000);
  await setAside(team, id);
  const rows = await sql<{ code: string }>`select s.code from short_links s join messages m on m.id = s.message_id
    where s.team_id = ${team.teamId} and s.kind = 'link' and m.campaign_id = ${id} order by s.id`.execute(team.db);
  log(`campaign made ${rows.rows.length.toLocaleString('en')} links in ${seconds.toFixed(1)} s`);
  if (rows.rows.length < count) throw new Error(`the campaign made ${rows.rows.length} links, ${count} needed`);
  // A hit within 2 s of its link's making is a scanner's: the people's clicks come later.
  await new Promise((r) => setTimeout(r, 2_500));
  return { teamId: team.teamId, db: team.db, codes: rows.rows.map((r) => r.code) };
}

/**
 * The least a short link can cost when its code is not in memory: Fastify, one indexed select by
 * code through the app's own database handle (the same pool, or the same PGlite), a 302.
 */
export async function startLookupServer(db: Kysely<DB>): Promise<{ url: string; app: FastifyInstance }> {
  const app = Fastify({ logger: false });
  app.get<{ Params: { code: string } }>('/:code', async (req, reply) => {
    const row = await db
      .selectFrom('short_links')
      .select('redirect_to')
      .where('code', '=', req.params.code)
      .executeTakeFirst();
    if (!row?.redirect_to) return reply.code(404).send();
    return reply.redirect(row.redirect_to, 302);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, app };
}

export interface ClickCheck {
  /** Links requested whose human clicks add up to one each (all of them, or the run fails). */
  countedOnce: number;
  humanClicks: number;
  /** Phones marked clicked, and `link_clicked` Timeline entries, of the requested links' leads. */
  engaged: number;
  timeline: number;
  /** Seconds from the last answer until every click and engagement was written. */
  drainSeconds: number;
}

/**
 * Waits until the clicks of `codes` (one request each) are all written, then checks each was
 * counted exactly once and marked its lead engaged once (its phone `clicked`, a Timeline entry).
 */
export async function checkClicks(
  db: Kysely<DB>,
  teamId: number,
  codes: string[],
  timeoutMs: number,
): Promise<ClickCheck> {
  const started = performance.now();
  const read = async () => {
    const r = await sql<{ once: string; clicks: string; engaged: string; timeline: string }>`
      with l as (select * from short_links where code = any(${codes}::text[]))
      select (select count(*) from l where human_clicks = 1 and first_clicked_at is not null) as once,
        (select coalesce(sum(human_clicks), 0) from l) as clicks,
        (select count(*) from lead_values v join l on l.lead_id = v.lead_id and l.phone = v.value
          where v.team_id = ${teamId} and v.type = 'phone' and v.clicked) as engaged,
        (select count(*) from lead_logs g where g.team_id = ${teamId} and g.action = 'link_clicked') as timeline`.execute(
      db,
    );
    const row = r.rows[0];
    return {
      countedOnce: Number(row.once),
      humanClicks: Number(row.clicks),
      engaged: Number(row.engaged),
      timeline: Number(row.timeline),
    };
  };
  for (;;) {
    const now = await read();
    const done = now.humanClicks >= codes.length && now.timeline >= codes.length;
    if (done || performance.now() - started > timeoutMs) {
      return { ...now, drainSeconds: Number(((performance.now() - started) / 1000).toFixed(1)) };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
