import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema.ts';
import { createPlansModule, loadPlanFiles, type PlansModule } from '../../src/modules/plans/index.ts';
import { signupVerified, uniqueEmail } from '../support/accounts.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { shippedCatalogue, writeTempJson } from '../fixtures/plans/catalogue.ts';

/**
 * Every create path a plan limits refuses past its limit with the code the web translates
 * (decision 015), and two creates at the last free place cannot both pass it. A small Trial
 * keeps the numbers short.
 */
describe.each(databases)('plan limits on %s', (kind) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let plans: PlansModule;
  let plansFile: string;
  beforeAll(async () => {
    const catalogue = shippedCatalogue();
    for (const plan of catalogue.plans) {
      if (plan.trial)
        plan.features = {
          ...plan.features,
          'source-limit': 1,
          'list-limit': 1,
          'audience-limit': 1,
          'attribute-limit': 1,
          'lead-limit': 2,
          'team-member-limit': 2,
          'manage-team': true,
        };
      // An installation's own catalogue may sell a plan for one person (the shipped one does not).
      if (plan.slug === 'starter-pack')
        plan.features = { ...plan.features, 'manage-team': false, 'team-member-limit': 1 };
    }
    plansFile = writeTempJson('plans.json', catalogue);
    t = await startTestApp(kind, { HERALD_PLANS_FILE: plansFile });
    db = t.app.services.database.db as Kysely<DB>;
    plans = await createPlansModule({ db, files: loadPlanFiles({ HERALD_PLANS_FILE: plansFile }) });
  });
  afterAll(() => t?.close());

  const post = (token: string, url: string, payload: object) => t.request({ method: 'POST', url, token, payload });
  const refusedWith = (res: { statusCode: number; json: () => unknown }, detail: string, limit?: number) => {
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: limit === undefined ? 'plan_feature_missing' : 'plan_limit_reached',
      detail: { code: detail, ...(limit === undefined ? {} : { params: { limit } }) },
    });
  };

  it('sources and lists: one each, the next refused', async () => {
    const owner = await signupVerified(t);
    const { source, list } = await sourceWithList(t, owner.token, 'First');
    expect(list.id).toBeGreaterThan(0);
    refusedWith(await post(owner.token, '/api/sources', { name: 'Second' }), 'plan_limit_sources', 1);
    refusedWith(await post(owner.token, `/api/sources/${source.id}/lists`, { name: 'Second' }), 'plan_limit_lists', 1);
    // A deleted one frees its place: usage is counted, not kept.
    expect(
      (await t.request({ method: 'DELETE', url: `/api/sources/${source.id}`, token: owner.token })).statusCode,
    ).toBe(200);
    expect((await post(owner.token, '/api/sources', { name: 'Again' })).statusCode).toBe(201);
  });

  it('audiences: one, the next and a clone refused', async () => {
    const owner = await signupVerified(t);
    const first = await post(owner.token, '/api/segments', { name: 'A', ignore_new_leads: false });
    expect(first.statusCode).toBe(201);
    refusedWith(
      await post(owner.token, '/api/segments', { name: 'B', ignore_new_leads: false }),
      'plan_limit_audiences',
      1,
    );
    refusedWith(await post(owner.token, `/api/segments/${first.json().id}/clone`, {}), 'plan_limit_audiences', 1);
  });

  it('attributes: the team’s own ones count, system ones do not; two at once with one place left are refused', async () => {
    const owner = await signupVerified(t);
    refusedWith(
      await post(owner.token, '/api/lead-attributes', [
        { name: 'City', sort_order: 3 },
        { name: 'Age', sort_order: 4 },
      ]),
      'plan_limit_attributes',
      1,
    );
    expect((await post(owner.token, '/api/lead-attributes', [{ name: 'City', sort_order: 3 }])).statusCode).toBe(201);
    refusedWith(
      await post(owner.token, '/api/lead-attributes', [{ name: 'Age', sort_order: 4 }]),
      'plan_limit_attributes',
      1,
    );
  });

  it('leads: two, the third refused and not stored', async () => {
    const owner = await signupVerified(t);
    const { source, list } = await sourceWithList(t, owner.token, 'Leads');
    const { phone } = await attributeIds(t, owner.token);
    for (const n of ['+380501110001', '+380501110002']) {
      expect((await createLead(t, owner.token, source.id, list.id, [[phone, n]])).statusCode).toBe(201);
    }
    refusedWith(
      await createLead(t, owner.token, source.id, list.id, [[phone, '+380501110003']]),
      'plan_limit_leads',
      2,
    );
    const leads = await t.request({ method: 'GET', url: '/api/leads', token: owner.token });
    expect(leads.json().meta.total).toBe(2);
  });

  it('invitations: the team size counts open invitations; a plan without team management refuses them', async () => {
    const owner = await signupVerified(t);
    expect(
      (await post(owner.token, '/api/invitations', { email: uniqueEmail('a'), role: 'team_admin' })).statusCode,
    ).toBe(201);
    refusedWith(
      await post(owner.token, '/api/invitations', { email: uniqueEmail('b'), role: 'team_operator' }),
      'plan_limit_team_members',
      2,
    );
    // This catalogue's Starter Pack: one person, no team management.
    await db
      .transaction()
      .execute((tx) => plans.subscriptions.activate(tx, { teamId: owner.user.team_id, planId: 2, userId: null }));
    refusedWith(
      await post(owner.token, '/api/invitations', { email: uniqueEmail('c'), role: 'team_operator' }),
      'plan_feature_manage_team',
    );
  });

  it('two creates at the last free place: exactly one passes', async () => {
    const owner = await signupVerified(t);
    const sources = await Promise.all(['A', 'B', 'C'].map((name) => post(owner.token, '/api/sources', { name })));
    expect(sources.map((r) => r.statusCode).sort()).toEqual([201, 422, 422]);
    const source = sources.find((r) => r.statusCode === 201)?.json();

    const lists = await Promise.all(
      ['A', 'B'].map((name) => post(owner.token, `/api/sources/${source.id}/lists`, { name })),
    );
    expect(lists.map((r) => r.statusCode).sort()).toEqual([201, 422]);
    const list = lists.find((r) => r.statusCode === 201)?.json();

    const { phone } = await attributeIds(t, owner.token);
    expect((await createLead(t, owner.token, source.id, list.id, [[phone, '+380502220001']])).statusCode).toBe(201);
    const leads = await Promise.all(
      ['+380502220002', '+380502220003'].map((n) => createLead(t, owner.token, source.id, list.id, [[phone, n]])),
    );
    expect(leads.map((r) => r.statusCode).sort()).toEqual([201, 422]);

    const audiences = await Promise.all(
      ['A', 'B'].map((name) => post(owner.token, '/api/segments', { name, ignore_new_leads: false })),
    );
    expect(audiences.map((r) => r.statusCode).sort()).toEqual([201, 422]);

    const invitations = await Promise.all(
      ['x', 'y'].map((p) => post(owner.token, '/api/invitations', { email: uniqueEmail(p), role: 'team_operator' })),
    );
    expect(invitations.map((r) => r.statusCode).sort()).toEqual([201, 422]);
  });
});
