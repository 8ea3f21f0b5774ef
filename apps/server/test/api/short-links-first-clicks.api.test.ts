import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema.ts';
import type { ShortLinksModule } from '../../src/modules/short-links/index.ts';
import { signupVerified } from '../support/accounts.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

const BROWSER =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

/**
 * A campaign's clicks arrive together, each the first of its link: the first clicks of a moment
 * are written in one lead write, and each still marks its own lead once, as one click alone does.
 */
describe.each(databases)('first clicks of many links at once on %s', (kind) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let makeMany: ShortLinksModule['makeMany'];
  let owner: Awaited<ReturnType<typeof signupVerified>>;

  beforeAll(async () => {
    t = await startTestApp(
      kind,
      {},
      {
        onShortLinks: (s) => {
          makeMany = s.makeMany;
        },
      },
    );
    db = t.app.services.database.db as Kysely<DB>;
    owner = await signupVerified(t);
  });
  afterAll(() => t?.close());

  const phones = (leadId: number) =>
    db
      .selectFrom('lead_values')
      .select(['value', 'clicked'])
      .where('lead_id', '=', leadId)
      .where('type', '=', 'phone')
      .orderBy('value')
      .execute();
  const clickedEntries = (leadIds: number[]) =>
    db
      .selectFrom('lead_logs')
      .select(['lead_id', 'diff_log'])
      .where('lead_id', 'in', leadIds)
      .where('action', '=', 'link_clicked')
      .execute();

  it('marks each lead of a burst of first clicks once: its phone, or every phone when the link named none', async () => {
    const attrs = await attributeIds(t, owner.token);
    const { source, list } = await sourceWithList(t, owner.token);
    const lead = async (...values: string[]) => {
      const res = await createLead(
        t,
        owner.token,
        source.id,
        list.id,
        values.map((v) => [attrs.phone, v]),
      );
      return Number(res.json().id ?? res.json().data.id);
    };
    const [a, b, c, gone] = [
      await lead('+380501110001', '+380501110002'),
      await lead('+380501110003', '+380501110004'),
      await lead('+380501110005'),
      await lead('+380501110006'),
    ];
    const made = await db.transaction().execute((tx) =>
      makeMany(tx, owner.user.team_id, [
        { leadId: a, messageId: null, kind: 'link', redirectTo: 'https://shop.example/a', phone: '+380501110002' },
        { leadId: b, messageId: null, kind: 'link', redirectTo: 'https://shop.example/b', phone: null },
        { leadId: c, messageId: null, kind: 'link', redirectTo: 'https://shop.example/c', phone: '+380501110005' },
        { leadId: gone, messageId: null, kind: 'link', redirectTo: 'https://shop.example/d', phone: '+380501110006' },
      ]),
    );
    await sql`update short_links set created_at = now() - interval '1 minute'
      where code = any(${made.map((m) => m.code)}::text[])`.execute(db);
    expect((await t.request({ method: 'DELETE', url: `/api/leads/${gone}`, token: owner.token })).statusCode).toBe(200);

    // All four in the same moment, and lead c's link twice: one batch.
    const follow = (code: string) =>
      t.request({ method: 'GET', url: `/${code}`, headers: { host: 'herald.test', 'user-agent': BROWSER } });
    const answers = await Promise.all([...made.map((m) => follow(m.code)), follow(made[2].code)]);
    expect(answers.map((r) => r.statusCode)).toEqual([302, 302, 302, 302, 302]);

    const counts = () =>
      db
        .selectFrom('short_links')
        .select(['code', 'human_clicks', 'first_clicked_at'])
        .where(
          'code',
          'in',
          made.map((m) => m.code),
        )
        .execute();
    await waitUntil('the clicks counted', async () => (await counts()).reduce((n, r) => n + r.human_clicks, 0) === 5);
    await waitUntil('the leads marked', async () => (await clickedEntries([a, b, c])).length === 3);
    const byCode = new Map((await counts()).map((r) => [r.code, r]));
    expect(made.map((m) => byCode.get(m.code)?.human_clicks)).toEqual([1, 1, 2, 1]);
    for (const m of made) expect(byCode.get(m.code)?.first_clicked_at).not.toBeNull();

    expect(await phones(a)).toEqual([
      { value: '+380501110001', clicked: null },
      { value: '+380501110002', clicked: true },
    ]);
    expect(await phones(b)).toEqual([
      { value: '+380501110003', clicked: true },
      { value: '+380501110004', clicked: true },
    ]);
    expect(await phones(c)).toEqual([{ value: '+380501110005', clicked: true }]);
    const entries = await clickedEntries([a, b, c, gone]);
    expect(entries.map((e) => Number(e.lead_id)).sort((x, y) => x - y)).toEqual([a, b, c].sort((x, y) => x - y));
    expect(JSON.stringify(entries.find((e) => Number(e.lead_id) === c)?.diff_log)).toContain(made[2].text);

    // A later click of the same links is counted and marks nothing again.
    expect((await follow(made[0].code)).statusCode).toBe(302);
    await waitUntil('the later click counted', async () =>
      (await counts()).some((r) => r.human_clicks === 2 && r.code === made[0].code),
    );
    expect(await clickedEntries([a, b, c])).toHaveLength(3);
  });
});
