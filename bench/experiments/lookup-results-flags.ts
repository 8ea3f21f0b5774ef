// Decision 041: what migration 0039's trigger on `phone_lookups` (the leads' looked-up / verified
// flags, hence the sources' percentages) adds to a lookup engine's write of a batch of results.
// N leads (default 200,000) with one phone each in a fresh schema; 20 batches of 500 results upserted
// (a transaction each, as the engine writes them) with the trigger, without it, and with it again.
//
//   N=200000 node bench/experiments/lookup-results-flags.ts   (PostgreSQL at 127.0.0.1:5432/test)
import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';

const schema = `l2bench_${process.pid}`;
const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`create schema ${schema}`);
const pool = new pg.Pool({ connectionString: `${base}?options=-c%20search_path%3D${schema},public`, max: 2 });
const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
try {
  await migrateToLatest(db);
  const team = (await sql<{ id: number }>`insert into teams (name) values ('bench') returning id`.execute(db)).rows[0]
    .id;
  const src = (
    await sql<{ id: number }>`insert into sources (team_id, name) values (${team}, 's') returning id`.execute(db)
  ).rows[0].id;
  const list = (
    await sql<{
      id: number;
    }>`insert into lists (team_id, source_id, name) values (${team}, ${src}, 'l') returning id`.execute(db)
  ).rows[0].id;
  const phoneAttr = (
    await sql<{
      id: number;
    }>`select id from lead_attributes where team_id = ${team} and type = 'phone' limit 1`.execute(db)
  ).rows[0].id;
  const N = Number(process.env.N ?? 200000);
  await sql`insert into leads (team_id, source_id, list_id) select ${team}, ${src}, ${list} from generate_series(1, ${N})`.execute(
    db,
  );
  await sql`set herald.bulk_values = 'on'`.execute(db);
  await sql`insert into lead_values (team_id, lead_id, attribute_id, type, value)
    select ${team}, id, ${phoneAttr}, 'phone', '+38050' || lpad(id::text, 7, '0') from leads where team_id = ${team}`.execute(
    db,
  );
  await sql`analyze`.execute(db);
  const batch = 500;
  const rounds = 20;
  async function run(label: string, offset: number) {
    const t0 = performance.now();
    for (let r = 0; r < rounds; r++) {
      const from = offset + r * batch + 1;
      await db.transaction().execute(async (tx) => {
        await sql`insert into phone_lookups (team_id, phone, carrier_type, status_label, carrier_name)
          select ${team}, '+38050' || lpad(g::text, 7, '0'), 'mobile', 'valid', 'Kyivstar'
          from generate_series(${from}::int, ${from + batch - 1}::int) g
          on conflict (team_id, phone) do update set checked_at = now()`.execute(tx);
      });
    }
    const ms = performance.now() - t0;
    console.log(`${label}: ${rounds} batches of ${batch}: ${(ms / rounds).toFixed(1)} ms a batch`);
  }
  await run('with the 0039 trigger', 0);
  await sql`alter table phone_lookups disable trigger user`.execute(db);
  await run('without the 0039 trigger', 20_000);
  await sql`alter table phone_lookups enable trigger user`.execute(db);
  await run('with the 0039 trigger', 40_000);
  const counts =
    await sql`select sum(total)::int total, sum(looked_up)::int looked_up, sum(verified)::int verified from lead_counts where team_id = ${team}`.execute(
      db,
    );
  console.log(N, 'leads; tally', counts.rows[0]);
} finally {
  await db.destroy();
  await admin.query(`drop schema ${schema} cascade`);
  await admin.end();
}
