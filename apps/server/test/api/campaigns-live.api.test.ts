import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { TProcess } from '@herald/shared/processes/processes.schemas';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../support/accounts.ts';
import { topUpThroughSandbox } from '../support/billing.ts';
import { campaignFixtures, paidSmsPlans } from '../support/campaigns.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { startFakeTwilio } from '../support/fake-providers/fake-twilio.ts';
import { openEvents, type SseMessage } from '../support/sse.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

/**
 * Campaigns live (decision 034): every status change is a `CampaignStatus` event to the members who
 * read campaigns, a started campaign is a process in its launcher's popover with its figures and
 * its pause, a balance pause tells the launcher by mail and in the popover, and the engine logs a
 * campaign that cannot move (with its id) and keeps moving the others.
 */
describe.each(databases)('campaigns live on %s', (kind) => {
  let t: TestApp;
  let port: number;
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
  const log: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      log.push(String(chunk));
      done();
    },
  });
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    t = await startTestApp(
      kind,
      { HERALD_PLANS_FILE: paidSmsPlans(), MESSAGE_CLAIM_LEASE_MS: '2000' },
      { logger: { level: 'error', stream: destination } },
    );
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  // Streams still open would hold the server's close: every tab is closed first, a failed test's too.
  const opened: Array<ReturnType<typeof openEvents>> = [];
  const openTab = (token: string) => {
    const tab = openEvents(port, token);
    opened.push(tab);
    return tab;
  };
  afterAll(async () => {
    for (const tab of opened) tab.close();
    await t?.close();
    await twilio?.close();
  });
  const { call, team, launch, campaign, db } = campaignFixtures(
    () => t,
    () => twilio,
  );
  const data = (m: SseMessage) => JSON.parse(m.data as string);
  const campaignEvent = (id: number, status: string) => (m: SseMessage) =>
    m.event === 'CampaignStatus' && data(m).id === id && data(m).status === status;
  const processOf = async (token: string, id: number) =>
    ((await call(token, 'GET', '/processes')).json().data as TProcess[]).find(
      (p) => p.kind === 'campaigns.run' && p.message?.params.campaign_id === id,
    );

  it('tells the owner and admins each move, and shows the launcher its process to the end', async () => {
    const { owner, list, phones } = await team(3);
    const admin = await addMember(t, owner.token, 'team_admin');
    const operator = await addMember(t, owner.token, 'team_operator');
    const tabs = [openTab(owner.token), openTab(admin.token)];
    const operatorTab = openTab(operator.token);
    await Promise.all([...tabs, operatorTab].map((tab) => tab.opened));

    const id = await launch(owner.token, list.id, [{ message: 'Live first' }, { message: 'Live second' }]);
    for (const tab of tabs) await tab.waitFor(campaignEvent(id, 'scheduled'));
    for (const tab of tabs) {
      const done = data(await tab.waitFor(campaignEvent(id, 'completed'), 30_000));
      expect(done).toMatchObject({ name: expect.any(String), recipients: 3, messages: 6, sent: 6, reason: null });
      expect(done.launched_by).toBe(owner.user.id);
      for (const status of ['processing', 'active']) expect(tab.messages.some(campaignEvent(id, status))).toBe(true);
    }
    for (const phone of phones) expect(twilio.sent(phone, 'Live second')).toBe(1);
    // Operators see no campaigns, so they hear of none.
    expect(operatorTab.messages.filter((m) => m.event === 'CampaignStatus')).toEqual([]);

    // The launcher's popover: the process ran with its figures and ended completed at 100 %.
    const heard = tabs[0]?.messages.filter((m) => m.event === 'ProcessStatus' && data(m).kind === 'campaigns.run');
    expect(heard?.some((m) => data(m).status === 'running')).toBe(true);
    const process = await processOf(owner.token, id);
    expect(process).toMatchObject({
      status: 'completed',
      progress: 100,
      message: { code: 'campaign_progress', params: { campaign_id: id, sent: 6, messages: 6 } },
    });
    expect(process?.title).toBe((await campaign(id)).name);
    // The admin did not launch it: no process of theirs.
    expect(await processOf(admin.token, id)).toBeUndefined();
    for (const tab of [...tabs, operatorTab]) tab.close();
  });

  it('pauses from the popover within a second and resumes where it stopped; the process follows', async () => {
    const { owner, list, phones } = await team(6);
    const tab = openTab(owner.token);
    await tab.opened;
    const id = await launch(owner.token, list.id, [{ message: 'Live pause' }], { frequency_per_minute: 120 });
    await waitUntil('the first sent', async () => phones.some((p) => twilio.sent(p, 'Live pause') === 1), 30_000);
    await tab.waitFor((m) => m.event === 'ProcessStatus' && data(m).message?.params?.campaign_id === id);
    expect((await call(owner.token, 'PUT', `/campaigns/${id}/status`, { status: 'paused' })).statusCode).toBe(200);
    await tab.waitFor(campaignEvent(id, 'paused'));
    const paused = await tab.waitFor(
      (m) => m.event === 'ProcessStatus' && data(m).message?.params?.campaign_id === id && data(m).status === 'paused',
    );
    expect(data(paused).message.code).toBe('campaign_paused');
    await new Promise((r) => setTimeout(r, 1_000));
    const atPause = phones.filter((p) => twilio.sent(p, 'Live pause') === 1).length;
    await new Promise((r) => setTimeout(r, 1_500));
    expect(phones.filter((p) => twilio.sent(p, 'Live pause') === 1).length).toBe(atPause);
    expect(atPause).toBeLessThan(phones.length);

    // Resume, as the popover's button does (paused → scheduled, decision 031).
    expect((await call(owner.token, 'PUT', `/campaigns/${id}/status`, { status: 'scheduled' })).statusCode).toBe(200);
    await tab.waitFor(campaignEvent(id, 'completed'), 30_000);
    for (const p of phones) expect(twilio.sent(p, 'Live pause')).toBe(1);
    expect(await processOf(owner.token, id)).toMatchObject({ status: 'completed', progress: 100 });
    tab.close();
  });

  it('ends the process of a paused campaign that is deleted, so it does not stay paused in the popover', async () => {
    const { owner, list, phones } = await team(4);
    const id = await launch(owner.token, list.id, [{ message: 'Live delete' }], { frequency_per_minute: 60 });
    await waitUntil('the first sent', async () => phones.some((p) => twilio.sent(p, 'Live delete') === 1), 30_000);
    expect((await call(owner.token, 'PUT', `/campaigns/${id}/status`, { status: 'paused' })).statusCode).toBe(200);
    await waitUntil('the process paused', async () => (await processOf(owner.token, id))?.status === 'paused');
    const removed = await t.request({ method: 'DELETE', url: `/api/campaigns/${id}`, token: owner.token });
    expect(removed.statusCode, removed.body).toBe(200);
    await waitUntil('the process cancelled', async () => (await processOf(owner.token, id))?.status === 'cancelled');
    // Clear takes it out, as any ended process.
    expect((await t.request({ method: 'DELETE', url: '/api/processes/finished', token: owner.token })).statusCode).toBe(
      200,
    );
    expect(await processOf(owner.token, id)).toBeUndefined();
  });

  it('a balance that runs out pauses the campaign, tells its launcher by mail and in the popover', async () => {
    const { owner, list } = await team(3, '');
    const tab = openTab(owner.token);
    await tab.opened;
    // Money for step 1 and one message of step 2: the balance runs out inside step 2.
    const id = await launch(
      owner.token,
      list.id,
      [{ message: 'Live pay' }, { message: 'Live pay 2' }],
      {},
      async (c) => {
        const preview = (await call(owner.token, 'GET', `/campaigns/${c}/preview`)).json();
        await topUpThroughSandbox(t, owner.token, ((preview.cost.price_per_part * 4) / 100).toFixed(2));
      },
    );
    const heard = data(await tab.waitFor(campaignEvent(id, 'paused'), 30_000));
    expect(heard.reason).toBe('campaign_policy_not_enough_balance');
    const types = (await db().selectFrom('campaign_logs').select('type').where('campaign_id', '=', id).execute()).map(
      (l) => l.type,
    );
    expect(types).toContain('campaign_policy_not_enough_balance');
    expect(await processOf(owner.token, id)).toMatchObject({
      status: 'paused',
      message: { code: 'campaign_policy_not_enough_balance', params: { campaign_id: id, sent: 4, messages: 6 } },
    });
    const name = (await campaign(id)).name;
    await waitUntil(
      'the launcher mailed',
      () => t.mails().some((m) => m.to.includes(owner.email) && m.subject.includes(name)),
      20_000,
    );
    const mail = t.lastMailTo(owner.email);
    expect(mail.subject).toContain('is paused');
    expect(mail.text).toContain('Top up the balance and press "Resume"');
    expect(mail.links).toContain(`http://herald.test/campaigns/${id}`);
    tab.close();
  });

  it('logs a campaign that cannot move with its id, and keeps moving the others', async () => {
    const { owner, list, phones } = await team(2);
    // A Japanese phone has no zone of its own in the quiet hours' list, so the campaign's zone is
    // asked for it, and that zone is one the database does not know: this start fails every tick.
    const other = await sourceWithList(t, owner.token, `Broken ${Math.random()}`);
    const ids = await attributeIds(t, owner.token);
    const lead = await createLead(t, owner.token, other.source.id, other.list.id, [
      [ids.phone as number, '+819012345678'],
    ]);
    expect(lead.statusCode, lead.body).toBe(201);
    const broken = await launch(owner.token, other.list.id, [{ message: 'Never goes' }], {}, async (c) => {
      await db().updateTable('campaigns').set({ quiet_hours: true }).where('id', '=', c).execute();
    });
    await sql`update campaigns set timezone = 'Mars/Olympus_Mons' where id = ${broken}`.execute(db());
    const fine = await launch(owner.token, list.id, [{ message: 'Still goes' }]);
    await waitUntil('the other campaign completed', async () => (await campaign(fine)).status === 'completed', 30_000);
    for (const p of phones) expect(twilio.sent(p, 'Still goes')).toBe(1);
    expect(twilio.sent('+819012345678', 'Never goes')).toBe(0);
    expect((await campaign(broken)).status).toBe('processing');
    await waitUntil('the failure logged', async () => log.some((line) => line.includes(`"campaignId":${broken}`)));
    const line = JSON.parse(log.find((l) => l.includes(`"campaignId":${broken}`)) as string);
    expect(line).toMatchObject({ level: 50, campaignId: broken, msg: expect.stringContaining('campaign engine') });
    expect(line.err.message).toMatch(/Mars\/Olympus_Mons/);
  });
});
