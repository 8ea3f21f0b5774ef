import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../../db/schema.ts';
import { createFeatureRegistry, featureState, fits, remainingOf } from './features.ts';

/** A database that records each statement it is sent and answers `row`. */
function recordingDb(row: Record<string, unknown>) {
  const sent: string[] = [];
  const connection: DatabaseConnection = {
    async executeQuery<R>(query: CompiledQuery) {
      sent.push(query.sql);
      return { rows: [row] as R[] };
    },
    // biome-ignore lint/correctness/useYield: no stream is asked for
    async *streamQuery() {
      throw new Error('not used');
    },
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: async () => {},
    commitTransaction: async () => {},
    rollbackTransaction: async () => {},
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  const db = new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  return { db, sent };
}

describe('feature usages', () => {
  it('reads every asked feature in one statement, adding up the providers of each', async () => {
    const registry = createFeatureRegistry();
    registry.provide('source-limit', (db, teamId) =>
      db.selectFrom('sources').select(sql<number>`count(*)`.as('n')).where('team_id', '=', teamId),
    );
    registry.provide('import-limit', () => sql`select 1 as n`);
    registry.provide('import-limit', () => sql`select 2 as n`);
    const { db, sent } = recordingDb({ u0: '4', u1: 7 });
    const used = await registry.usages(db, 1, ['source-limit', 'import-limit', 'list-limit'], new Date());
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('"sources"');
    expect(sent[0]).toMatch(/coalesce\(\(select 1 as n\), 0\) \+ coalesce\(\(select 2 as n\), 0\)/);
    // Nobody provides the list limit here: unused, and not asked of the database.
    expect(Object.fromEntries(used)).toEqual({ 'source-limit': 4, 'import-limit': 7, 'list-limit': 0 });
  });
});

describe('limit arithmetic', () => {
  it('a count shows usage, what is left and whether one more fits', () => {
    expect(featureState('source-limit', 5, 3)).toEqual({
      slug: 'source-limit',
      value: 5,
      feature_usage: 3,
      feature_remaining: 2,
      can_use_feature: true,
    });
    expect(featureState('source-limit', 5, 5)).toMatchObject({ feature_remaining: 0, can_use_feature: false });
  });

  it('never shows less than nothing left, when a smaller plan follows a bigger one', () => {
    expect(featureState('lead-limit', 1000, 4000)).toMatchObject({ feature_remaining: 0, can_use_feature: false });
    expect(remainingOf(1000, 4000)).toBe(0);
  });

  it('unlimited: usage shown, nothing to run out of', () => {
    expect(featureState('import-limit', null, 12_345)).toEqual({
      slug: 'import-limit',
      value: null,
      feature_usage: 12_345,
      feature_remaining: null,
      can_use_feature: true,
    });
    expect(fits(null, 10 ** 9, 10 ** 9)).toBe(true);
    expect(remainingOf(null, 5)).toBeNull();
  });

  it('a flag is + or -, without usage', () => {
    expect(featureState('manage-team', true, 0)).toMatchObject({ feature_usage: null, can_use_feature: true });
    expect(featureState('short-url-domain', false, 0)).toMatchObject({ can_use_feature: false });
  });

  it('history is a setting, not a count', () => {
    expect(featureState('history-days', 30, 0)).toMatchObject({ feature_usage: null, feature_remaining: null });
  });

  it('an amount fits when usage plus the amount stays within the value', () => {
    expect(fits(10, 0, 10)).toBe(true);
    expect(fits(10, 1, 10)).toBe(false);
    expect(fits(10, 9, 1)).toBe(true);
    expect(fits(0, 0, 1)).toBe(false);
  });
});
