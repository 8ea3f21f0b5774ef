import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupVerified } from '../support/accounts.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

/** Following a lead's `duplicates` (issue: duplicates you can follow): who shares its phones, and the list filter. */
describe.each(databases)('following duplicates on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t?.close());

  async function team(name: string) {
    const owner = await signupVerified(t);
    const attrs = await attributeIds(t, owner.token);
    const first = await sourceWithList(t, owner.token, `${name} one`);
    const second = await sourceWithList(t, owner.token, `${name} two`);
    const lead = async (where: typeof first, ...phones: string[]) => {
      const res = await createLead(
        t,
        owner.token,
        where.source.id,
        where.list.id,
        phones.map((p) => [attrs.phone, p]),
      );
      expect(res.statusCode).toBe(201);
      return res.json().id as number;
    };
    return { owner, first, second, lead };
  }

  it('lists the leads that share a phone, with the phones, their source and list, oldest first', async () => {
    const { owner, first, second, lead } = await team('Dup');
    const a = await lead(first, '+380501111111', '+380502222222');
    const b = await lead(second, '+380501111111');
    const c = await lead(first, '+380502222222', '+380501111111');
    const alone = await lead(first, '+380509999999');

    const res = await t.request({ method: 'GET', url: `/api/leads/${a}/duplicates`, token: owner.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [
        {
          id: b,
          status: 'active',
          phones: ['+380501111111'],
          source: { id: second.source.id, name: 'Dup two' },
          list: { id: second.list.id, name: 'Dup two list' },
        },
        {
          id: c,
          status: 'active',
          phones: ['+380501111111', '+380502222222'],
          source: { id: first.source.id, name: 'Dup one' },
          list: { id: first.list.id, name: 'Dup one list' },
        },
      ],
      more: false,
    });
    // The count on the lead is the length of that list.
    const shown = (await t.request({ method: 'GET', url: `/api/leads/${a}`, token: owner.token })).json();
    expect(shown.duplicates).toBe(2);
    const none = await t.request({ method: 'GET', url: `/api/leads/${alone}/duplicates`, token: owner.token });
    expect(none.json()).toEqual({ data: [], more: false });

    // The leads list, filtered to leads sharing a phone: the team's and a list's, with their totals.
    const all = (await t.request({ method: 'GET', url: '/api/leads?duplicates=1', token: owner.token })).json();
    expect(all.data.map((l: { id: number }) => l.id)).toEqual([c, b, a]);
    expect(all.meta.total).toBe(3);
    const inList = (
      await t.request({ method: 'GET', url: `/api/lists/${first.list.id}/leads?duplicates=1`, token: owner.token })
    ).json();
    expect(inList.data.map((l: { id: number }) => l.id)).toEqual([c, a]);
    expect(inList.meta.total).toBe(2);
    // Unfiltered, the cached page of the same address is not served for the filtered one, or back.
    const unfiltered = (await t.request({ method: 'GET', url: '/api/leads', token: owner.token })).json();
    expect(unfiltered.meta.total).toBe(4);
    const bad = await t.request({ method: 'GET', url: '/api/leads?duplicates=yes', token: owner.token });
    expect(bad.statusCode).toBe(422);
  });

  it("answers 404 for another team's lead and shows nothing of it", async () => {
    const mine = await team('Mine');
    const theirs = await team('Theirs');
    const own = await mine.lead(mine.first, '+380503333333');
    // The other team holds the same phone: not a duplicate across teams.
    const foreign = await theirs.lead(theirs.first, '+380503333333');
    const res = await t.request({ method: 'GET', url: `/api/leads/${foreign}/duplicates`, token: mine.owner.token });
    expect(res.statusCode).toBe(404);
    const own2 = await t.request({ method: 'GET', url: `/api/leads/${own}/duplicates`, token: mine.owner.token });
    expect(own2.json()).toEqual({ data: [], more: false });
  });
});
