import { type Kysely, sql } from 'kysely';

// Short-URL domains are proven before they serve links (decision 028).
// - A host belongs to one team of the installation: where two teams held the same host, the
//   earlier row keeps it and the later ones go (their links stay reachable on the app's own host).
// - Every domain gets a verification token and starts unverified, the ones already in use too:
//   nothing proved them. The first check after start verifies those that already point at this
//   app or hold the TXT record, so a team that did set its domain up loses nothing but minutes.
// - `failed_checks` counts re-checks that failed in a row; `lost_at` says when a verified domain
//   stopped proving and was taken out of use, which the settings tab tells the team.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from short_url_domains d
    using short_url_domains first
    where first.url = d.url and first.id < d.id`.execute(db);
  await sql`drop index short_url_domains_team_url_key`.execute(db);
  await sql`create unique index short_url_domains_url_key on short_url_domains (url)`.execute(db);
  await db.schema
    .alterTable('short_url_domains')
    .addColumn('verify_token', 'text', (c) => c.notNull().defaultTo(sql`replace(gen_random_uuid()::text, '-', '')`))
    .addColumn('verified_at', 'timestamptz')
    .addColumn('checked_at', 'timestamptz')
    .addColumn('failed_checks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lost_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('short_url_domains')
    .dropColumn('verify_token')
    .dropColumn('verified_at')
    .dropColumn('checked_at')
    .dropColumn('failed_checks')
    .dropColumn('lost_at')
    .execute();
  await sql`drop index short_url_domains_url_key`.execute(db);
  await sql`create unique index short_url_domains_team_url_key on short_url_domains (team_id, url)`.execute(db);
}
