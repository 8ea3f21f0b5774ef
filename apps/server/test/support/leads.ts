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
