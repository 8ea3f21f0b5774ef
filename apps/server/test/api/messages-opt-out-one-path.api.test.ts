import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildOptions } from '../../src/build-options.ts';
import { signupVerified } from '../support/accounts.ts';
import { startFakeTwilio } from '../support/fake-providers/fake-twilio.ts';
import { createTwilioGateway, deliver } from '../support/gateways.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

const BROWSER =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

type Make = Parameters<NonNullable<BuildOptions['onShortLinks']>>[0]['make'];

/**
 * A STOP reply and the unsubscribe page opt a phone out through one lead-store writer (decision 025):
 * the same rows change the same way, whichever the recipient used, for every lead of the team
 * holding the phone; a link made without a phone opts out every phone of its lead.
 */
describe.each(databases)('one way to opt out on %s', (kind) => {
  let t: TestApp;
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
  let owner: Awaited<ReturnType<typeof signupVerified>>;
  let gateway: Awaited<ReturnType<typeof createTwilioGateway>>;
  let make: Make;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    t = await startTestApp(
      kind,
      {},
      {
        onShortLinks: (s) => {
          make = s.make;
        },
      },
    );
    owner = await signupVerified(t);
    gateway = await createTwilioGateway(t, owner.token, twilio);
  });
  afterAll(async () => {
    await t?.close();
    await twilio?.close();
  });

  const db = () => t.app.services.database.db;
  async function lead(...phones: string[]) {
    const { source, list } = await sourceWithList(t, owner.token, `S ${phones.join()} ${Math.random()}`);
    const ids = await attributeIds(t, owner.token);
    const res = await createLead(
      t,
      owner.token,
      source.id,
      list.id,
      phones.map((p) => [ids.phone, p]),
    );
    return res.json().id as number;
  }
  /** What an opt-out leaves on the team's rows for these leads and phones. */
  async function state(leadIds: number[], phones: string[]) {
    const optOuts = await sql<{ phone: string; reason: string }>`
      select phone, reason from message_opt_outs where team_id = ${owner.user.team_id} and phone = any(${phones}::text[])
      order by phone`.execute(db());
    const values = await sql<{ lead_id: number; value: string; ban: boolean }>`
      select lead_id, value, ban from lead_values where team_id = ${owner.user.team_id} and type = 'phone'
        and lead_id = any(${leadIds}::bigint[]) order by lead_id, value`.execute(db());
    const leads = await sql<{ id: number; status: string }>`
      select id, status from leads where id = any(${leadIds}::bigint[]) order by id`.execute(db());
    const log = await sql<{ lead_id: number; action: string }>`
      select lead_id, action from lead_logs where lead_id = any(${leadIds}::bigint[])
        and action in ('sms_opt_out', 'unsubscribed', 'status_changed') order by lead_id, id`.execute(db());
    return {
      reasons: optOuts.rows.map((r) => r.reason),
      banned: values.rows.map((v) => v.ban),
      statuses: leads.rows.map((l) => l.status),
      log: log.rows.map((e) => e.action),
    };
  }
  async function unsubscribe(leadId: number, phone: string | null) {
    const made = await db()
      .transaction()
      .execute((tx) => make(tx, { teamId: owner.user.team_id, leadId, messageId: null, kind: 'unsubscribe', phone }));
    const [host, code] = made.text.split('/');
    await sql`update short_links set created_at = now() - interval '1 minute' where code = ${code}`.execute(db());
    const res = await t.request({ method: 'POST', url: `/${code}`, headers: { host, 'user-agent': BROWSER } });
    expect(res.statusCode).toBe(200);
  }

  it('STOP and the unsubscribe page leave the same rows, on every lead of the team holding the phone', async () => {
    const stopPhone = '+380671270001';
    const linkPhone = '+380671270002';
    const byStop = [await lead(stopPhone), await lead(stopPhone)];
    const byLink = [await lead(linkPhone), await lead(linkPhone)];
    const stop = twilio.inbound(gateway.webhook_urls.inbound as string, stopPhone, '+15005550006', 'STOP');
    expect((await deliver(t, stop)).statusCode).toBe(200);
    await unsubscribe(byLink[0], linkPhone);

    // The same rows, the same way; only the reason and the Timeline's word say which way it came.
    expect(await state(byStop, [stopPhone])).toEqual({
      reasons: ['inbound_stop'],
      banned: [true, true],
      statuses: ['blacklisted', 'blacklisted'],
      log: ['sms_opt_out', 'status_changed', 'sms_opt_out', 'status_changed'],
    });
    expect(await state(byLink, [linkPhone])).toEqual({
      reasons: ['unsubscribe_link'],
      banned: [true, true],
      statuses: ['blacklisted', 'blacklisted'],
      log: ['unsubscribed', 'status_changed', 'unsubscribed', 'status_changed'],
    });
  });

  it('a link made without a phone opts out every phone of its lead', async () => {
    const phones = ['+380671270003', '+380671270004'];
    const leadId = await lead(...phones);
    await unsubscribe(leadId, null);
    expect(await state([leadId], phones)).toEqual({
      reasons: ['unsubscribe_link', 'unsubscribe_link'],
      banned: [true, true],
      statuses: ['blacklisted'],
      log: ['unsubscribed', 'unsubscribed', 'status_changed'],
    });
  });
});
