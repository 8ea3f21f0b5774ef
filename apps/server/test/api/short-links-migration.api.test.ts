import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { type Kysely, sql } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../../src/db/database.ts';
import type { DB } from '../../src/db/schema.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { databases } from '../support/test-app.ts';

const folder = new URL('../../src/db/migrations/', import.meta.url);

/** The migrations as the app loads them, to stop just before 0028 as an installation of the day before would be. */
async function migrations(): Promise<Record<string, Migration>> {
  const files = (await readdir(folder)).filter((f) => /^\d{4}_[\w-]+\.ts$/.test(f)).sort();
  const out: Record<string, Migration> = {};
  for (const f of files) out[f.replace(/\.ts$/, '')] = await import(new URL(f, folder).href);
  return out;
}

/** Migration 0028 on an installation that has short-URL domains already (decision 028, "Existing domains"). */
describe.each(databases)('short-URL domains before and after migration 0028 on %s', (kind) => {
  let database: Database;
  let db: Kysely<DB>;
  let schema: string | undefined;

  beforeAll(async () => {
    let url: string | undefined;
    if (kind === 'postgres') {
      schema = `t_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query(`create schema ${schema}`);
      await client.end();
      const u = new URL(process.env.TEST_DATABASE_URL as string);
      u.searchParams.set('options', `-c search_path=${schema},public`);
      url = u.toString();
    }
    database = createDatabase({ DATABASE_URL: url, DATA_DIR: ':memory:', DB_POOL_SIZE: 2 });
    db = database.db;
  });
  afterAll(async () => {
    await database?.close();
    if (schema) {
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    }
  });

  it('keeps the first team’s row of a host two teams held, and leaves every domain unverified with its own token', async () => {
    const all = await migrations();
    const before = Object.keys(all)
      .filter((name) => name < '0028')
      .at(-1) as string;
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => all },
      migrationTableSchema: rows[0].schema,
    });
    const { error } = await migrator.migrateTo(before);
    expect(error).toBeUndefined();

    const [a, b] = await db
      .insertInto('teams')
      .values([{ name: 'A' }, { name: 'B' }])
      .returning('id')
      .execute();
    // Team A added the host first; team B added it later, and a host of its own.
    await db
      .insertInto('short_url_domains')
      .values([
        { team_id: a.id, url: 'go.brand.example.ua', created_at: new Date('2026-01-01') },
        { team_id: b.id, url: 'go.brand.example.ua', created_at: new Date('2026-02-01') },
        { team_id: b.id, url: 'go.other.example.ua', created_at: new Date('2026-02-02') },
      ])
      .execute();

    await migrateToLatest(db as unknown as Kysely<unknown>);
    const after = await db
      .selectFrom('short_url_domains')
      .select(['team_id', 'url', 'verify_token', 'verified_at', 'failed_checks', 'lost_at'])
      .orderBy('id')
      .execute();
    expect(after.map((r) => [Number(r.team_id), r.url])).toEqual([
      [Number(a.id), 'go.brand.example.ua'],
      [Number(b.id), 'go.other.example.ua'],
    ]);
    for (const row of after) {
      expect(row).toMatchObject({ verified_at: null, failed_checks: 0, lost_at: null });
      expect(row.verify_token).toMatch(/^[0-9a-f]{32}$/);
    }
    expect(after[0].verify_token).not.toBe(after[1].verify_token);
  });
});
