import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createPlansModule, loadPlanFiles } from '../../src/modules/plans/index.ts';
import { serverProcess } from '../support/server-process.ts';
import { signupVerified } from '../support/accounts.ts';
import { databases, startTestApp } from '../support/test-app.ts';
import { shippedCatalogue, writeTempJson } from '../fixtures/plans/catalogue.ts';

/**
 * The installation's own catalogue and price list (decision 015): read at start, and a wrong file
 * stops the start with a message naming the file and the field, before anything opens.
 */
describe.each(databases)('the plan catalogue at start on %s', (kind) => {
  it('stops the start naming the field of a wrong catalogue, and of a wrong price list', async () => {
    const broken = shippedCatalogue() as unknown as { plans: Array<{ features: Record<string, unknown> }> };
    broken.plans[3].features['source-limit'] = -1;
    const file = writeTempJson('plans.json', broken);
    await expect(startTestApp(kind, { HERALD_PLANS_FILE: file })).rejects.toThrow(
      /HERALD_PLANS_FILE \(.*plans\.json\) is not a valid file:\n {2}plans\.3\.features\.source-limit/,
    );
    const prices = writeTempJson('prices.json', { UAH: { sms_part: { default: 100, countries: {} }, lookup: 10 } });
    await expect(startTestApp(kind, { HERALD_PRICES_FILE: prices })).rejects.toThrow(/HERALD_PRICES_FILE.*\n {2}USD/);
  });

  it('serves the installation’s own plans, and stops the start when a plan held by a team is removed', async () => {
    const own = shippedCatalogue();
    own.plans[1].name.en = 'Shop';
    own.plans[1].price = 12_300;
    const file = writeTempJson('plans.json', own);
    const t = await startTestApp(kind, { HERALD_PLANS_FILE: file });
    try {
      const owner = await signupVerified(t);
      const answer = (await t.request({ method: 'GET', url: '/api/subscriptions', token: owner.token })).json();
      expect(answer.available_plans[0]).toMatchObject({ slug: 'starter-pack', price: 12_300, name: { en: 'Shop' } });
      // The team moves to plan 2, and the operator then deletes plan 2 from the file.
      await sql`update subscriptions set plan_id = 2, plan_slug = 'starter-pack' where team_id = ${owner.user.team_id}`.execute(
        t.app.services.database.db,
      );
      const without = shippedCatalogue();
      without.plans = without.plans.filter((p) => p.id !== 2);
      // What a start with that file does (on PostgreSQL, another process of the installation).
      const files = loadPlanFiles({ HERALD_PLANS_FILE: writeTempJson('plans.json', without) });
      await expect(createPlansModule({ db: t.app.services.database.db, files })).rejects.toThrow(
        /plans 2 are held by current subscriptions but missing from the catalogue/,
      );
    } finally {
      await t.close();
    }
  });
});

describe('a wrong catalogue when the server is started', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-plans-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('exits with the configuration error code and only the message', async () => {
    const file = writeTempJson('plans.json', '{"plans": [{"id": 1}]}');
    const server = serverProcess({ DATA_DIR: dataDir, HERALD_PLANS_FILE: file });
    const child = server.spawnOn(server.port, 'pipe');
    let stderr = '';
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    expect(await server.exitOf(child)).toBe(78);
    expect(stderr).toContain('HERALD_PLANS_FILE');
    expect(stderr).toContain('plans.0.slug');
    expect(stderr).not.toContain('    at ');
  });
});
