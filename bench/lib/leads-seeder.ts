import { type Kysely, sql } from 'kysely';
import type { DB } from '../../apps/server/src/db/schema.ts';

export interface SeedOptions {
  teamId: number;
  leads: number;
  sources?: number;
  listsPerSource?: number;
  /** Share of leads whose phone another lead also has (DESIGN's import bar uses 5%). */
  duplicateShare?: number;
  /**
   * VACUUM instead of a bare ANALYZE at the end: the state autovacuum leaves a PostgreSQL table in
   * a minute after a big insert (visibility map set, so index-only scans skip the heap). The bench
   * server runs with autovacuum off, so without this the tables stay as no deployment keeps them.
   * Leave it off for the embedded database, which has no autovacuum and which the app never vacuums.
   */
  vacuum?: boolean;
}

/**
 * Loads realistic leads quickly with set-based SQL (the same on PGlite and PostgreSQL): sources and
 * lists, leads spread over the last 60 days, one phone (Ukrainian mobile, `duplicateShare` of them
 * shared with another lead), one e-mail and a city each; then `duplicates` as the app defines it.
 */
export async function seedLeads(
  db: Kysely<DB>,
  options: SeedOptions,
): Promise<{ sourceIds: number[]; listIds: number[] }> {
  const { teamId, leads } = options;
  const sourceCount = options.sources ?? 10;
  const listsPerSource = options.listsPerSource ?? 5;
  const distinctPhones = Math.max(1, Math.round(leads * (1 - (options.duplicateShare ?? 0.05))));

  const sources = await sql<{ id: number }>`
    insert into sources (team_id, name)
    select ${teamId}, 'Source ' || g from generate_series(1, ${sourceCount}) g returning id`.execute(db);
  const sourceIds = sources.rows.map((r) => Number(r.id));
  const lists = await sql<{ id: number; source_id: number }>`
    insert into lists (team_id, source_id, name)
    select ${teamId}, s, 'List ' || s || '-' || g from unnest(${sourceIds}::bigint[]) s, generate_series(1, ${listsPerSource}) g
    returning id, source_id`.execute(db);
  const listIds = lists.rows.map((r) => Number(r.id));
  const listSources = lists.rows.map((r) => Number(r.source_id));

  const city = await sql<{ id: number }>`
    insert into lead_attributes (team_id, name, slug, type, sort_order) values (${teamId}, 'City', 'city', 'string', 5)
    on conflict (team_id, slug) do update set name = excluded.name returning id`.execute(db);
  const attrs = await sql<{ id: number; slug: string; presence_bit: number | null }>`
    select id, slug, presence_bit from lead_attributes where team_id = ${teamId} and slug in ('phone', 'email', 'city')`.execute(
    db,
  );
  // Every lead gets a phone, an e-mail and a city: their presence bits go in with the lead, and the
  // value inserts below skip the trigger that would otherwise update every lead once more.
  const mask = attrs.rows.reduce((m, a) => (a.presence_bit === null ? m : m | (1n << BigInt(a.presence_bit))), 0n);
  const phoneAttr = attrs.rows.find((a) => a.slug === 'phone')?.id;
  const emailAttr = attrs.rows.find((a) => a.slug === 'email')?.id;

  const batch = 100_000;
  for (let start = 1; start <= leads; start += batch) {
    const end = Math.min(leads, start + batch - 1);
    await db.transaction().execute(async (tx) => {
      await sql`
        insert into leads (team_id, source_id, list_id, status, value_mask, created_at, updated_at)
        select ${teamId}, (${listSources}::bigint[])[1 + g % ${listIds.length}], (${listIds}::bigint[])[1 + g % ${listIds.length}],
          case when g % 53 = 0 then 'blacklisted' when g % 97 = 0 then 'flagged' else 'active' end, ${mask.toString()}::bigint,
          now() - (g % 60) * interval '1 day' - (g % 86400) * interval '1 second',
          now() - (g % 60) * interval '1 day'
        from generate_series(${start}::int, ${end}::int) g`.execute(tx);
    });
  }
  // Values are numbered by the leads' order, so phone n is shared by leads n and n + distinctPhones.
  await db.transaction().execute(async (tx) => {
    await sql`set local herald.bulk_values = 'on'`.execute(tx);
    await sql`
      insert into lead_values (team_id, lead_id, attribute_id, type, value)
      select ${teamId}, id, ${phoneAttr}, 'phone', '+38050' || lpad(((rn - 1) % ${distinctPhones})::text, 7, '0')
      from (select id, row_number() over (order by id) rn from leads where team_id = ${teamId}) l`.execute(tx);
    await sql`
      insert into lead_values (team_id, lead_id, attribute_id, type, value)
      select ${teamId}, id, ${emailAttr}, 'email', 'lead' || id || '@example.com' from leads where team_id = ${teamId}`.execute(
      tx,
    );
    await sql`
      insert into lead_values (team_id, lead_id, attribute_id, type, value)
      select ${teamId}, id, ${city.rows[0].id}, 'string', (array['Kyiv','Lviv','Odesa','Dnipro','Kharkiv','Київ','Львів'])[1 + id % 7]
      from leads where team_id = ${teamId}`.execute(tx);
  });
  await sql`
    with d as (
      select value, count(*) - 1 as n from lead_values
      where team_id = ${teamId} and type = 'phone' group by value having count(*) > 1
    )
    update leads l set duplicates = d.n
    from lead_values v join d on d.value = v.value
    where v.team_id = ${teamId} and v.type = 'phone' and v.lead_id = l.id`.execute(db);
  await sql`update teams set data_version = data_version + 1 where id = ${teamId}`.execute(db);
  const maintain = sql.raw(options.vacuum ? 'vacuum analyze' : 'analyze');
  await sql`${maintain} leads`.execute(db);
  await sql`${maintain} lead_values`.execute(db);
  return { sourceIds, listIds };
}
