import { type Kysely, sql } from 'kysely';
import type { DB } from '../../apps/server/src/db/schema.ts';

export interface CampaignResultsOptions {
  teamId: number;
  campaignId: number;
  stepId: number;
  gatewayId: number;
  /** VACUUM ANALYZE the tables written (PostgreSQL: the state autovacuum leaves them in), else ANALYZE. */
  vacuum?: boolean;
}

export interface CampaignResultsSeeded {
  recipients: number;
  messages: number;
  clicked: number;
  seconds: { recipients: number; messages: number; links: number; clicks: number; maintain: number };
}

/**
 * A finished one-step campaign over every seeded lead, written set-based as the product writes its
 * rows, so the summary's statement triggers (migration 0037) see each statement as they would:
 * - recipients: one per phone, leads sharing a phone skipped as `duplicate_phone` (the start's rule);
 * - a message per recipient, its outcome by the lead id (deterministic, so runs compare): 85 %
 *   delivered, 5 % failed (3 carrier `undelivered`, 2 refused by the gateway), 3 % blocked by the
 *   carrier, 4 % sent without a final report, 3 % still queued (set aside: due never);
 * - one link per message, then the human clicks as the click batch writes them (`countHits`' update:
 *   `human_clicks`, `first_clicked_at` kept from the first) on one delivered message in ten, about 8 %
 *   of the leads, spread evenly over the last 90 days.
 */
export async function seedCampaignResults(db: Kysely<DB>, o: CampaignResultsOptions): Promise<CampaignResultsSeeded> {
  const timed = async (fn: () => Promise<unknown>) => {
    const started = performance.now();
    await fn();
    return (performance.now() - started) / 1000;
  };
  const recipients = await timed(() =>
    sql`insert into campaign_recipients (campaign_id, team_id, lead_id, phone, skip_reason)
      select ${o.campaignId}, ${o.teamId}, lead_id, value, case when n = 1 then null else 'duplicate_phone' end
      from (select lead_id, value, row_number() over (partition by value order by lead_id) as n
        from (select distinct on (lead_id) lead_id, value from lead_values
          where team_id = ${o.teamId} and type = 'phone' order by lead_id, id) v) r`.execute(db),
  );
  // k is the lead's place in a hundred: the outcome's share. Sent 90 days ago, reports a minute later.
  const messages = await timed(() =>
    sql`insert into messages (team_id, lead_id, kind, campaign_id, campaign_step_id, phone, gateway_id, text, parts,
        encoding, price, charge_key, state, status, error_code, provider_message_id, called_at, submitted_at, status_at,
        not_before)
      select ${o.teamId}, lead_id, 'campaign_step', ${o.campaignId}, ${o.stepId}, phone, ${o.gatewayId}, 'Sale today',
        1, 'GSM-7', 1, 'results-' || lead_id,
        case when k < 85 then 'submitted' when k < 88 then 'submitted' when k < 90 then 'failed'
          when k < 97 then 'submitted' else 'pending' end,
        case when k < 85 then 'delivered' when k < 88 then 'undelivered' when k < 90 then null
          when k < 93 then 'blocked_by_carrier' when k < 97 then 'sent' else null end,
        case when k >= 85 and k < 88 then '30003' when k >= 88 and k < 90 then '21610' else null end,
        case when k < 88 or (k >= 90 and k < 97) then 'SR' || lead_id end,
        case when k < 97 then sent end, case when k < 88 or (k >= 90 and k < 97) then sent end,
        case when k < 88 or (k >= 90 and k < 93) then sent + interval '1 minute' end,
        case when k < 97 then sent else 'infinity' end
      from (select lead_id, phone, lead_id % 100 as k, now() - interval '90 days' as sent from campaign_recipients
        where campaign_id = ${o.campaignId} and skip_reason is null) r`.execute(db),
  );
  const links = await timed(() =>
    sql`insert into short_links (team_id, lead_id, message_id, kind, host, code, redirect_to, phone, created_at)
      select team_id, lead_id, id, 'link', 'go.bench.example', 'r' || id, 'https://shop.example/sale', phone, called_at
      from messages where campaign_id = ${o.campaignId} and called_at is not null`.execute(db),
  );
  // The click batch's own statement shape, in slices (as clicks arrive: never one statement of all).
  const clickers = await sql<{ lo: string | null; hi: string | null }>`
    select min(id) as lo, max(id) as hi from short_links s where s.message_id in
      (select id from messages where campaign_id = ${o.campaignId})`.execute(db);
  const lo = Number(clickers.rows[0]?.lo ?? 0);
  const hi = Number(clickers.rows[0]?.hi ?? -1);
  const clicks = await timed(async () => {
    for (let from = lo; from <= hi; from += 100_000) {
      await sql`update short_links l set human_clicks = l.human_clicks + 1,
          first_clicked_at = coalesce(l.first_clicked_at,
            now() - ((l.lead_id * 7919) % (90 * 86400)) * interval '1 second')
        from messages m
        where l.id between ${from} and ${from + 99_999} and m.id = l.message_id and m.status = 'delivered'
          and (m.lead_id / 100) % 10 = 0`.execute(db);
    }
  });
  await sql`update campaign_steps set status = 'sent', started_at = now() - interval '90 days',
    recipients_count = (select count(*) from messages where campaign_step_id = ${o.stepId}) where id = ${o.stepId}`.execute(
    db,
  );
  // Completed: the engine leaves it alone; its results are what the filters read.
  await sql`update campaigns set status = 'completed', started_at = now() - interval '90 days',
    completed_at = now() - interval '89 days', gateway_id = ${o.gatewayId} where id = ${o.campaignId}`.execute(db);
  const maintain = await timed(async () => {
    const how = sql.raw(o.vacuum ? 'vacuum analyze' : 'analyze');
    for (const t of ['campaign_recipients', 'messages', 'short_links']) await sql`${how} ${sql.raw(t)}`.execute(db);
  });
  const n = await sql<{ recipients: string; messages: string; clicked: string }>`select
    (select count(*) from campaign_recipients where campaign_id = ${o.campaignId}) as recipients,
    (select count(*) from messages where campaign_id = ${o.campaignId}) as messages,
    (select count(*) from short_links s join messages m on m.id = s.message_id
      where m.campaign_id = ${o.campaignId} and s.first_clicked_at is not null) as clicked`.execute(db);
  const row = n.rows[0];
  // The summary the triggers kept must be the rows' own count, or the rows were not written as the product writes them.
  const kept = await sql<{ n: string | null; clicked: string | null }>`select sum(n) as n, sum(clicked) as clicked
    from campaign_statistics where campaign_id = ${o.campaignId}`.execute(db);
  if (Number(kept.rows[0]?.n) !== Number(row.messages) || Number(kept.rows[0]?.clicked) !== Number(row.clicked)) {
    throw new Error(`campaign statistics ${JSON.stringify(kept.rows[0])} ≠ rows ${JSON.stringify(row)}`);
  }
  return {
    recipients: Number(row.recipients),
    messages: Number(row.messages),
    clicked: Number(row.clicked),
    seconds: { recipients, messages, links, clicks, maintain },
  };
}

