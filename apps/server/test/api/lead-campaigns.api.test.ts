import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { addMember, signupVerified } from '../support/accounts.ts';
import { attributeIds, createLead } from '../support/leads.ts';
import { databases } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';
import { campaignWorld } from '../support/campaigns.ts';

type Entry = {
  id: number;
  type: string;
  action: string;
  diff_log: Array<{ lead_attribute_value: string | null; value_from: string | null }>;
  message?: { from: string | null; gateway: string | null; parts: number; price: number };
  campaign?: { id: number; name: string; step: number };
};

/**
 * A lead's page shows its campaigns (chips) and the campaign messages it was sent in its Timeline
 * (decision 035): a campaign run to the end through the fake Twilio, read back per lead.
 */
describe.each(databases)("a lead's campaigns and campaign messages on %s", (kind) => {
  const world = campaignWorld(kind);
  const { db, call, team, launch, campaign } = world;
  const leadOf = async (teamId: number, phone: string) =>
    (
      await sql<{ lead_id: number }>`select lead_id from lead_values
        where team_id = ${teamId} and type = 'phone' and value = ${phone} order by lead_id`.execute(db())
    ).rows.map((r) => Number(r.lead_id));
  const timeline = async (token: string, leadId: number) =>
    (await call(token, 'GET', `/leads/${leadId}/log?limit=100`)).json() as { data: Entry[]; meta: { total: number } };

  it('names the campaigns that sent to the lead and shows each step it was sent, newest first, in its Timeline', async () => {
    const { owner, source, list, phones } = await team(1);
    // A second lead with the same phone: one person gets one message, so it is no recipient.
    const ids = await attributeIds(world.app(), owner.token);
    const twin = await createLead(world.app(), owner.token, source.id, list.id, [[ids.phone as number, phones[0]]]);
    expect(twin.statusCode).toBe(201);
    const [leadId, twinId] = await leadOf(owner.user.team_id, phones[0]);
    const id = await launch(owner.token, list.id, [{ message: 'Lead page first' }, { message: 'Lead page second' }]);
    await waitUntil('the campaign completed', async () => (await campaign(id)).status === 'completed', 30_000);
    const name = (await campaign(id)).name;

    const chips = await call(owner.token, 'GET', `/leads/${leadId}/campaigns`);
    expect(chips.statusCode).toBe(200);
    expect(chips.json()).toEqual({ data: [{ id, name, status: 'completed' }] });
    expect((await call(owner.token, 'GET', `/leads/${twinId}/campaigns`)).json()).toEqual({ data: [] });

    const log = await timeline(owner.token, leadId);
    const sent = log.data.filter((e) => e.type === 'campaign_message');
    expect(
      sent.map((e) => [e.action, e.campaign, e.diff_log[0].lead_attribute_value, e.diff_log[0].value_from]),
    ).toEqual([
      ['campaign_sms_sent', { id, name, step: 2 }, 'Lead page second', phones[0]],
      ['campaign_sms_sent', { id, name, step: 1 }, 'Lead page first', phones[0]],
    ]);
    expect(sent[0].message).toMatchObject({ gateway: 'Twilio', parts: 1 });
    expect(sent[0].message?.price).toBeGreaterThan(0);
    // Newer than the lead's creation, and counted in the total the pager reads.
    const created = log.data.findIndex((e) => e.action === 'created');
    expect(created).toBeGreaterThan(log.data.indexOf(sent[0]));
    expect(log.meta.total).toBe(log.data.length);
    expect((await timeline(owner.token, twinId)).data.some((e) => e.type === 'campaign_message')).toBe(false);
  });

  it("answers 404 for another team's lead and 403 to operators, who see no campaigns", async () => {
    const { owner, list, phones } = await team(1);
    const [leadId] = await leadOf(owner.user.team_id, phones[0]);
    const id = await launch(owner.token, list.id, [{ message: 'Isolated' }]);
    await waitUntil('the campaign completed', async () => (await campaign(id)).status === 'completed', 30_000);

    const stranger = await signupVerified(world.app());
    const theirs = await call(stranger.token, 'GET', `/leads/${leadId}/campaigns`);
    expect(theirs.statusCode).toBe(404);
    expect((await call(stranger.token, 'GET', `/leads/${leadId}/log`)).statusCode).toBe(404);
    const operator = await addMember(world.app(), owner.token, 'team_operator');
    expect((await call(operator.token, 'GET', `/leads/${leadId}/campaigns`)).statusCode).toBe(403);
    const admin = await addMember(world.app(), owner.token, 'team_admin');
    expect((await call(admin.token, 'GET', `/leads/${leadId}/campaigns`)).json().data).toHaveLength(1);
  });
});
