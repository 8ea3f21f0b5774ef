import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, signupVerified, uniqueEmail } from '../support/accounts.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { upload } from '../fixtures/imports/import-client.ts';
import { sampleFor } from '../support/json-schema-sample.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

/**
 * The cross-team sweep: every route of the OpenAPI document that takes an id is called by a
 * member of team B with a real id of team A's; each must answer 404 and change nothing of A's.
 * Ids are found by naming convention: the path segment before `{id}` names the table.
 * A module that adds routes adds one seeding step below, so the sweep can find a row of team A.
 */
const TABLE_FOR_SEGMENT: Record<string, [table: string, where?: string]> = {
  user: ['users'],
  'lead-phones': ['lead_values', "type = 'phone'"],
  'lead-emails': ['lead_values', "type = 'email'"],
  'lead-values': ['lead_values', "type not in ('phone', 'email')"],
  imports: ['import_files'],
  'sync-import': ['import_files'],
  messaging: ['gateways'],
  sms: ['sms_templates'],
  default: ['alpha_names'],
  lookup: ['lookups'],
};
/** Other path parameters and the table their ids come from. */
const TABLE_FOR_PARAM: Record<string, [table: string, where?: string]> = {
  attrId: ['lead_attributes', "type = 'phone'"],
  audienceId: ['campaign_audiences'],
};

/** Routes the sweep cannot call meaningfully, with the reason. */
const NOT_SWEPT: Record<string, string> = {
  'POST /api/webhooks/gateways/{gatewayId}/{kind}':
    'a provider callback: no session, the gateway id names its team, and an unsigned call gets 403 (gateways-webhooks.api)',
  'POST /api/admin/alpha-names/{id}/review':
    'the installation admins review every team’s names; anyone else gets 403 (alpha-names.api.test.ts)',
};

type Doc = {
  paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }>; requestBody?: any }>>;
};

