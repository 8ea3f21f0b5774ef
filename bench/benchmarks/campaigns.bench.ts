import { type Kysely, sql } from 'kysely';
import type { DB } from '../../apps/server/src/db/schema.ts';
import {
  allRecipientsFixed,
  type CampaignTeam,
  campaignTeam,
  clock,
  draftCampaign,
  launchToFirstMessage,
  sentPerMinute,
  setAside,
} from '../lib/campaign-setup.ts';
import { type DispatchWorker, startDispatchWorker } from '../lib/dispatch-worker.ts';
import { startFakeTwilioProcess } from '../lib/fake-twilio-process.ts';
import { startHerald } from '../lib/herald.ts';
import type { BenchContext, Row } from '../lib/types.ts';

export const name = 'campaigns';
export const description =
  'a campaign over BENCH_CAMPAIGN_LEADS leads (default 1,000,000; 100,000 embedded) launched through the API: seconds to its first message answered by a fake Twilio; its preview on that audience and on a tenth of it; a 600-a-minute campaign measured over BENCH_CAMPAIGN_RATE_SECONDS (120) with one and two worker processes';

const LAUNCH_BAR = 'issue 34: a 1,000,000-recipient campaign’s first message ≤ 10 s after its start on PostgreSQL';
const PREVIEW_BAR = 'issue 34: the preview answers in about a second on 100,000 leads';
const RATE_BAR = 'issue 34: a campaign’s frequency kept, 600 ± 2 % a minute';
const RATE = 600;

export async function run(ctx: BenchContext): Promise<Row[]> {
  const postgres = ctx.database === 'postgres';
  const leads = Number(process.env.BENCH_CAMPAIGN_LEADS ?? (postgres ? 1_000_000 : 100_000));
  const rateSeconds = Number(process.env.BENCH_CAMPAIGN_RATE_SECONDS ?? 120);
  const fake = await startFakeTwilioProcess();
  const workers: DispatchWorker[] = [];
  try {
    // PostgreSQL: the app serves HTTP only and worker processes run the engine and the dispatch, as
    // deployed to scale out. Embedded: one process does both, the only way it runs.
    const herald = await startHerald(ctx, postgres ? { HERALD_ROLE: 'api' } : {});
    try {
      if (postgres) workers.push(await startDispatchWorker(herald.env, herald.jobsSchema));
      ctx.log(`seeding ${leads.toLocaleString('en')} leads`);
      const team = await campaignTeam(herald, fake, { leads, vacuum: postgres });
      const rows: Row[] = [];

      const reference = await bareInsertSelect(team.db, team.teamId);
      ctx.log(`bare insert … select of the audience's leads and phones: ${reference.toFixed(2)} s`);
      const launched = await draftCampaign(team, { sourceIds: team.sourceIds, message: 'Bench launch', perMinute: 1 });
      const first = await launchToFirstMessage(team, launched, 15 * 60_000);
      ctx.log(
        `first message ${first.seconds.toFixed(2)} s after the start call (the call took ${first.callSeconds.toFixed(2)} s)`,
      );
      const all = await allRecipientsFixed(team, launched, first.calledAt, 30 * 60_000);
      ctx.log(`all ${leads.toLocaleString('en')} recipients fixed ${all.toFixed(1)} s after the start call`);
      const fixed = await sql<{
        n: string;
      }>`select count(*) as n from campaign_recipients where campaign_id = ${launched}`.execute(team.db);
      if (Number(fixed.rows[0].n) !== leads) throw new Error(`${fixed.rows[0].n} recipients fixed for ${leads} leads`);
      await setAside(team, launched);
      rows.push({
        metric: `launch of a campaign over ${leads.toLocaleString('en')} leads: start call to first message answered`,
        value: round(first.seconds),
        unit: 's',
        reference: { value: round(reference), label: 'bare insert … select of the same leads and phones into a table' },
        ...(postgres && leads >= 1_000_000
          ? { bar: { op: '<=' as const, target: 10, of: 'value' as const, source: LAUNCH_BAR } }
          : {}),
      });
      rows.push({
        metric: `launch over ${leads.toLocaleString('en')} leads: start call to every recipient fixed (sending meanwhile)`,
        value: round(all),
        unit: 's',
        reference: { value: round(reference), label: 'bare insert … select of the same leads and phones into a table' },
      });

      for (const share of [1, 10]) {
        const sources = team.sourceIds.slice(0, team.sourceIds.length / share);
        const audience = leads / share;
        const draft = await draftCampaign(team, {
          sourceIds: sources,
          message: `Bench preview ${share}`,
          perMinute: RATE,
        });
        const seconds = await timedPreviews(team, draft, audience);
        const bare = await bareCount(team.db, team.teamId, sources);
        ctx.log(
          `preview over ${audience.toLocaleString('en')} leads: p50 ${seconds.toFixed(2)} s (bare count ${bare.toFixed(3)} s)`,
        );
        rows.push({
          metric: `preview over ${audience.toLocaleString('en')} leads, p50 of 3`,
          value: round(seconds * 1000),
          unit: 'ms',
          reference: { value: round(bare * 1000), label: 'bare count of the same leads' },
          ...(audience <= 100_000
            ? { bar: { op: '<=' as const, target: 1000, of: 'value' as const, source: PREVIEW_BAR } }
            : {}),
        });
      }

      // A list is a fiftieth of the leads: enough for the measured minutes at 600 a minute.
      const rounds = postgres ? [1, 2] : [0];
      for (const [i, n] of rounds.entries()) {
        while (postgres && workers.length < n) workers.push(await startDispatchWorker(herald.env, herald.jobsSchema));
        const label = n === 0 ? 'one process' : `${n} worker process${n > 1 ? 'es' : ''}`;
        const listLeads = await sql<{
          n: string;
        }>`select count(*) as n from leads where list_id = ${team.listIds[i]}`.execute(team.db);
        if (Number(listLeads.rows[0].n) < (RATE * rateSeconds) / 60)
          throw new Error(
            `a list of ${listLeads.rows[0].n} leads is too small for ${rateSeconds} s at ${RATE} a minute`,
          );
        const id = await paced(team, team.listIds[i] as number, `Bench rate ${n}`);
        ctx.log(`${label}: 600-a-minute campaign started; measuring ${rateSeconds} s`);
        await launchToFirstMessage(team, id, 5 * 60_000);
        await new Promise((r) => setTimeout(r, (rateSeconds + 5) * 1000));
        const perMinute = await sentPerMinute(team, id, rateSeconds);
        await setAside(team, id);
        ctx.log(`${label}: ${perMinute.toFixed(1)} a minute`);
        // Two rows, one per side of the band: the runner's bars are one-sided.
        for (const [op, target] of [
          ['>=', 0.98],
          ['<=', 1.02],
        ] as const)
          rows.push({
            metric: `campaign of ${RATE} a minute, ${label}: sent a minute over ${rateSeconds} s (${op} ${target} × ${RATE})`,
            value: round(perMinute),
            unit: '/min',
            reference: { value: RATE, label: 'the campaign’s frequency' },
            bar: { op, target, of: 'ratio', source: RATE_BAR },
          });
      }
      return rows;
    } finally {
      await Promise.all(workers.map((w) => w.close()));
      await herald.close();
    }
  } finally {
    await fake.close();
  }
}

