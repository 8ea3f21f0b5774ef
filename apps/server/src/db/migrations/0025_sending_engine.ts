import { type Kysely, sql } from 'kysely';

// The sending engine (decision 024).
// - `called_at`: the moment a row's gateway call began. A claim that ran out before it goes back to
//   `pending` (nothing can have been sent); one that ran out after it is `unknown` and reconciled.
// - `not_before`: when a pending row is due (a 429's Retry-After, a retry's backoff, later a
//   campaign's schedule); `attempt`: claims so far, which bounds retries.
// - `refunded_at`: the charge of a row that ended without a send was given back (billing's own key
//   makes the refund once; this only spares asking again).
// - A campaign step sends one message per phone, whichever leads hold it.
// - `rate_buckets`: token buckets every worker shares (jobs/rate-buckets.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table messages
    add column called_at timestamptz,
    add column not_before timestamptz not null default now(),
    add column attempt integer not null default 0,
    add column refunded_at timestamptz`.execute(db);
  await sql`drop index messages_step_lead_key`.execute(db);
  await sql`create unique index messages_step_phone_key on messages (campaign_step_id, phone) where campaign_step_id is not null`.execute(
    db,
  );
  // What a dispatch claims: pending rows by due time.
  await sql`create index messages_due_idx on messages (not_before, id) where state = 'pending'`.execute(db);
  // What the sweep reconciles and refunds: unknown rows by the moment their call began.
  await sql`create index messages_unknown_idx on messages (called_at) where state = 'unknown' and refunded_at is null`.execute(
    db,
  );

  await db.schema
    .createTable('rate_buckets')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('tokens', 'float8', (c) => c.notNull())
    .addColumn('rate', 'float8', (c) => c.notNull())
    .addColumn('burst', 'float8', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`clock_timestamp()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_buckets').execute();
  await sql`drop index messages_unknown_idx`.execute(db);
  await sql`drop index messages_due_idx`.execute(db);
  await sql`drop index messages_step_phone_key`.execute(db);
  await sql`create unique index messages_step_lead_key on messages (campaign_step_id, lead_id) where campaign_step_id is not null`.execute(
    db,
  );
  await sql`alter table messages drop column called_at, drop column not_before, drop column attempt, drop column refunded_at`.execute(
    db,
  );
}
