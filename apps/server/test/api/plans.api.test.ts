import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TActiveSubscription, TSubscriptionsResponse } from '@herald/shared/plans/plans.schemas';
import type { DB } from '../../src/db/schema.ts';
import { createPlansModule, loadPlanFiles, type PlansModule } from '../../src/modules/plans/index.ts';
import { addMember, signupVerified } from '../support/accounts.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

const DAY = 24 * 3600_000;

/**
 * Plans and subscriptions with the shipped catalogue (decision 015): the Trial a new owner gets,
 * what `GET /api/subscriptions` and `GET /api/user` show, who may see them, the test tab, and the
 * primitives the billing module calls.
 */
describe.each(databases)('plans and subscriptions on %s', (kind) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let plans: PlansModule;
  beforeAll(async () => {
    t = await startTestApp(kind, { HERALD_PLANS_FILE: '' });
    db = t.app.services.database.db as Kysely<DB>;
    // A second handle on the same tables, as the billing module is handed the plans module.
    plans = await createPlansModule({ db, files: loadPlanFiles({}) });
  });
  afterAll(() => t?.close());

  const overview = async (token: string) => {
    const res = await t.request({ method: 'GET', url: '/api/subscriptions', token });
    expect(res.statusCode).toBe(200);
    return res.json() as TSubscriptionsResponse;
  };
  const feature = (s: TActiveSubscription, slug: string) => s.features.find((f) => f.slug === slug);

  it('gives a new team owner the 14-day Trial, shown on the user and in the subscriptions', async () => {
    const owner = await signupVerified(t);
    const answer = await overview(owner.token);
    expect(answer.available_plans.map((p) => p.slug)).toEqual([
      'starter-pack',
      'basic',
      'professional',
      'pro',
      'enterprise',
    ]);
    const enterprise = answer.available_plans.find((p) => p.slug === 'enterprise');
    expect(enterprise).toMatchObject({ price: null, contact_us: true });
    expect(answer.available_plans.find((p) => p.slug === 'basic')).toMatchObject({
      price: 79_900,
      currency: 'UAH',
      contact_us: false,
      name: { uk: 'Базовий', en: 'Basic', ru: 'Базовый' },
    });

    expect(answer.active_subscriptions).toHaveLength(1);
    const trial = answer.active_subscriptions[0];
    expect(trial).toMatchObject({ slug: 'trial', trial: true, name: { en: 'Trial' } });
    const length = Date.parse(trial.ends_at) - Date.parse(trial.period_starts_at);
    expect(length).toBe(14 * DAY);
    expect(feature(trial, 'manage-team')).toEqual({
      slug: 'manage-team',
      value: true,
      feature_usage: null,
      feature_remaining: null,
      can_use_feature: true,
    });
    // The owner is the team's one member so far; the Trial allows two.
    expect(feature(trial, 'team-member-limit')).toMatchObject({ value: 2, feature_usage: 1, feature_remaining: 1 });
    expect(feature(trial, 'import-limit')).toMatchObject({ value: 1000, feature_usage: 0, can_use_feature: true });
    expect(feature(trial, 'history-days')).toMatchObject({ value: 14, feature_usage: null });

    const user = (await t.request({ method: 'GET', url: '/api/user', token: owner.token })).json();
    expect(user.subscriptions).toHaveLength(1);
    expect(user.subscriptions[0]).toMatchObject({ id: trial.id, slug: 'trial' });

    expect(answer.prices.map((p) => p.currency)).toEqual(['UAH', 'USD', 'EUR']);
    expect(answer.prices[0]).toMatchObject({ sms_part: { default: 800, countries: { UA: 50 } }, lookup: 40 });
  });

  it('counts usage from the data: a created source shows at once', async () => {
    const owner = await signupVerified(t);
    const before = (await overview(owner.token)).active_subscriptions[0];
    expect(feature(before, 'source-limit')).toMatchObject({ value: 3, feature_usage: 0, feature_remaining: 3 });
    await t.request({ method: 'POST', url: '/api/sources', token: owner.token, payload: { name: 'One' } });
    const after = (await overview(owner.token)).active_subscriptions[0];
    expect(feature(after, 'source-limit')).toMatchObject({ feature_usage: 1, feature_remaining: 2 });
  });

  it('lets admins see the plans, and refuses operators', async () => {
    const owner = await signupVerified(t);
    // The Trial's team is two; Basic's is three.
    await db
      .transaction()
      .execute((tx) => plans.subscriptions.activate(tx, { teamId: owner.user.team_id, planId: 3, userId: null }));
    const admin = await addMember(t, owner.token, 'team_admin');
    const operator = await addMember(t, owner.token, 'team_operator');
    expect((await overview(admin.token)).active_subscriptions[0].slug).toBe('basic');
    for (const [method, url, payload] of [
      ['GET', '/api/subscriptions', undefined],
      ['POST', '/api/subscriptions/test', { key: 'import-contacts' }],
    ] as const) {
      const res = await t.request({ method, url, token: operator.token, payload });
      expect(res.statusCode).toBe(403);
    }
    // Operators still learn from their user whether the team has a plan (the disabled actions).
    const user = (await t.request({ method: 'GET', url: '/api/user', token: operator.token })).json();
    expect(user.subscriptions[0].slug).toBe('basic');
  });

  it('test tab: import 10 contacts counts 10 against the import limit; send 10 SMS spends 10 free SMS', async () => {
    const owner = await signupVerified(t);
    const res = await t.request({
      method: 'POST',
      url: '/api/subscriptions/test',
      token: owner.token,
      payload: { key: 'import-contacts' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 'plan_test_imported' });
    const trial = (await overview(owner.token)).active_subscriptions[0];
    expect(feature(trial, 'import-limit')).toMatchObject({ feature_usage: 10, feature_remaining: 990 });

    const sms = await t.request({
      method: 'POST',
      url: '/api/subscriptions/test',
      token: owner.token,
      payload: { key: 'send-sms' },
    });
    // Billing spends the plan's free SMS (decision 016): the test tab uses 10 of them.
    expect(sms.statusCode).toBe(200);
    expect(sms.json()).toMatchObject({ code: 'sms_test_sent' });
    const after = (await overview(owner.token)).active_subscriptions[0];
    expect(feature(after, 'free-sms-limit')).toMatchObject({ feature_usage: 10 });
    const bad = await t.request({
      method: 'POST',
      url: '/api/subscriptions/test',
      token: owner.token,
      payload: { key: 'delete-everything' },
    });
    expect(bad.statusCode).toBe(422);
  });

  it('test tab: import 10 contacts is refused when fewer than 10 are left', async () => {
    const owner = await signupVerified(t);
    // 99 imports of 10 leave 10; the 100th fits exactly; the 101st does not.
    await sql`insert into plan_feature_uses (team_id, feature, amount) values (${owner.user.team_id}, 'import-limit', 990)`.execute(
      db,
    );
    const call = () =>
      t.request({
        method: 'POST',
        url: '/api/subscriptions/test',
        token: owner.token,
        payload: { key: 'import-contacts' },
      });
    expect((await call()).statusCode).toBe(200);
    const refused = await call();
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'plan_limit_reached',
      detail: { code: 'plan_limit_import', params: { limit: 1000 } },
    });
  });

  it('a team whose subscription ended has none: creation is refused until a plan is activated', async () => {
    const owner = await signupVerified(t);
    const teamId = owner.user.team_id;
    const current = (await overview(owner.token)).active_subscriptions[0];
    // The renewal job's view once the period is over.
    await sql`update subscriptions set period_starts_at = now() - interval '20 days', ends_at = now() - interval '1 minute' where id = ${current.id}`.execute(
      db,
    );
    expect((await overview(owner.token)).active_subscriptions).toEqual([]);
    const due = await plans.subscriptions.dueForRenewal(db, new Date());
    expect(due.find((d) => d.id === current.id)).toMatchObject({ teamId, renewable: false, price: 0 });
    expect(await db.transaction().execute((tx) => plans.subscriptions.end(tx, current.id))).toBe(true);
    expect((await plans.subscriptions.dueForRenewal(db, new Date())).some((d) => d.id === current.id)).toBe(false);

    const refused = await t.request({
      method: 'POST',
      url: '/api/sources',
      token: owner.token,
      payload: { name: 'X' },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'subscription_required' });
    const user = (await t.request({ method: 'GET', url: '/api/user', token: owner.token })).json();
    expect(user.subscriptions).toEqual([]);

    // Billing's purchase: the plan applied in its own transaction.
    const basic = await db
      .transaction()
      .execute((tx) => plans.subscriptions.activate(tx, { teamId, planId: 3, userId: owner.user.id }));
    expect(basic).toMatchObject({ slug: 'basic', trial: false });
    const created = await t.request({
      method: 'POST',
      url: '/api/sources',
      token: owner.token,
      payload: { name: 'X' },
    });
    expect(created.statusCode).toBe(201);
  });

  it('activate replaces the current subscription; renew starts the next period; a rolled-back purchase changes nothing', async () => {
    const owner = await signupVerified(t);
    const teamId = owner.user.team_id;
    const trialId = (await overview(owner.token)).active_subscriptions[0].id;

    // A payment that fails after the plan was applied takes the plan back with it.
    await expect(
      db.transaction().execute(async (tx) => {
        await plans.subscriptions.activate(tx, { teamId, planId: 4, userId: owner.user.id });
        throw new Error('charge failed');
      }),
    ).rejects.toThrow('charge failed');
    expect((await overview(owner.token)).active_subscriptions[0].id).toBe(trialId);

    // Two purchases at once: both apply, one after the other, and one subscription stays current.
    await Promise.all([
      db.transaction().execute((tx) => plans.subscriptions.activate(tx, { teamId, planId: 4, userId: owner.user.id })),
      db.transaction().execute((tx) => plans.subscriptions.activate(tx, { teamId, planId: 4, userId: owner.user.id })),
    ]);
    const rows = await db
      .selectFrom('subscriptions')
      .select(['id', 'ended_at', 'end_reason'])
      .where('team_id', '=', teamId)
      .orderBy('id')
      .execute();
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({ id: trialId, end_reason: 'replaced' });
    expect(rows[0].ended_at).not.toBeNull();
    expect(rows.filter((r) => r.ended_at === null)).toHaveLength(1);
    const proId = rows.find((r) => r.ended_at === null)?.id as number;
    expect((await overview(owner.token)).active_subscriptions[0]).toMatchObject({ id: proId, slug: 'professional' });

    // Due: the renewal starts the next period where the last one ended.
    await sql`update subscriptions set period_starts_at = now() - interval '1 month', ends_at = now() - interval '1 hour' where id = ${proId}`.execute(
      db,
    );
    const due = (await plans.subscriptions.dueForRenewal(db, new Date())).find((d) => d.id === proId);
    expect(due).toMatchObject({ planId: 4, price: 199_900, currency: 'UAH', renewable: true });
    const renewed = await db.transaction().execute((tx) => plans.subscriptions.renew(tx, proId));
    expect(renewed?.slug).toBe('professional');
    const periodStart = Date.parse(renewed?.period_starts_at as string);
    expect(Math.abs(periodStart - Date.now())).toBeLessThan(DAY);
    expect(Date.parse(renewed?.ends_at as string) - periodStart).toBeGreaterThanOrEqual(28 * DAY);
    expect((await plans.subscriptions.dueForRenewal(db, new Date())).some((d) => d.id === proId)).toBe(false);
  });

  it('gives the Trial at start to teams from before plans, once', async () => {
    const owner = await signupVerified(t);
    await sql`delete from subscriptions where team_id = ${owner.user.team_id}`.execute(db);
    expect((await overview(owner.token)).active_subscriptions).toEqual([]);
    // A start of another process of the installation (the migration of an existing install).
    await createPlansModule({ db, files: loadPlanFiles({}) });
    expect((await overview(owner.token)).active_subscriptions[0].slug).toBe('trial');
    await createPlansModule({ db, files: loadPlanFiles({}) });
    const count = await db
      .selectFrom('subscriptions')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('team_id', '=', owner.user.team_id)
      .executeTakeFirstOrThrow();
    expect(count.n).toBe(1);
  });
});
