import { type Kysely, sql } from 'kysely';
import type { DB } from '../../src/db/schema.ts';
import type { TestApp } from './test-app.ts';

/** Creates a source with one list through the API. */
export async function sourceWithList(t: TestApp, token: string, name = 'Expo 2026') {
  const source = (await t.request({ method: 'POST', url: '/api/sources', token, payload: { name } })).json();
  const list = (
    await t.request({
      method: 'POST',
      url: `/api/sources/${source.id}/lists`,
      token,
      payload: { name: `${name} list` },
    })
  ).json();
  return { source, list };
}

export async function attributeIds(t: TestApp, token: string): Promise<Record<string, number>> {
  const res = await t.request({ method: 'GET', url: '/api/lead-attributes', token });
  return Object.fromEntries(res.json().data.map((a: { slug: string; id: number }) => [a.slug, a.id]));
}

/** Creates a custom attribute through the API; returns its id. */
export async function createAttribute(t: TestApp, token: string, name: string, sortOrder = 2): Promise<number> {
  const res = await t.request({
    method: 'POST',
    url: '/api/lead-attributes',
    token,
    payload: [{ name, sort_order: sortOrder }],
  });
  if (res.statusCode !== 201) throw new Error(`attribute ${name}: ${res.statusCode} ${res.body}`);
  return res.json().data.find((a: { name: string }) => a.name === name).id as number;
}

export async function createLead(
  t: TestApp,
  token: string,
  sourceId: number,
  listId: number,
  values: Array<[number, string]>,
) {
  return t.request({
    method: 'POST',
    url: '/api/leads',
    token,
    payload: {
      source_id: sourceId,
      list_id: listId,
      attributes: values.map(([attr_id, value]) => ({ attr_id, value })),
    },
  });
}

/** How many of the team's leads have presence bits other than their values say (migration 0007). */
export async function staleValueMasks(db: Kysely<DB>, teamId: number): Promise<number> {
  const r = await sql<{ n: number }>`
    select count(*)::int as n from leads l
    where l.team_id = ${teamId} and l.value_mask <> coalesce((
      select bit_or(1::bigint << a.presence_bit) from lead_values v join lead_attributes a on a.id = v.attribute_id
      where v.lead_id = l.id and a.presence_bit is not null), 0)`.execute(db);
  return Number(r.rows[0].n);
}
