import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZSegmentCondition } from '@herald/shared/segments/segment-conditions';
import type { DB } from '../../src/db/schema.ts';
import { fixedSlices } from '../../src/db/slice-sizer.ts';
import { csvCell } from '@herald/shared/common/csv-cells';
import { compileConditions, readsLeadRowOnly } from '../../src/modules/segments/filter-compiler.ts';
import { createSegmentLeadsRepository, csvCellSql } from '../../src/modules/segments/segment-leads.repository.ts';
import { signupVerified } from '../support/accounts.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * The filter compiler on real SQL, every operator, on both databases. Leads are written directly so
 * creation order, duplicates and multi-value attributes are exactly as each case needs.
 */
describe.each(databases)('filter compiler on %s', (kind) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let teamId: number;
  const ids: Record<string, number> = {};
  const names = new Map<number, string>();
  let attr: Record<string, number>;
  let types: Map<number, 'phone' | 'email' | 'string'>;
  let bits: Map<number, number>;

  beforeAll(async () => {
    t = await startTestApp(kind);
    db = t.app.services.database.db;
    const owner = await signupVerified(t);
    teamId = owner.user.team_id;
    const source = async (name: string) =>
      Number(
        (await db.insertInto('sources').values({ team_id: teamId, name }).returning('id').executeTakeFirstOrThrow()).id,
      );
    const list = async (sourceId: number, name: string) =>
      Number(
        (
          await db
            .insertInto('lists')
            .values({ team_id: teamId, source_id: sourceId, name })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    ids.S1 = await source('S1');
    ids.S2 = await source('S2');
    ids.L1 = await list(ids.S1, 'L1');
    ids.L2 = await list(ids.S1, 'L2');
    ids.L3 = await list(ids.S2, 'L3');
    await db
      .insertInto('lead_attributes')
      .values({ team_id: teamId, name: 'City', slug: 'city', type: 'string', sort_order: 5 })
      .execute();
    const rows = await db
      .selectFrom('lead_attributes')
      .select(['id', 'slug', 'type', 'presence_bit'])
      .where('team_id', '=', teamId)
      .execute();
    attr = Object.fromEntries(rows.map((r) => [r.slug, Number(r.id)]));
    types = new Map(rows.map((r) => [Number(r.id), r.type as 'phone' | 'email' | 'string']));
    bits = new Map(rows.map((r) => [Number(r.id), Number(r.presence_bit)]));

    // name, list, status, duplicates (as the app defines them), values; created in this order.
    const leads: Array<[string, string, string, number, Array<[string, string]>]> = [
      [
        'a',
        'L1',
        'active',
        1,
        [
          ['phone', '+380501111111'],
          ['city', 'Київ'],
          ['city', 'Lviv'],
        ],
      ],
      [
        'b',
        'L2',
        'blacklisted',
        1,
        [
          ['phone', '+380501111111'],
          ['city', 'ЛЬВІВ'],
        ],
      ],
      ['c', 'L3', 'flagged', 1, [['phone', '+380502222222']]],
      [
        'd',
        'L1',
        'active',
        1,
        [
          ['phone', '+380503333333'],
          ['city', 'Odesa'],
          ['email', 'd@example.com'],
        ],
      ],
      ['f', 'L3', 'active', 1, [['phone', '+380502222222']]],
      ['g', 'L3', 'active', 1, [['phone', '+380503333333']]],
      [
        'h',
        'L2',
        'active',
        0,
        [
          ['email', 'h@example.com'],
          ['city', 'kyiv'],
        ],
      ],
    ];
    let minute = 0;
    for (const [name, listName, status, duplicates, values] of leads) {
      const listId = ids[listName];
      const sourceId = listName === 'L3' ? ids.S2 : ids.S1;
      minute += 1;
      const lead = await db
        .insertInto('leads')
        .values({
          team_id: teamId,
          source_id: sourceId,
          list_id: listId,
          status: status as 'active',
          duplicates,
          created_at: new Date(Date.UTC(2026, 0, 1, 0, minute)),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids[name] = Number(lead.id);
      names.set(Number(lead.id), name);
      for (const [slug, value] of values) {
        await db
          .insertInto('lead_values')
          .values({
            team_id: teamId,
            lead_id: lead.id,
            attribute_id: attr[slug],
            type: types.get(attr[slug]) ?? 'string',
            value,
          })
          .execute();
      }
    }
  });
  afterAll(() => t?.close());

  /**
   * The names of the leads that match, compiled twice: with the presence bits (the app's way) and
   * without them (presence asked of lead_values, as for a team's 64th attribute); both must agree.
   */
  async function match(...conditions: Array<{ id: string | number; operator: string; values?: unknown[] }>) {
    const parsed = conditions.map((c) => ZSegmentCondition.parse(c));
    const run = async (presenceBits: Map<number, number>) => {
      const rows = await db
        .selectFrom('leads')
        .select('id')
        .where('team_id', '=', teamId)
        .where(compileConditions(parsed, { teamId, attributeTypes: types, presenceBits }))
        .execute();
      return rows.map((r) => names.get(Number(r.id))).sort();
    };
    const [withBits, withoutBits] = [await run(bits), await run(new Map())];
    expect(withBits).toEqual(withoutBits);
    return withBits;
  }
  const v = (...keys: string[]) => keys.map((k) => ids[k]);

  it('source: eq, not_eq, unique (no phone shared with a lead outside the chosen sources)', async () => {
    expect(await match({ id: 'source', operator: 'eq', values: v('S1') })).toEqual(['a', 'b', 'd', 'h']);
    expect(await match({ id: 'source', operator: 'not_eq', values: v('S1') })).toEqual(['c', 'f', 'g']);
    expect(await match({ id: 'source', operator: 'eq', values: v('S1', 'S2') })).toHaveLength(7);
    // d shares its phone with g of S2; a and b share only inside S1.
    expect(await match({ id: 'source', operator: 'unique', values: v('S1') })).toEqual(['a', 'b', 'h']);
    expect(await match({ id: 'source', operator: 'unique', values: v('S2') })).toEqual(['c', 'f']);
    expect(await match({ id: 'source', operator: 'unique', values: v('S1', 'S2') })).toHaveLength(7);
  });

  it('list: eq, not_eq, unique, first_appeared_in_list', async () => {
    expect(await match({ id: 'list', operator: 'eq', values: v('L1') })).toEqual(['a', 'd']);
    expect(await match({ id: 'list', operator: 'not_eq', values: v('L1') })).toEqual(['b', 'c', 'f', 'g', 'h']);
    expect(await match({ id: 'list', operator: 'unique', values: v('L3') })).toEqual(['c', 'f']);
    expect(await match({ id: 'list', operator: 'unique', values: v('L1') })).toEqual([]);
    // a came before b (L2) with the same phone; d before g (L3).
    expect(await match({ id: 'list', operator: 'first_appeared_in_list', values: v('L1') })).toEqual(['a', 'd']);
    expect(await match({ id: 'list', operator: 'first_appeared_in_list', values: v('L2') })).toEqual(['h']);
    // c and f share a phone inside L3 only; g's phone was on d in L1 first.
    expect(await match({ id: 'list', operator: 'first_appeared_in_list', values: v('L3') })).toEqual(['c', 'f']);
  });

  it('status and duplicates: eq, not_eq', async () => {
    expect(await match({ id: 'status', operator: 'eq', values: ['blacklisted'] })).toEqual(['b']);
    expect(await match({ id: 'status', operator: 'eq', values: ['blacklisted', 'flagged'] })).toEqual(['b', 'c']);
    expect(await match({ id: 'status', operator: 'not_eq', values: ['active'] })).toEqual(['b', 'c']);
    expect(await match({ id: 'duplicates', operator: 'eq', values: ['0'] })).toEqual(['h']);
    expect(await match({ id: 'duplicates', operator: 'not_eq', values: ['0'] })).toEqual([
      'a',
      'b',
      'c',
      'd',
      'f',
      'g',
    ]);
  });

  it('contains ignores case in Cyrillic and Latin; any value of a multi-value attribute matches', async () => {
    const city = attr.city;
    expect(await match({ id: city, operator: 'contains', values: ['київ'] })).toEqual(['a']);
    expect(await match({ id: city, operator: 'contains', values: ['львів'] })).toEqual(['b']);
    expect(await match({ id: city, operator: 'contains', values: ['LVIV'] })).toEqual(['a']);
    expect(await match({ id: city, operator: 'contains', values: ['ЬВ', 'yiv'] })).toEqual(['b', 'h']);
    // Wildcards and quotes are text, not SQL.
    expect(await match({ id: city, operator: 'contains', values: ['%'] })).toEqual([]);
    expect(await match({ id: city, operator: 'contains', values: ['_'] })).toEqual([]);
    expect(await match({ id: city, operator: 'contains', values: ["'; drop table leads; --"] })).toEqual([]);
    expect(await db.selectFrom('leads').select('id').where('team_id', '=', teamId).execute()).toHaveLength(7);
  });

  it('not_contains and not_eq: no value matches (a lead without a value matches)', async () => {
    const city = attr.city;
    expect(await match({ id: city, operator: 'not_contains', values: ['lviv'] })).toEqual([
      'b',
      'c',
      'd',
      'f',
      'g',
      'h',
    ]);
    expect(await match({ id: city, operator: 'not_eq', values: ['Київ'] })).toEqual(['b', 'c', 'd', 'f', 'g', 'h']);
    expect(await match({ id: city, operator: 'not_eq', values: ['lviv'] })).toEqual(['b', 'c', 'd', 'f', 'g', 'h']);
  });

  it('eq compares whole values, ignoring case; phones and e-mails in their stored form', async () => {
    expect(await match({ id: attr.city, operator: 'eq', values: ['odesa'] })).toEqual(['d']);
    expect(await match({ id: attr.city, operator: 'eq', values: ['Odes'] })).toEqual([]);
    expect(await match({ id: attr.city, operator: 'eq', values: ['lviv'] })).toEqual(['a']);
    expect(await match({ id: attr.phone, operator: 'eq', values: ['0501111111'] })).toEqual(['a', 'b']);
    expect(await match({ id: attr.email, operator: 'eq', values: ['H@Example.com'] })).toEqual(['h']);
  });

  it('empty = no value of the attribute; not_empty = at least one', async () => {
    expect(await match({ id: attr.city, operator: 'empty' })).toEqual(['c', 'f', 'g']);
    expect(await match({ id: attr.city, operator: 'not_empty' })).toEqual(['a', 'b', 'd', 'h']);
    expect(await match({ id: attr.email, operator: 'empty' })).toEqual(['a', 'b', 'c', 'f', 'g']);
    expect(await match({ id: attr.phone, operator: 'not_empty' })).toEqual(['a', 'b', 'c', 'd', 'f', 'g']);
  });

  it('all conditions must hold; none matches everything', async () => {
    expect(
      await match(
        { id: 'source', operator: 'eq', values: v('S1') },
        { id: attr.city, operator: 'contains', values: ['v'] },
      ),
    ).toEqual(['a', 'h']);
    expect(
      await match(
        { id: 'source', operator: 'eq', values: v('S1') },
        { id: attr.city, operator: 'contains', values: ['v'] },
        { id: 'duplicates', operator: 'eq', values: ['1'] },
      ),
    ).toEqual(['a']);
    expect(
      await match({ id: 'status', operator: 'eq', values: ['active'] }, { id: attr.city, operator: 'empty' }),
    ).toEqual(['f', 'g']);
    expect(await match()).toHaveLength(7);
    // Another team's leads never match: the outer query is team-scoped, the subqueries follow it.
    const other = await sql<{ n: number }>`select count(*)::int as n from leads where team_id <> ${teamId}`.execute(db);
    expect(other.rows[0].n).toBe(0);
  });

  it('counts read in ranges of lead ids add up to the count of one read', async () => {
    const where = (...conditions: Array<{ id: string | number; operator: string; values?: unknown[] }>) =>
      compileConditions(
        conditions.map((c) => ZSegmentCondition.parse(c)),
        { teamId, attributeTypes: types, presenceBits: bits },
      );
    const whole = createSegmentLeadsRepository(db);
    // Ranges of one and two ids: every boundary between two leads falls between two ranges.
    for (const width of [1, 2]) {
      const sliced = createSegmentLeadsRepository(db, { countSlices: () => fixedSlices(width) });
      for (const q of [
        { where: where(), inRanges: true },
        { where: where({ id: 'source', operator: 'eq', values: v('S1') }), inRanges: true },
        { where: where({ id: 'list', operator: 'first_appeared_in_list', values: v('L3') }), inRanges: true },
      ]) {
        const expected = await whole.count(teamId, q);
        expect(expected.total).toBeGreaterThan(0);
        expect(await sliced.count(teamId, q)).toEqual(expected);
      }
    }
    expect(await whole.count(teamId, { where: where() })).toEqual({ total: 7, blacklisted: 1, duplicates: 6 });
  });

  it('only predicates over the lead row itself are counted in ranges', () => {
    const ctx = { teamId, attributeTypes: types, presenceBits: bits };
    const link = (...conditions: Array<{ id: string | number; operator: string; values?: unknown[] }>) => ({
      id: 1,
      ignore_new_leads: false,
      frozen_at: null,
      conditions: conditions.map((c) => ZSegmentCondition.parse(c)),
    });
    const rowOnly = link(
      { id: 'source', operator: 'not_eq', values: v('S1') },
      { id: 'status', operator: 'eq', values: ['active'] },
      { id: 'duplicates', operator: 'eq', values: ['1'] },
      { id: attr.city, operator: 'not_empty' },
    );
    expect(readsLeadRowOnly([link(), rowOnly], ctx)).toBe(true);
    // A value pattern, a phone shared with other leads, an attribute without a presence bit, saved members.
    expect(readsLeadRowOnly([rowOnly, link({ id: attr.city, operator: 'contains', values: ['v'] })], ctx)).toBe(false);
    expect(readsLeadRowOnly([link({ id: 'list', operator: 'first_appeared_in_list', values: v('L3') })], ctx)).toBe(
      false,
    );
    expect(readsLeadRowOnly([link({ id: attr.city, operator: 'empty' })], { ...ctx, presenceBits: new Map() })).toBe(
      false,
    );
    expect(readsLeadRowOnly([{ ...link(), ignore_new_leads: true, frozen_at: new Date() }], ctx)).toBe(false);
  });

  it('export walks visit every lead once, in order, in batches smaller than the set', async () => {
    const repo = createSegmentLeadsRepository(db);
    const q = { where: compileConditions([], { teamId, attributeTypes: types, presenceBits: bits }) };
    const walkAll = async (order: { field: 'id' | 'status' | 'created_at'; dir: 'asc' | 'desc' }, exportId: number) => {
      const walk = await repo.prepareWalk(teamId, exportId, { ...q, order });
      let after: number | undefined;
      let text = '';
      for (let i = 0; i < 20; i++) {
        const batch = await repo.renderBatch(teamId, walk, q, after, 2, [attr.phone, attr.city]);
        if (batch.count === 0) break;
        text += batch.text;
        after = batch.last;
      }
      await repo.endWalk(walk);
      return text.split('\r\n').filter(Boolean);
    };
    const phoneOf = (name: string) =>
      ({
        a: '+380501111111',
        b: '+380501111111',
        c: '+380502222222',
        d: '+380503333333',
        f: '+380502222222',
        g: '+380503333333',
        h: '',
      })[name];
    const down = await walkAll({ field: 'id', dir: 'desc' }, 1);
    expect(down).toHaveLength(7);
    expect(down[0]).toBe(`,kyiv,active`);
    expect(down.map((l) => l.split(',')[0])).toEqual(['h', 'g', 'f', 'd', 'c', 'b', 'a'].map((n) => phoneOf(n) ?? ''));
    const up = await walkAll({ field: 'id', dir: 'asc' }, 2);
    expect(up).toEqual([...down].reverse());
    expect(up[0]).toBe(`+380501111111,"Київ; Lviv",active`);
    const byStatus = await walkAll({ field: 'status', dir: 'asc' }, 3);
    expect(byStatus.map((l) => l.split(',').at(-1))).toEqual([
      'active',
      'active',
      'active',
      'active',
      'active',
      'blacklisted',
      'flagged',
    ]);
  });

  it('renders cells in SQL exactly as csvCell does', async () => {
    const cells = [
      'plain',
      '=1+2',
      '+380501234567',
      '+380501234567; +380671234567',
      '+38050',
      '+380501234567+1',
      '-5',
      '@x',
      '\tx',
      '\rx',
      'a,b',
      'say "hi"',
      'a\nb',
      'Київ; Львів',
      ' pad',
      'pad ',
      'a=b',
      '',
    ];
    const rows = await sql<{
      out: string;
    }>`select ${csvCellSql(sql`c`)} as out from unnest(${cells}::text[]) with ordinality t(c, n) order by n`.execute(
      db,
    );
    expect(rows.rows.map((r) => r.out)).toEqual(cells.map(csvCell));
  });
});
