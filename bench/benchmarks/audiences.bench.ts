import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../../apps/server/src/db/schema.ts';
import { startHerald } from '../lib/herald.ts';
import { seedLeads } from '../lib/leads-seeder.ts';
import { resultsAudiences, seedCampaignResults } from '../lib/campaign-results-seeder.ts';
import { describeSamples, percentile, sampleIdle, sampleRows, startSampler } from '../lib/interactive-sampler.ts';
import type { BenchContext, Row } from '../lib/types.ts';

export const name = 'audiences';
export const description =
  'five audiences on BENCH_LEADS leads (default 1,000,000): count + first page, cold and cached, each beside hand-written SQL; CSV export of every lead (time, peak RSS); the session and a leads page sampled every 100 ms meanwhile';

const SAMPLES = Number(process.env.BENCH_AUDIENCE_SAMPLES ?? 10);
/**
 * The results audiences (issue 35): '1' (default) adds a finished campaign's messages and the two
 * audiences over them; '0' runs the five lead audiences alone; 'only' runs the two without the five
 * and without the export.
 */
const RESULTS = process.env.BENCH_AUDIENCE_RESULTS ?? '1';

async function p50(fn: () => Promise<unknown>, before?: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    await before?.();
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return percentile(times, 50);
}

interface Audience {
  label: string;
  /** Created through the API, audience first, then each child under the previous one. */
  levels: Array<Array<{ id: string | number; operator: string; values?: Array<string | number> }>>;
  /** The same question as plain SQL over `leads` (alias l), written by hand. */
  where: RawBuilder<unknown>;
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  const count = Number(process.env.BENCH_LEADS ?? 1_000_000);
  ctx.log(`starting Herald (${ctx.database})`);
  const herald = await startHerald(ctx);
  // Stopped in `finally` too, so a failing run does not leave a probe calling a closed server.
  const probes: Array<ReturnType<typeof startSampler>> = [];
  try {
    const { app, url } = herald;
    const db = app.services.database.db as Kysely<DB>;
    const { token, teamId } = await herald.signUpOwner();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    ctx.log(`seeding ${count.toLocaleString('en')} leads`);
    const { sourceIds, listIds } = await seedLeads(db, { teamId, leads: count, vacuum: ctx.database === 'postgres' });
    const attrs = await db.selectFrom('lead_attributes').select(['id', 'slug']).where('team_id', '=', teamId).execute();
    const attr = Object.fromEntries(attrs.map((a) => [a.slug, Number(a.id)]));

    // biome-ignore lint/suspicious/noExplicitAny: the bench reads a few known fields of JSON answers.
    const api = async (method: string, path: string, body?: unknown): Promise<any> => {
      const r = await fetch(`${url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (r.status >= 300) throw new Error(`${method} ${path} answered ${r.status}: ${await r.text()}`);
      return r.json();
    };

    const [s1, s2, s3] = sourceIds;
    const leadAudiences: Audience[] = [
      {
        label: 'phone contains "4567"',
        levels: [[{ id: attr.phone, operator: 'contains', values: ['4567'] }]],
        where: sql`exists (select 1 from lead_values v where v.lead_id = l.id and v.attribute_id = ${attr.phone} and v.value ilike '%4567%')`,
      },
      {
        label: 'list + status',
        levels: [
          [
            { id: 'source', operator: 'eq', values: [s1] },
            { id: 'list', operator: 'eq', values: [listIds[0]] },
            { id: 'status', operator: 'eq', values: ['active'] },
          ],
        ],
        where: sql`l.source_id = ${s1} and l.list_id = ${listIds[0]} and l.status = 'active'`,
      },
      {
        label: 'source not_eq + city not_empty',
        levels: [
          [
            { id: 'source', operator: 'not_eq', values: [s1] },
            { id: attr.city, operator: 'not_empty' },
          ],
        ],
        where: sql`l.source_id <> ${s1} and exists (select 1 from lead_values v where v.lead_id = l.id and v.attribute_id = ${attr.city})`,
      },
      {
        label: 'duplicates eq 1',
        levels: [[{ id: 'duplicates', operator: 'eq', values: ['1'] }]],
        where: sql`l.duplicates = 1`,
      },
      {
        label: 'three levels: sources > active > city contains "Київ"',
        levels: [
          [{ id: 'source', operator: 'eq', values: [s1, s2, s3] }],
          [{ id: 'status', operator: 'eq', values: ['active'] }],
          [{ id: attr.city, operator: 'contains', values: ['київ'] }],
        ],
        where: sql`l.source_id in (${s1}, ${s2}, ${s3}) and l.status = 'active'
          and exists (select 1 from lead_values v where v.lead_id = l.id and v.attribute_id = ${attr.city} and v.value ilike '%київ%')`,
      },
    ];
    const audiences = RESULTS === 'only' ? [] : leadAudiences;
    if (RESULTS !== '0') {
      const campaign = await api('POST', '/api/campaigns', {});
      const step = await api('POST', `/api/campaigns/${campaign.id}/campaign-steps`, {
        message: 'Sale today {{link}}',
        redirect_to: 'https://shop.example/sale',
      });
      // A gateway that is never called: the campaign's messages are written as already answered.
      const gateway = await api('POST', '/api/config/gateway/messaging', {
        type: 'twilio',
        name: 'Twilio',
        credentials: {
          sid: `AC${'0'.repeat(32)}`,
          token: 'bench-token',
          from_twilio: '+15005550006',
          base_url: 'http://127.0.0.1:9',
        },
      });
      ctx.log('seeding a finished campaign: a message and a link per recipient, clicks');
      const seeded = await seedCampaignResults(db, {
        teamId,
        campaignId: Number(campaign.id),
        stepId: Number(step.id),
        gatewayId: Number(gateway.id),
        vacuum: ctx.database === 'postgres',
      });
      const t = seeded.seconds;
      ctx.log(
        `${seeded.recipients.toLocaleString('en')} recipients, ${seeded.messages.toLocaleString('en')} messages, ${seeded.clicked.toLocaleString('en')} clicked: recipients ${t.recipients.toFixed(1)} s, messages ${t.messages.toFixed(1)} s, links ${t.links.toFixed(1)} s, clicks ${t.clicks.toFixed(1)} s, ${ctx.database === 'postgres' ? 'vacuum analyze' : 'analyze'} ${t.maintain.toFixed(1)} s`,
      );
      audiences.push(...resultsAudiences(teamId, Number(campaign.id)));
    }

    const bump = () => sql`update teams set data_version = data_version + 1 where id = ${teamId}`.execute(db);
    const rows: Row[] = [];
    const onPg = ctx.database === 'postgres';
    const bar = onPg ? 150 : 400;
    // What a person feels: the same routes idle, then while counts and the export run.
    const sampled = { authorization: headers.authorization };
    const idle = await sampleIdle(url, sampled);
    const countsProbe = startSampler(url, sampled);
    probes.push(countsProbe);
    for (const audience of audiences) {
      let parent: number | undefined;
      for (const [i, filters] of audience.levels.entries()) {
        const created = await api('POST', parent ? `/api/segments/${parent}/segments` : '/api/segments', {
          name: `${audience.label} ${i}`,
          ignore_new_leads: false,
          filters,
        });
        parent = created.id as number;
      }
      const path = `/api/segments/${parent}/leads?limit=50`;
      const answer = await api('GET', path);
      // The same question by hand: the count and the first page's ids (values fetched alike).
      const bare = async () => {
        const [n, page] = await Promise.all([
          sql<{
            n: number;
          }>`select count(*) as n from leads l where l.team_id = ${teamId} and ${audience.where}`.execute(db),
          sql<{
            id: number;
          }>`select l.id from leads l where l.team_id = ${teamId} and ${audience.where} order by l.id desc limit 50`.execute(
            db,
          ),
        ]);
        await sql`select lead_id, value from lead_values where lead_id = any(${page.rows.map((r) => r.id)}::bigint[])`.execute(
          db,
        );
        return Number(n.rows[0].n);
      };
      // The reference holds the same database: the sampler skips it, as it is no work of the app's.
      const bareCount = await countsProbe.unsampled(bare);
      if (bareCount !== answer.meta.total) {
        throw new Error(`${audience.label}: the app counts ${answer.meta.total}, the hand-written SQL ${bareCount}`);
      }
      ctx.log(`${audience.label}: ${answer.meta.total.toLocaleString('en')} leads`);
      const cold = await p50(() => api('GET', path), bump);
      const warm = await p50(() => api('GET', path));
      const reference = await countsProbe.unsampled(() => p50(bare));
      rows.push(
        {
          metric: `${audience.label} (${answer.meta.total.toLocaleString('en')}): count + page, cold p50`,
          value: cold,
          unit: 'ms',
          reference: { value: reference, label: 'hand-written SQL p50' },
          bar: { op: '<=', target: bar, of: 'value', source: 'issue 6 / DESIGN audience' },
        },
        {
          metric: `${audience.label}: count cached, page fresh, p50`,
          value: warm,
          unit: 'ms',
          reference: { value: reference, label: 'hand-written SQL p50' },
        },
      );
    }

    // The audiences table (the first screen): every row's count, cold after any change of the data.
    const table = await p50(() => api('GET', '/api/segments?page=1&limit=15'), bump);
    rows.push({
      metric: `audiences table (${audiences.length} audiences with their counts), cold p50`,
      value: table,
      unit: 'ms',
    });

    const duringCounts = await countsProbe.stop();
    ctx.log(`during the counts: ${describeSamples(duringCounts, idle)}`);
    rows.push(...sampleRows('the audience counts', duringCounts, idle));

    if (RESULTS === 'only') return rows;
    // Export of every lead: one audience without conditions, every attribute.
    const all = await api('POST', '/api/segments', { name: 'Everyone', ignore_new_leads: false });
    ctx.log('exporting every lead to CSV');
    const baseline = process.memoryUsage.rss();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 50);
    const exportProbe = startSampler(url, sampled);
    probes.push(exportProbe);
    const started = performance.now();
    const job = await api('POST', `/api/segments/${all.id}/leads/csv`, { name: 'everyone' });
    let done: { type: string; rows: number } | undefined;
    while (!done) {
      const active = (await api('GET', '/api/exports/active')).data as Array<{
        id: number;
        type: string;
        rows: number;
      }>;
      const mine = active.find((e) => e.id === job.id);
      if (mine && mine.type !== 'export-pending') done = mine;
      else await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const served = await exportProbe.stop();
    if (done.type !== 'export-completed' || done.rows !== count) {
      throw new Error(`export ended ${done.type} with ${done.rows} rows`);
    }
    const mb = (b: number) => Math.round(b / 1024 / 1024);
    ctx.log(`export: ${seconds.toFixed(1)} s, RSS ${mb(baseline)} → peak ${mb(peak)} MB`);
    ctx.log(`during the export: ${describeSamples(served, idle)}`);
    rows.push(
      {
        metric: `CSV export of ${count.toLocaleString('en')} leads`,
        value: seconds,
        unit: 's',
        bar: { op: '<=', target: 20, of: 'value', source: 'issue 6' },
      },
      {
        metric: 'CSV export: RSS growth over the run',
        value: mb(peak - baseline),
        unit: 'MB',
        reference: { value: mb(baseline), label: 'RSS before (app + database)' },
        bar: { op: '<=', target: 256, of: 'value', source: 'issue 6' },
      },
      { metric: 'CSV export: peak RSS of the process', value: mb(peak), unit: 'MB' },
      ...sampleRows('the export', served, idle),
    );
    return rows;
  } finally {
    for (const p of probes) await p.stop();
    await herald.close();
  }
}
