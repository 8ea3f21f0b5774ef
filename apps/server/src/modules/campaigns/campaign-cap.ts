import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';

/**
 * How far ahead of its due time a queued row is held against the cap. The engine looks every tick
 * (500 ms); rows come due at most this long after a look, so each is looked at several times
 * before the dispatch may claim it. Rows made due in the engine's own transactions (a start, the
 * next step, a resume) are looked at before that transaction commits.
 */
export const CAP_LOOKAHEAD_MS = 5_000;

/**
 * The team's frequency cap across campaigns (decision 034): a queued message of this campaign
 * coming due is skipped (`failed`, `skipped_capped`, never charged) when its phone already got, in
 * the cap's window before it, as many campaign messages of the team as the cap allows: those
 * handed to the gateway or in flight, and those queued to go just before it. A recipient capped on
 * the first step becomes a `capped` recipient, so the preview's buckets still add up. One
 * statement; nothing when the team has no cap. Answers the rows it skipped.
 */
export async function capDue(tx: Kysely<DB>, campaignId: number, teamId: number): Promise<number> {
  const result = await sql<{ n: string }>`
    with cap as (select campaign_cap_messages as n, campaign_cap_hours * interval '1 hour' as win from teams
        where id = ${teamId} and campaign_cap_messages is not null),
      over as (
        select m.id from messages m, cap
        where m.campaign_id = ${campaignId} and m.state = 'pending'
          and m.not_before <= now() + ${CAP_LOOKAHEAD_MS}::int * interval '1 millisecond'
          and (select count(*) from messages o
               where o.team_id = ${teamId} and o.phone = m.phone and o.kind = 'campaign_step' and o.id <> m.id
                 and ((o.state in ('claimed', 'submitted', 'unknown')
                       and coalesce(o.called_at, now()) > greatest(m.not_before, now()) - cap.win)
                   or (o.state = 'pending' and o.not_before < 'infinity'
                       and (o.not_before < m.not_before or (o.not_before = m.not_before and o.id < m.id))
                       and o.not_before > greatest(m.not_before, now()) - cap.win))) >= cap.n),
      skipped as (
        update messages m set state = 'failed', error_code = 'skipped_capped', error_message = 'frequency cap',
          lease_until = null, updated_at = now()
        from over where m.id = over.id
        returning m.lead_id, m.campaign_step_id),
      first_step as (select id from campaign_steps where campaign_id = ${campaignId} and position = 1),
      recipients as (
        update campaign_recipients r set skip_reason = 'capped'
        from skipped s join first_step f on f.id = s.campaign_step_id
        where r.campaign_id = ${campaignId} and r.lead_id = s.lead_id and r.skip_reason is null
        returning r.lead_id)
    select count(*) as n from skipped`.execute(tx);
  return Number(result.rows[0]?.n ?? 0);
}
