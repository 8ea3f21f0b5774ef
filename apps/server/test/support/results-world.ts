import { sql } from 'kysely';
import { expect } from 'vitest';
import type { campaignFixtures } from './campaigns.ts';

export type Filter = { id: string; operator: string; values: string[] };

/**
 * A team whose campaigns' rows are written as the engine and the redirects leave them (decision
 * 039's tests): one lead per SMS status, clicks at known moments, so each expectation names its leads.
 */
export function resultsWorld({ db, call, team }: ReturnType<typeof campaignFixtures>) {
  let seq = 0;
  /** A campaign in this status, with these leads as recipients (the last `skipped` skipped at the start). */
  async function campaignOf(token: string, teamId: number, status: string, leads: number[], skipped: number[] = []) {
    const c = (await call(token, 'POST', '/campaigns', {})).json();
    await db()
      .updateTable('campaigns')
      .set({ status: status as never })
      .where('id', '=', c.id)
      .execute();
    if (leads.length + skipped.length === 0) return Number(c.id);
    await db()
      .insertInto('campaign_recipients')
      .values([
        ...leads.map((lead_id) => ({ campaign_id: c.id, team_id: teamId, lead_id, phone: `+3805${lead_id}` })),
        ...skipped.map((lead_id) => ({
          campaign_id: c.id,
          team_id: teamId,
          lead_id,
          skip_reason: 'blacklisted' as const,
        })),
      ])
      .execute();
    return Number(c.id);
  }
  /** A campaign message of the lead, in the state and status the engine leaves it. */
  async function message(
    teamId: number,
    campaignId: number,
    leadId: number,
    row: { state: string; status?: string | null; error_code?: string | null; submitted_at?: string },
  ) {
    const m = await db()
      .insertInto('messages')
      .values({
        team_id: teamId,
        lead_id: leadId,
        kind: 'campaign_step',
        campaign_id: campaignId,
        phone: `+3805${leadId}`,
        text: 'Sale {{link}}',
        parts: 1,
        encoding: 'GSM-7',
        charge_key: `results-${process.pid}-${seq++}`,
        state: row.state as never,
        status: (row.status ?? null) as never,
        error_code: row.error_code ?? null,
        submitted_at: row.state === 'submitted' ? sql<Date>`now()` : null,
        // Out of the engine's reach while the test reads it: not due, and a claim that holds.
        not_before: sql<Date>`now() + interval '1 day'`,
        lease_until: row.state === 'claimed' ? sql<Date>`now() + interval '1 day'` : null,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(m.id);
  }
  /** A link of that message; `clickedAgo` in seconds for a human click, `bot` for a preview's hit only. */
  async function link(
    teamId: number,
    leadId: number,
    messageId: number,
    l: { kind?: 'link' | 'unsubscribe'; clickedAgo?: number; bot?: boolean; unsubscribed?: boolean },
  ) {
    await db()
      .insertInto('short_links')
      .values({
        team_id: teamId,
        lead_id: leadId,
        message_id: messageId,
        kind: l.kind ?? 'link',
        redirect_to: (l.kind ?? 'link') === 'link' ? 'https://shop.test/' : null,
        host: 'go.test',
        code: `r${process.pid}x${seq++}`,
        human_clicks: l.clickedAgo === undefined ? 0 : 1,
        other_hits: l.bot ? 3 : 0,
        first_clicked_at: l.clickedAgo === undefined ? null : sql<Date>`now() - make_interval(secs => ${l.clickedAgo})`,
        unsubscribed_at: l.unsubscribed ? sql<Date>`now()` : null,
      } as never)
      .execute();
  }

  /**
   * Ten leads L0..L9; campaign C1 (completed) sent each of L0..L8 one message, one per SMS status,
   * and skipped L9 at the start; campaign C2 (paused) failed to L0. Clicks: L0 an hour ago, L1 24 h
   * and 1 s ago, L2 23 h 59 min ago, L6 40 days ago; L3's link only a bot opened; L4 unsubscribed;
   * L5 opened its unsubscribe link without unsubscribing.
   */
  async function world() {
    const { owner } = await team(10);
    const teamId = owner.user.team_id;
    const leads = (
      await db().selectFrom('leads').select('id').where('team_id', '=', teamId).orderBy('id').execute()
    ).map((r) => Number(r.id));
    const L = leads;
    const c1 = await campaignOf(owner.token, teamId, 'completed', L.slice(0, 9), [L[9]]);
    const c2 = await campaignOf(owner.token, teamId, 'paused', [L[0]]);
    const m = [
      await message(teamId, c1, L[0], { state: 'submitted', status: 'delivered' }),
      await message(teamId, c1, L[1], { state: 'submitted', status: null }),
      await message(teamId, c1, L[2], { state: 'submitted', status: 'sent' }),
      await message(teamId, c1, L[3], { state: 'pending' }),
      await message(teamId, c1, L[4], { state: 'claimed' }),
      await message(teamId, c1, L[5], { state: 'submitted', status: 'blocked_by_carrier' }),
      await message(teamId, c1, L[6], { state: 'failed', error_code: 'gateway_refused' }),
      await message(teamId, c1, L[7], { state: 'submitted', status: 'undelivered' }),
      await message(teamId, c1, L[8], { state: 'submitted', status: 'inactive_device' }),
    ];
    // L9: a skipped row (opted out when due) has no SMS status.
    await message(teamId, c1, L[9], { state: 'failed', error_code: 'skipped_opted_out' });
    const c2m = await message(teamId, c2, L[0], { state: 'failed', error_code: 'gateway_refused' });
    await link(teamId, L[0], m[0], { clickedAgo: 3_600 });
    await link(teamId, L[1], m[1], { clickedAgo: 24 * 3_600 + 1 });
    await link(teamId, L[2], m[2], { clickedAgo: 24 * 3_600 - 60 });
    await link(teamId, L[3], m[3], { bot: true });
    await link(teamId, L[4], m[4], { kind: 'unsubscribe', clickedAgo: 30, unsubscribed: true });
    await link(teamId, L[5], m[5], { kind: 'unsubscribe', clickedAgo: 30 });
    await link(teamId, L[6], m[6], { clickedAgo: 40 * 86_400 });
    return { owner, teamId, L, c1, c2, m, c2m };
  }

  /** The leads an audience with these filters holds, by their index in L; the count agrees with the page. */
  async function matching(token: string, L: number[], filters: Filter[]) {
    const made = await call(token, 'POST', '/segments', { name: `F ${seq++}`, filters });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().id;
    const page = (await call(token, 'GET', `/segments/${id}/leads?limit=100`)).json();
    const count = (await call(token, 'GET', `/segments/${id}/leads-count`)).json();
    expect(count.leads_count).toBe(page.meta.total);
    expect(page.meta.total).toBe(page.data.length);
    return page.data.map((l: { id: number }) => L.indexOf(l.id)).sort((a: number, b: number) => a - b);
  }
  const f = (id: string, operator: string, ...values: (string | number)[]) => ({
    id,
    operator,
    values: values.map(String),
  });
  return { campaignOf, message, link, world, matching, f };
}
