import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

/** Migration 0036 (decision 040): the lookups tables and their rules hold on both databases. */
describe.each(databases)('lookups tables on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a result outside the one vocabulary and a second item for one phone of a lookup', async () => {
    const db = t.app.services.database.db;
    const team = await sql<{ id: number }>`insert into teams (name) values ('lookup schema') returning id`.execute(db);
    const teamId = Number(team.rows[0].id);
    const ok = sql`insert into phone_lookups (team_id, phone, carrier_type, status_label) values (${teamId}, '+380671234567', 'mobile', 'valid')`;
    await ok.execute(db);
    await expect(
      sql`insert into phone_lookups (team_id, phone, carrier_type, status_label) values (${teamId}, '+380671234568', 'cell', 'valid')`.execute(
        db,
      ),
    ).rejects.toThrow();
    await expect(ok.execute(db)).rejects.toThrow();
    const lookup = await sql<{
      id: number;
      status: number;
    }>`insert into lookups (team_id) values (${teamId}) returning id, status`.execute(db);
    expect(lookup.rows[0].status).toBe(0);
    const id = lookup.rows[0].id;
    const item = sql`insert into lookup_items (lookup_id, team_id, phone) values (${id}, ${teamId}, '+380671234567')`;
    await item.execute(db);
    await expect(item.execute(db)).rejects.toThrow();
    await expect(sql`update lookups set status = 4 where id = ${id}`.execute(db)).rejects.toThrow();
  });
});
