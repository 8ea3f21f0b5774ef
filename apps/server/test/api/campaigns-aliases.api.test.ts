import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, signupVerified } from '../support/accounts.ts';
import { sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * The spec's names for a campaign's audience (section 7): `campaigns/{id}/segments` and
 * `campaigns/{id}/sources` list, add and remove the same rows as `/audiences`, each its own kinds,
 * under the same rules (only in draft) and log entries; another team's ids: 404, nothing changed.
 */
describe.each(databases)('campaign /segments and /sources on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.app.services.database.db;
  const call = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    t.request({ method, url: `/api${url}`, token, ...(payload === undefined ? {} : { payload: payload as object }) });

  async function team() {
    const owner = await signupVerified(t);
    const a = await sourceWithList(t, owner.token, `A ${Math.random()}`);
    const b = await sourceWithList(t, owner.token, `B ${Math.random()}`);
    const segment = (await call(owner.token, 'POST', '/segments', { name: 'Buyers', ignore_new_leads: false })).json();
    const c = (await call(owner.token, 'POST', '/campaigns', {})).json();
    return { owner, a, b, segmentId: Number(segment.id), id: Number(c.id) };
  }
  const audiences = async (id: number) =>
    (
      await db()
        .selectFrom('campaign_audiences')
        .select(['kind', 'ref_id'])
        .where('campaign_id', '=', id)
        .orderBy('id')
        .execute()
    ).map((r) => `${r.kind}:${Number(r.ref_id)}`);

  it('adds, lists and removes segments and sources with lists, each name only its own kinds', async () => {
    const { owner, a, b, segmentId, id } = await team();
    const segments = await call(owner.token, 'POST', `/campaigns/${id}/segments`, { segment_ids: [segmentId] });
    expect(segments.statusCode, segments.body).toBe(200);
    expect(segments.json()).toMatchObject([{ kind: 'segment', ref_id: segmentId, name: 'Buyers' }]);
    const sources = await call(owner.token, 'POST', `/campaigns/${id}/sources`, {
      source_ids: [a.source.id],
      list_ids: [b.list.id],
    });
    expect(sources.statusCode, sources.body).toBe(200);
    expect(sources.json()).toMatchObject([
      { kind: 'source', ref_id: a.source.id },
      { kind: 'list', ref_id: b.list.id, source_id: b.source.id },
    ]);
    expect((await call(owner.token, 'GET', `/campaigns/${id}/segments`)).json()).toHaveLength(1);
    expect((await call(owner.token, 'GET', `/campaigns/${id}/sources`)).json()).toHaveLength(2);
    expect(await audiences(id)).toEqual([`segment:${segmentId}`, `source:${a.source.id}`, `list:${b.list.id}`]);

    // A segment's row is not a source's, and the other way round.
    const segmentRow = segments.json()[0].id;
    const sourceRow = sources.json()[0].id;
    expect((await call(owner.token, 'DELETE', `/campaigns/${id}/sources/${segmentRow}`)).statusCode).toBe(404);
    expect((await call(owner.token, 'DELETE', `/campaigns/${id}/segments/${sourceRow}`)).statusCode).toBe(404);
    expect((await call(owner.token, 'DELETE', `/campaigns/${id}/segments/${segmentRow}`)).statusCode).toBe(200);
    expect((await call(owner.token, 'DELETE', `/campaigns/${id}/sources/${sourceRow}`)).statusCode).toBe(200);
    expect(await audiences(id)).toEqual([`list:${b.list.id}`]);
    const logs = await db()
      .selectFrom('campaign_logs')
      .select('type')
      .where('campaign_id', '=', id)
      .orderBy('id')
      .execute();
    expect(logs.filter((l) => l.type === 'campaign_segment_add')).toHaveLength(3);
    expect(logs.filter((l) => l.type === 'campaign_segment_deleted')).toHaveLength(2);
  });

  it('refuses an unknown list before adding anything, and changes the audience only in draft', async () => {
    const { owner, a, segmentId, id } = await team();
    const bad = await call(owner.token, 'POST', `/campaigns/${id}/sources`, {
      source_ids: [a.source.id],
      list_ids: [99_999_999],
    });
    expect(bad.statusCode).toBe(404);
    expect(await audiences(id)).toEqual([]);
    const none = await call(owner.token, 'POST', `/campaigns/${id}/sources`, {});
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.source_ids[0].code).toBe('campaign_audience_required');
    await db().updateTable('campaigns').set({ status: 'scheduled' }).where('id', '=', id).execute();
    const late = await call(owner.token, 'POST', `/campaigns/${id}/segments`, { segment_ids: [segmentId] });
    expect(late.statusCode).toBe(422);
    expect(late.json().errors ? Object.values(late.json().errors)[0] : late.json().detail).toBeTruthy();
    expect(await audiences(id)).toEqual([]);
  });

  it("answers 404 for another team's campaign, segment, source and list, changing nothing; operators get 403", async () => {
    const mine = await team();
    const other = await team();
    await call(mine.owner.token, 'POST', `/campaigns/${mine.id}/segments`, { segment_ids: [mine.segmentId] });
    const row = (await call(mine.owner.token, 'GET', `/campaigns/${mine.id}/segments`)).json()[0].id;
    const tok = other.owner.token;
    for (const res of [
      await call(tok, 'GET', `/campaigns/${mine.id}/segments`),
      await call(tok, 'GET', `/campaigns/${mine.id}/sources`),
      await call(tok, 'POST', `/campaigns/${mine.id}/segments`, { segment_ids: [other.segmentId] }),
      await call(tok, 'POST', `/campaigns/${mine.id}/sources`, { source_ids: [other.a.source.id] }),
      await call(tok, 'DELETE', `/campaigns/${mine.id}/segments/${row}`),
      // Their own campaign with my team's segment, source or list.
      await call(tok, 'POST', `/campaigns/${other.id}/segments`, { segment_ids: [mine.segmentId] }),
      await call(tok, 'POST', `/campaigns/${other.id}/sources`, { source_ids: [mine.a.source.id] }),
      await call(tok, 'POST', `/campaigns/${other.id}/sources`, { list_ids: [mine.a.list.id] }),
    ])
      expect(res.statusCode, res.body).toBe(404);
    expect(await audiences(mine.id)).toEqual([`segment:${mine.segmentId}`]);
    expect(await audiences(other.id)).toEqual([]);
    const operator = await addMember(t, mine.owner.token, 'team_operator');
    expect((await call(operator.token, 'GET', `/campaigns/${mine.id}/sources`)).statusCode).toBe(403);
    expect(
      (await call(operator.token, 'POST', `/campaigns/${mine.id}/segments`, { segment_ids: [mine.segmentId] }))
        .statusCode,
    ).toBe(403);
  });
});
