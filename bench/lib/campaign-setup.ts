import { type Kysely, sql } from 'kysely';
import type { DB } from '../../apps/server/src/db/schema.ts';
import { createLedgerRepository } from '../../apps/server/src/modules/billing/ledger.repository.ts';
import { twilioGatewayBody } from '../../apps/server/test/support/gateways.ts';
import type { FakeTwilioProcess } from './fake-twilio-process.ts';
import type { RunningHerald } from './herald.ts';
import { seedLeads } from './leads-seeder.ts';

/** What the API answered, as far as the benchmark reads it. */
type Answer = { id: number; audience?: number; recipients?: number } & Record<string, unknown>;

export interface CampaignTeam {
  token: string;
  teamId: number;
  userId: number;
  gatewayId: number;
  sourceIds: number[];
  listIds: number[];
  db: Kysely<DB>;
  call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown): Promise<{ status: number; body: Answer }>;
}

/**
 * A team as a campaign's launcher has it: an owner, a Twilio gateway on the fake, money for every
 * message of the run, and `leads` leads from the seeder (10 sources, 5 % shared phones, 1 in 53
 * blacklisted: so the recipients statement has every bucket to fill, not only "send").
 */
export async function campaignTeam(
  herald: RunningHerald,
  fake: FakeTwilioProcess,
  o: { leads: number; vacuum: boolean },
): Promise<CampaignTeam> {
  const db = herald.app.services.database.db as Kysely<DB>;
  const { token, teamId } = await herald.signUpOwner();
  const call: CampaignTeam['call'] = async (method, url, payload) => {
    const res = await herald.app.inject({
      method,
      url: `/api${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: res.statusCode, body: (res.body ? res.json() : {}) as Answer };
  };
  const gateway = await call('POST', '/config/gateway/messaging', twilioGatewayBody(fake));
  if (gateway.status !== 201) throw new Error(`gateway answered ${gateway.status}: ${JSON.stringify(gateway.body)}`);
  const owner = await db.selectFrom('users').select('id').where('team_id', '=', teamId).executeTakeFirstOrThrow();
  const userId = Number(owner.id);
  await createLedgerRepository().credit(db, teamId, userId, [
    { type: 'top_up', amount: 1_000_000_000_000, key: 'bench-campaign-funds' },
  ]);
  const { sourceIds, listIds } = await seedLeads(db, { teamId, leads: o.leads, vacuum: o.vacuum });
  return { token, teamId, userId, gatewayId: Number(gateway.body.id), sourceIds, listIds, db, call };
}

/** A draft campaign over `sourceIds` (every seeded lead) with one step, quiet hours off, made through the API. */
export async function draftCampaign(
  team: CampaignTeam,
  o: { sourceIds: number[]; message: string; perMinute: number },
): Promise<number> {
  const made = await team.call('POST', '/campaigns', {
    name: o.message,
    gateway_id: team.gatewayId,
    frequency_per_minute: o.perMinute,
    quiet_hours: false,
  });
  if (made.status !== 201) throw new Error(`campaign answered ${made.status}: ${JSON.stringify(made.body)}`);
  const id = Number(made.body.id);
  const audience = await team.call('POST', `/campaigns/${id}/audiences`, { kind: 'source', ref_ids: o.sourceIds });
  if (audience.status !== 200)
    throw new Error(`audience answered ${audience.status}: ${JSON.stringify(audience.body)}`);
  const step = await team.call('POST', `/campaigns/${id}/campaign-steps`, { message: o.message, delay_minutes: 0 });
  if (step.status !== 201) throw new Error(`step answered ${step.status}: ${JSON.stringify(step.body)}`);
  // Its start is now: the status call below is what launches it.
  await sql`update campaigns set start_at = now() where id = ${id}`.execute(team.db);
  return id;
}

/**
 * Launches the campaign (the user's "Start": status scheduled, which runs the launch checks and
 * their preview) and waits for its first message answered by the fake: seconds from the call to
 * that row's answer written, on the database's clock.
 */
export async function launchToFirstMessage(
  team: CampaignTeam,
  campaignId: number,
  timeoutMs: number,
): Promise<{ seconds: number; callSeconds: number; calledAt: Date }> {
  const t0 = await clock(team.db);
  const started = performance.now();
  const moved = await team.call('PUT', `/campaigns/${campaignId}/status`, { status: 'scheduled' });
  if (moved.status !== 200) throw new Error(`start answered ${moved.status}: ${JSON.stringify(moved.body)}`);
  const callSeconds = (performance.now() - started) / 1000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const first = await sql<{ at: Date | null }>`select min(updated_at) as at from messages
      where campaign_id = ${campaignId} and state = 'submitted'`.execute(team.db);
    const at = first.rows[0]?.at;
    if (at) return { seconds: (at.getTime() - t0.getTime()) / 1000, callSeconds, calledAt: t0 };
    if (Date.now() > deadline) throw new Error(`no message of campaign ${campaignId} answered in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function clock(db: Kysely<DB>): Promise<Date> {
  return (await sql<{ at: Date }>`select clock_timestamp() as at`.execute(db)).rows[0].at;
}

/**
 * A campaign's send rate: messages handed to the gateway (`called_at`) in the `seconds` after its
 * first one, per minute. The first minute's slots start at the launch, so the window is the
 * campaign's own schedule, not the start's delay.
 */
export async function sentPerMinute(team: CampaignTeam, campaignId: number, seconds: number): Promise<number> {
  const r = await sql<{ n: string }>`
    with first as (select min(called_at) as at from messages where campaign_id = ${campaignId})
    select count(*) as n from messages m, first
    where m.campaign_id = ${campaignId} and m.called_at >= first.at
      and m.called_at < first.at + ${seconds}::int * interval '1 second'`.execute(team.db);
  return (Number(r.rows[0]?.n ?? 0) * 60) / seconds;
}

/**
 * Ends a measured campaign without touching its queued rows (a pause would rewrite every one):
 * the engine looks only at scheduled, processing, active and paused campaigns, and the rows left
 * pending are due minutes to days ahead, so the next measurement runs on a quiet engine.
 */
export async function setAside(team: CampaignTeam, campaignId: number): Promise<void> {
  await sql`update campaigns set status = 'completed', completed_at = now() where id = ${campaignId}`.execute(team.db);
  await sql`update messages set not_before = 'infinity' where campaign_id = ${campaignId}
    and state = 'pending' and not_before < now() + interval '10 minutes'`.execute(team.db);
}

/**
 * Seconds from the launch call (`calledAt`, the database's clock) to the start's last chunk of
 * recipients written: the start fixes them a chunk a tick while the campaign sends (decision 036).
 */
export async function allRecipientsFixed(
  team: CampaignTeam,
  campaignId: number,
  calledAt: Date,
  timeoutMs: number,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await sql<{ fixing: boolean; last: Date | null }>`
      select c.recipients_through is not null as fixing,
        (select max(r.created_at) from campaign_recipients r where r.campaign_id = c.id) as last
      from campaigns c where c.id = ${campaignId}`.execute(team.db);
    const row = r.rows[0];
    if (row && !row.fixing && row.last) return (row.last.getTime() - calledAt.getTime()) / 1000;
    if (Date.now() > deadline) throw new Error(`campaign ${campaignId} still fixing recipients after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
