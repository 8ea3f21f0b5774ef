import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { catalogueWithTrial } from '../fixtures/plans/catalogue.ts';
import { addMember, signupVerified } from '../support/accounts.ts';
import { expectLedgerBalanced, topUpThroughSandbox } from '../support/billing.ts';
import { openEvents } from '../support/sse.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * What open tabs hear of money (decision 016): a balance is its user's own, the plan's free SMS
 * are the team's, so every member's header counts them down when any member spends them.
 */
describe.each(databases)('live balance and free SMS on %s', (kind) => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp(kind, {
      HERALD_PLANS_FILE: catalogueWithTrial({ 'free-sms-limit': 20, 'team-member-limit': 5 }),
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterEach(() => expectLedgerBalanced(t));
  afterAll(() => t?.close());

  it('free SMS spent by one member reach every tab of every member; a balance only its owner', async () => {
    const owner = await signupVerified(t);
    const admin = await addMember(t, owner.token, 'team_admin');
    const operator = await addMember(t, owner.token, 'team_operator');
    const ownerTabs = [openEvents(port, owner.token), openEvents(port, owner.token)];
    const adminTab = openEvents(port, admin.token);
    const operatorTab = openEvents(port, operator.token);
    const tabs = [...ownerTabs, adminTab, operatorTab];
    await Promise.all(tabs.map((tab) => tab.opened));

    // The admin spends 10 of the team's 20 free SMS (the test tab's "send 10 SMS").
    const sent = await t.request({
      method: 'POST',
      url: '/api/subscriptions/test',
      token: admin.token,
      payload: { key: 'send-sms' },
    });
    expect(sent.statusCode).toBe(200);
    for (const tab of tabs) {
      const heard = await tab.waitFor((m) => m.event === 'FreeSmsChanged');
      expect(JSON.parse(heard.data as string)).toEqual({ free_sms: { remaining: 10, total: 20 } });
    }
    // A reload shows the same figure for everyone.
    for (const who of [owner, operator]) {
      const me = await t.request({ method: 'GET', url: '/api/balance', token: who.token });
      expect(me.json().free_sms).toEqual({ remaining: 10, total: 20 });
    }

    // The owner's top-up is the owner's: the admin and the operator hear no balance of theirs.
    await topUpThroughSandbox(t, owner.token, '7.50');
    for (const tab of ownerTabs) {
      const heard = await tab.waitFor((m) => m.event === 'BalanceChanged');
      expect(JSON.parse(heard.data as string)).toMatchObject({ balance: 750 });
    }
    // The team's event of that top-up comes after its users' ones: once it is here, so would they be.
    const secondTeamEvent = (tab: (typeof tabs)[number]) => () =>
      tab.messages.filter((m) => m.event === 'FreeSmsChanged').length >= 2;
    for (const tab of [adminTab, operatorTab]) await tab.waitFor(secondTeamEvent(tab));
    const balances = (tab: (typeof tabs)[number]) =>
      tab.messages.filter((m) => m.event === 'BalanceChanged').map((m) => JSON.parse(m.data as string).balance);
    expect(balances(operatorTab)).toEqual([]);
    expect(balances(adminTab).every((b: number) => b === 0)).toBe(true);
    for (const tab of tabs) tab.close();
  });
});