/** An audience as the benchmark makes it: condition lists level by level, and the same question by hand. */
export interface ResultsAudience {
  label: string;
  levels: Array<Array<{ id: string | number; operator: string; values?: Array<string | number> }>>;
  where: ReturnType<typeof sql>;
}

/**
 * The two audiences of issue 35's bar over the seeded campaign, each beside hand-written SQL that
 * reads the plain columns (state, status, first_clicked_at), not the app's expressions.
 */
export function resultsAudiences(teamId: number, campaignId: number): ResultsAudience[] {
  return [
    {
      label: 'SMS status delivered in a campaign',
      levels: [
        [
          { id: 'sms_status', operator: 'eq', values: ['delivered'] },
          { id: 'campaigns', operator: 'eq', values: [campaignId] },
        ],
      ],
      where: sql`exists (select 1 from campaign_recipients r where r.campaign_id = ${campaignId} and r.lead_id = l.id
          and r.skip_reason is null)
        and exists (select 1 from messages m where m.campaign_id = ${campaignId} and m.lead_id = l.id
          and m.kind = 'campaign_step' and m.state = 'submitted' and m.status = 'delivered')`,
    },
    {
      label: 'engaged in the last 30 days',
      levels: [
        [
          { id: 'engagement', operator: 'eq', values: ['engaged'] },
          { id: 'engagement_period', operator: 'eq', values: ['last_30_days'] },
        ],
      ],
      where: sql`exists (select 1 from short_links s where s.team_id = ${teamId} and s.lead_id = l.id and s.kind = 'link'
          and s.first_clicked_at >= now() - interval '30 days')`,
    },
  ];
}
