import { type Kysely, sql } from 'kysely';

// Short links (`{{link}}`, `{{unsubscribe}}`) and a team's own short-link domains.
// - A code is unique across the installation, so a redirect finds its link by the code alone, on
//   any host; the host it was made for is kept to check the request's Host.
// - `message_id` is a plain column, not a foreign key: the messages table comes in a later
//   migration, and a link outliving its message only stops counting.
// - A link's first human click (`first_clicked_at`) is the engagement the filters and campaign
//   statistics read; later human clicks and the hits of bots and scanners are only counted.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('short_url_domains')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index short_url_domains_team_url_key on short_url_domains (team_id, url)`.execute(db);

  await db.schema
    .createTable('short_links')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('lead_id', 'bigint')
    .addColumn('message_id', 'bigint')
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('link', 'unsubscribe')`))
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('redirect_to', 'text')
    .addColumn('phone', 'text')
    .addColumn('human_clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('other_hits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('first_clicked_at', 'timestamptz')
    .addColumn('unsubscribed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('short_links_link_has_target', sql`kind <> 'link' or redirect_to is not null`)
    .execute();
  // Engagement by lead and period ("clicked in the last 30 days"), and a message's links.
  await sql`create index short_links_engaged_idx on short_links (team_id, lead_id, first_clicked_at) where first_clicked_at is not null`.execute(
    db,
  );
  await sql`create index short_links_message_idx on short_links (message_id) where message_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('short_links').execute();
  await db.schema.dropTable('short_url_domains').execute();
}