async function snapshot(db: Kysely<any>, teamId: number): Promise<string> {
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.columns
    where column_name = 'team_id' and table_schema = current_schema()
    order by table_name`.execute(db);
  const out: Record<string, unknown[]> = {};
  for (const { table_name } of tables.rows) {
    out[table_name] = (
      await sql`select * from ${sql.table(table_name)} where team_id = ${teamId} order by 1`.execute(db)
    ).rows;
  }
  return JSON.stringify(out);
}

describe.each(databases)('another team’s ids on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t?.close());

  it('answer 404 on every id route and change nothing', async () => {
    // Team A with one of everything.
    const ownerA = await signupVerified(t);
    await addMember(t, ownerA.token, 'team_operator');
    await t.request({
      method: 'POST',
      url: '/api/invitations',
      token: ownerA.token,
      payload: { email: uniqueEmail('pending'), role: 'team_admin' },
    });
    const { source, list } = await sourceWithList(t, ownerA.token);
    await t.request({
      method: 'POST',
      url: '/api/lead-attributes',
      token: ownerA.token,
      payload: [{ name: 'City', sort_order: 5 }],
    });
    const attrs = await attributeIds(t, ownerA.token);
    const lead = await createLead(t, ownerA.token, source.id, list.id, [
      [attrs.phone, '+380501234567'],
      [attrs.email, 'a@example.com'],
      [attrs.city, 'Lviv'],
    ]);
    expect(lead.statusCode).toBe(201);
    const uploaded = await upload(t, ownerA.token, list.id, 'a.csv', Buffer.from('phone\n+380501234567\n'));
    expect(uploaded.statusCode).toBe(201);
    const audience = await t.request({
      method: 'POST',
      url: '/api/segments',
      token: ownerA.token,
      payload: { name: 'A', ignore_new_leads: true, filters: [{ id: 'source', operator: 'eq', values: [source.id] }] },
    });
    expect(audience.statusCode).toBe(201);
    const exported = await t.request({
      method: 'POST',
      url: `/api/segments/${audience.json().id}/leads/csv`,
      token: ownerA.token,
      payload: { name: 'A leads' },
    });
    expect(exported.statusCode).toBe(202);
    // The export job runs in the background: let it finish before the snapshot.
    await waitUntil(
      'the export to complete',
      async () =>
        (await t.request({ method: 'GET', url: '/api/exports/active', token: ownerA.token })).json().data[0]?.type ===
        'export-completed',
      60_000,
      100,
    );
    const gateway = await t.request({
      method: 'POST',
      url: '/api/config/gateway/messaging',
      token: ownerA.token,
      payload: { type: 'simulator', name: 'Sim A', credentials: {} },
    });
    expect(gateway.statusCode).toBe(201);
    const template = await t.request({
      method: 'POST',
      url: '/api/config/template/sms',
      token: ownerA.token,
      payload: { name: 'A', type_id: 'promotion', message: 'Hello {{link}}' },
    });
    expect(template.statusCode).toBe(201);
    const alphaName = await t.request({
      method: 'POST',
      url: '/api/alpha-names/store',
      token: ownerA.token,
      payload: { name: 'TeamA' },
    });
    expect(alphaName.statusCode).toBe(201);
    const domain = await t.request({
      method: 'POST',
      url: '/api/short-url-domains',
      token: ownerA.token,
      payload: { url: 'go.team-a.example' },
    });
    expect(domain.statusCode).toBe(201);
    const campaign = await t.request({ method: 'POST', url: '/api/campaigns', token: ownerA.token, payload: {} });
    expect(campaign.statusCode, campaign.body).toBe(201);
    const campaignId = campaign.json().id;
    const step = await t.request({
      method: 'POST',
      url: `/api/campaigns/${campaignId}/campaign-steps`,
      token: ownerA.token,
      payload: { message: 'Hello', delay_minutes: 0 },
    });
    expect(step.statusCode, step.body).toBe(201);
    const campaignAudience = await t.request({
      method: 'POST',
      url: `/api/campaigns/${campaignId}/audiences`,
      token: ownerA.token,
      payload: { kind: 'list', ref_ids: [list.id] },
    });
    expect(campaignAudience.statusCode, campaignAudience.body).toBe(200);
    const lookup = await t.request({
      method: 'POST',
      url: '/api/lookup',
      token: ownerA.token,
      payload: { list_id: list.id, start: false },
    });
    expect(lookup.statusCode, lookup.body).toBe(200);
    // Team B, whose owner may do everything inside B.
    const ownerB = await signupVerified(t);

    const db = t.app.services.database.db as Kysely<any>;
    const teamA = ownerA.user.team_id;
    const before = await snapshot(db, teamA);
    const doc = (await t.request({ method: 'GET', url: '/api/docs/json' })).json() as Doc;

    let swept = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      if (!params.some((p) => p === 'id' || p.endsWith('Id'))) continue;
      for (const [method, op] of Object.entries(methods)) {
        const key = `${method.toUpperCase()} ${path}`;
        if (NOT_SWEPT[key]) continue;
        const segment = path.split('/{id}')[0].split('/').at(-1) as string;
        const specs: Record<string, [string, string?]> = {
          id: TABLE_FOR_SEGMENT[segment] ?? [segment.replaceAll('-', '_')],
          ...TABLE_FOR_PARAM,
        };
        let url = path;
        for (const param of params) {
          const [table, where] = specs[param] ?? [];
          expect(table, `${key}: say where {${param}} comes from`).toBeDefined();
          const filter = where ? sql` and ${sql.raw(where)}` : sql``;
          const query = sql<{
            id: number;
          }>`select id from ${sql.table(table as string)} where team_id = ${teamA}${filter} order by id desc limit 1`;
          const row = (await query.execute(db)).rows[0];
          expect(row, `${key}: seed a row of team A in ${table}`).toBeDefined();
          url = url.replace(`{${param}}`, String(row.id));
        }
        const schema = op.requestBody?.content?.['application/json']?.schema;
        const res = await t.request({
          method: method.toUpperCase() as 'GET',
          url,
          token: ownerB.token,
          ...(schema ? { payload: sampleFor(schema) as object } : {}),
        });
        expect([key, res.statusCode, res.body]).toEqual([key, 404, expect.any(String)]);
        swept++;
      }
    }
    expect(swept).toBeGreaterThanOrEqual(30);
    expect(await snapshot(db, teamA)).toBe(before);
  });
});