/** A 600-a-minute campaign over one list, launched. */
async function paced(team: CampaignTeam, listId: number, message: string): Promise<number> {
  const made = await team.call('POST', '/campaigns', {
    name: message,
    gateway_id: team.gatewayId,
    frequency_per_minute: RATE,
    quiet_hours: false,
  });
  const id = Number(made.body.id);
  const audience = await team.call('POST', `/campaigns/${id}/audiences`, { kind: 'list', ref_ids: [listId] });
  const step = await team.call('POST', `/campaigns/${id}/campaign-steps`, { message, delay_minutes: 0 });
  if (made.status !== 201 || audience.status !== 200 || step.status !== 201)
    throw new Error(`campaign ${made.status}, audience ${audience.status}, step ${step.status}`);
  await sql`update campaigns set start_at = now() where id = ${id}`.execute(team.db);
  return id;
}

/** The preview's p50 of three calls; its audience must be every lead asked for. */
async function timedPreviews(team: CampaignTeam, id: number, audience: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const p = await team.call('GET', `/campaigns/${id}/preview`);
    times.push((performance.now() - started) / 1000);
    if (p.status !== 200 || p.body.audience !== audience)
      throw new Error(`preview answered ${p.status}, audience ${p.body.audience} of ${audience}`);
  }
  return times.sort((a, b) => a - b)[1] as number;
}

/** The least a start must do: read the audience's leads with their phones and write them as rows. */
async function bareInsertSelect(db: Kysely<DB>, teamId: number): Promise<number> {
  await sql`create table bench_recipients (lead_id bigint, phone text)`.execute(db);
  const t0 = await clock(db);
  await sql`insert into bench_recipients select l.id, v.value from leads l
    join lead_values v on v.lead_id = l.id and v.team_id = ${teamId} and v.type = 'phone'
    where l.team_id = ${teamId}`.execute(db);
  const t1 = await clock(db);
  await sql`drop table bench_recipients`.execute(db);
  return (t1.getTime() - t0.getTime()) / 1000;
}

async function bareCount(db: Kysely<DB>, teamId: number, sources: number[]): Promise<number> {
  const started = performance.now();
  await sql`select count(*) from leads where team_id = ${teamId} and source_id = any(${sources}::bigint[])`.execute(db);
  return (performance.now() - started) / 1000;
}

const round = (n: number) => Math.round(n * 100) / 100;
