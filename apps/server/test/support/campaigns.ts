import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect } from 'vitest';
import { signupVerified } from './accounts.ts';
import { topUpThroughSandbox } from './billing.ts';
import { startFakeTwilio } from './fake-providers/fake-twilio.ts';
import { createGateway, twilioGatewayBody } from './gateways.ts';
import { attributeIds, createLead, sourceWithList } from './leads.ts';
import { startTestApp, type TestApp, UNLIMITED_TRIAL_PLANS } from './test-app.ts';

export /** The unlimited Trial without free SMS: every part is paid from the balance. */
function paidSmsPlans(): string {
  const catalogue = JSON.parse(readFileSync(UNLIMITED_TRIAL_PLANS, 'utf8'));
  catalogue.plans[0].features['free-sms-limit'] = 0;
  const file = join(tmpdir(), `herald-campaign-engine-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(catalogue));
  return file;
}

/**
 * A describe block's app (paid SMS plans, `env` beside) and fake Twilio, started before its tests
 * and closed after them, with `campaignFixtures` over the two.
 */
export function campaignWorld(kind: Parameters<typeof startTestApp>[0], env: Record<string, string> = {}) {
  let t: TestApp | undefined;
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>> | undefined;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    t = await startTestApp(kind, { HERALD_PLANS_FILE: paidSmsPlans(), ...env });
  });
  afterAll(async () => {
    await t?.close();
    await twilio?.close();
  });
  const app = () => t as TestApp;
  const fake = () => twilio as Awaited<ReturnType<typeof startFakeTwilio>>;
  return { app, twilio: fake, ...campaignFixtures(app, fake) };
}

/** Teams, leads and launched campaigns for the engine's tests, through the API. */
export function campaignFixtures(app: () => TestApp, twilio: () => Awaited<ReturnType<typeof startFakeTwilio>>) {
  const db = () => app().app.services.database.db;
  const call = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    app().request({
      method,
      url: `/api${url}`,
      token,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  let phoneSeq = 0;
  /** A team with a Twilio gateway, money, and a list of `n` leads (plus those given). */
  async function team(n: number, topUp = '50.00') {
    const owner = await signupVerified(app());
    const gateway = await createGateway(app(), owner.token, twilioGatewayBody(twilio()));
    if (topUp) await topUpThroughSandbox(app(), owner.token, topUp);
    const { source, list } = await sourceWithList(app(), owner.token, `S ${Math.random()}`);
    const ids = await attributeIds(app(), owner.token);
    const phones: string[] = [];
    for (let i = 0; i < n; i++) {
      const phone = `+38050${String(1_000_000 + process.pid * 100 + phoneSeq++).slice(-7)}`;
      const lead = await createLead(app(), owner.token, source.id, list.id, [[ids.phone as number, phone]]);
      if (lead.statusCode !== 201) throw new Error(lead.body);
      phones.push(phone);
    }
    return { owner, gateway, source, list, phones };
  }

  /** A campaign over the list with these steps, scheduled, its start moved into the past. */
  async function launch(
    token: string,
    listId: number,
    steps: Array<{ message: string; delay_minutes?: number; redirect_to?: string }>,
    values: Record<string, unknown> = {},
    beforeSchedule?: (id: number) => Promise<void>,
  ) {
    const c = (await call(token, 'POST', '/campaigns', {})).json();
    expect(
      (await call(token, 'POST', `/campaigns/${c.id}/audiences`, { kind: 'list', ref_ids: [listId] })).statusCode,
    ).toBe(200);
    for (const s of steps)
      expect(
        (await call(token, 'POST', `/campaigns/${c.id}/campaign-steps`, { delay_minutes: 0, ...s })).statusCode,
      ).toBe(201);
    await db()
      .updateTable('campaigns')
      .set({ quiet_hours: false, ...values })
      .where('id', '=', c.id)
      .execute();
    await beforeSchedule?.(Number(c.id));
    const scheduled = await call(token, 'PUT', `/campaigns/${c.id}/status`, { status: 'scheduled' });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    // The moment passed while no process ran: the next tick starts it all the same.
    await db()
      .updateTable('campaigns')
      .set({ start_at: sql`now() - interval '1 hour'` })
      .where('id', '=', c.id)
      .execute();
    return Number(c.id);
  }

  const campaign = (id: number) =>
    db().selectFrom('campaigns').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return { db, call, team, launch, campaign };
}
