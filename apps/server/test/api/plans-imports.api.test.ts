import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TSubscriptionsResponse } from '@herald/shared/plans/plans.schemas';
import { signupVerified } from '../support/accounts.ts';
import { attributeIds, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { catalogueWithTrial } from '../fixtures/plans/catalogue.ts';
import { csv } from '../fixtures/imports/hostile-files.ts';
import { startImport, upload, mapColumns, waitForImport } from '../fixtures/imports/import-client.ts';

/**
 * The plan's import limit, real (decision 015): imports claim their rows under the team's lock,
 * so two started together cannot both pass it; a completed import counts by its leads.
 */
describe.each(databases)('the plan’s import limit on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { HERALD_PLANS_FILE: catalogueWithTrial({ 'import-limit': 30 }) });
  });
  afterAll(() => t?.close());

  const phones = (count: number, from: number) =>
    Array.from({ length: count }, (_, i) => `+38050${String(from + i).padStart(7, '0')}`);
  const importUsage = async (token: string) => {
    const answer = (
      await t.request({ method: 'GET', url: '/api/subscriptions', token })
    ).json() as TSubscriptionsResponse;
    return answer.active_subscriptions[0].features.find((f) => f.slug === 'import-limit');
  };

  it('two imports started together: one completes, the other fails with import_limit_reached and keeps nothing', async () => {
    const owner = await signupVerified(t);
    const { phone } = await attributeIds(t, owner.token);
    const { list } = await sourceWithList(t, owner.token, 'Together');
    const [a, b] = await Promise.all([
      startImport(t, owner.token, list.id, 'a.csv', csv(['Phone', ...phones(20, 1_000_000)]), { Phone: phone }),
      startImport(t, owner.token, list.id, 'b.csv', csv(['Phone', ...phones(20, 2_000_000)]), { Phone: phone }),
    ]);
    const results = await Promise.all([waitForImport(t, owner.token, a.id), waitForImport(t, owner.token, b.id)]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual(['completed', 'failed']);
    const failed = results.find((r) => r.status === 'failed');
    expect(failed).toMatchObject({ error_code: 'import_limit_reached', leads_processed: 0 });
    const leads = await t.request({ method: 'GET', url: '/api/leads', token: owner.token });
    expect(leads.json().meta.total).toBe(20);
    expect(await importUsage(owner.token)).toMatchObject({ value: 30, feature_usage: 20, feature_remaining: 10 });
  });

  it('refuses to dispatch when nothing is left, and counts the test tab’s uses', async () => {
    const owner = await signupVerified(t);
    const { phone } = await attributeIds(t, owner.token);
    const { list } = await sourceWithList(t, owner.token, 'Full');
    for (let i = 0; i < 3; i++) {
      const res = await t.request({
        method: 'POST',
        url: '/api/subscriptions/test',
        token: owner.token,
        payload: { key: 'import-contacts' },
      });
      expect(res.statusCode).toBe(200);
    }
    expect(await importUsage(owner.token)).toMatchObject({
      feature_usage: 30,
      feature_remaining: 0,
      can_use_feature: false,
    });
    const up = await upload(t, owner.token, list.id, 'late.csv', csv(['Phone', ...phones(2, 3_000_000)]));
    const doc = up.json();
    await mapColumns(t, owner.token, doc, { Phone: phone });
    const refused = await t.request({ method: 'POST', url: `/api/imports/${doc.id}/dispatch`, token: owner.token });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'import_limit_reached' });
    expect((await t.request({ method: 'GET', url: `/api/imports/${doc.id}`, token: owner.token })).json().status).toBe(
      'uploaded',
    );
  });
});

/**
 * The lead limit holds imports too: each claim counts what the team holds plus what running
 * imports have claimed and not yet added, so no import (nor two together) takes it past the limit.
 */
describe.each(databases)('the plan’s lead limit against imports on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, {
      HERALD_PLANS_FILE: catalogueWithTrial({ 'lead-limit': 30, 'import-limit': 1000 }),
    });
  });
  afterAll(() => t?.close());

  const phones = (count: number, from: number) =>
    Array.from({ length: count }, (_, i) => `+38067${String(from + i).padStart(7, '0')}`);
  const leadTotal = async (token: string) =>
    (await t.request({ method: 'GET', url: '/api/leads', token })).json().meta.total as number;

  it('fails an import that would take the team past its lead limit, translated, and keeps nothing of it', async () => {
    const owner = await signupVerified(t);
    const { phone } = await attributeIds(t, owner.token);
    const { list } = await sourceWithList(t, owner.token, 'Filling');
    const first = await startImport(t, owner.token, list.id, 'first.csv', csv(['Phone', ...phones(20, 1_000_000)]), {
      Phone: phone,
    });
    expect((await waitForImport(t, owner.token, first.id)).status).toBe('completed');
    // 20 held, 30 allowed: dispatch passes (room for one more), the claim of 15 rows does not.
    const second = await startImport(t, owner.token, list.id, 'second.csv', csv(['Phone', ...phones(15, 2_000_000)]), {
      Phone: phone,
    });
    const failed = await waitForImport(t, owner.token, second.id);
    expect(failed).toMatchObject({ status: 'failed', error_code: 'import_lead_limit_reached', leads_processed: 0 });
    expect(await leadTotal(owner.token)).toBe(20);
    // Ten still fit.
    const third = await startImport(t, owner.token, list.id, 'third.csv', csv(['Phone', ...phones(10, 3_000_000)]), {
      Phone: phone,
    });
    expect((await waitForImport(t, owner.token, third.id)).status).toBe('completed');
    expect(await leadTotal(owner.token)).toBe(30);
  });

  it('two imports started together cannot both pass the lead limit', async () => {
    const owner = await signupVerified(t);
    const { phone } = await attributeIds(t, owner.token);
    const { list } = await sourceWithList(t, owner.token, 'Racing');
    const [a, b] = await Promise.all([
      startImport(t, owner.token, list.id, 'a.csv', csv(['Phone', ...phones(20, 4_000_000)]), { Phone: phone }),
      startImport(t, owner.token, list.id, 'b.csv', csv(['Phone', ...phones(20, 5_000_000)]), { Phone: phone }),
    ]);
    const results = await Promise.all([waitForImport(t, owner.token, a.id), waitForImport(t, owner.token, b.id)]);
    expect(results.map((r) => r.status).sort()).toEqual(['completed', 'failed']);
    expect(results.find((r) => r.status === 'failed')).toMatchObject({
      error_code: 'import_lead_limit_reached',
      leads_processed: 0,
    });
    expect(await leadTotal(owner.token)).toBe(20);
  });
});
