import { type Kysely, sql } from 'kysely';

// Delivery reports that arrive before their row can take them, and replies heard once (decision 025).
// - `message_reports_kept`: a verified report whose message row is still being sent (pending or
//   claimed) or has not stored the provider's id yet. It is applied when the row settles, never
//   dropped: every provider is answered 200 and would not send it again. `message_id` is the row
//   the callback's URL named; `row_signed` says whether the provider's signature (or our own hook
//   token) covers that name, so the report may bind the row to its provider id.
// - `message_inbound`: every verified reply, once per provider message id (a replayed event adds no
//   second Timeline entry), its text stored as far as the database can store it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('message_reports_kept')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('gateway_id', 'bigint', (c) => c.notNull().references('gateways.id').onDelete('cascade'))
    .addColumn('message_id', 'bigint')
    .addColumn('row_signed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('provider_message_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('provider_status', 'text', (c) => c.notNull())
    .addColumn('error_code', 'text')
    .addColumn('reported_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index message_reports_kept_provider_idx on message_reports_kept (gateway_id, provider_message_id)`.execute(
    db,
  );
  await sql`create index message_reports_kept_message_idx on message_reports_kept (message_id) where message_id is not null`.execute(
    db,
  );
  await sql`create index message_reports_kept_age_idx on message_reports_kept (created_at)`.execute(db);

  await db.schema
    .createTable('message_inbound')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('gateway_id', 'bigint', (c) => c.references('gateways.id').onDelete('set null'))
    .addColumn('provider_message_id', 'text')
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('opt_out', 'boolean', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index message_inbound_provider_key on message_inbound (gateway_id, provider_message_id) where provider_message_id is not null`.execute(
    db,
  );
  await sql`create index message_inbound_phone_idx on message_inbound (team_id, phone)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('message_inbound').execute();
  await db.schema.dropTable('message_reports_kept').execute();
}
