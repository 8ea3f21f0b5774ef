import { type Kysely, sql } from 'kysely';

// Lookups: carrier verification of a list's phones (decision 040).
// - `lookups`: one run over a list's phones (type `list`) or a campaign step's recipients (type
//   `campaign_step`); status 0 pending, 1 running, 2 paused, 3 completed (the spec's numbers).
//   `launched_by` pays (the user who last started it). The totals are kept by the engine as items
//   end, so the table and the live event never count items. `rate_per_sec` is the measured pace of
//   the last minute, for `time_left`.
// - `lookup_items`: the work rows, one per distinct phone, claimed in batches with a lease like the
//   campaign messages (jobs/work-claims.ts). `charge_key` is set in the transaction that charged the
//   phone and cleared by the refund after a provider failure, so a re-claimed item reuses the same
//   charge (replayed, not taken twice) and a retried one after a refund is charged anew once.
// - `phone_lookups`: the team's result per phone, in one vocabulary whatever the provider; the
//   newest wins. `origin` says whether a provider answered (`lookup`) or the team's own delivered
//   message proved it (`delivery`, free). Everything that shows results reads it by (team, phone).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('lookups')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('list').check(sql`type in ('list', 'campaign_step')`))
    .addColumn('source_id', 'bigint', (c) => c.references('sources.id').onDelete('cascade'))
    .addColumn('list_id', 'bigint', (c) => c.references('lists.id').onDelete('cascade'))
    .addColumn('campaign_step_id', 'bigint', (c) => c.references('campaign_steps.id').onDelete('cascade'))
    .addColumn('gateway_id', 'bigint', (c) => c.references('gateways.id').onDelete('set null'))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('launched_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('status', 'smallint', (c) => c.notNull().defaultTo(0).check(sql`status between 0 and 3`))
    .addColumn('paused_reason', 'text')
    .addColumn('phones', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reused', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('looked_up', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cost', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('saved', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('rate_per_sec', 'float8')
    .addColumn('process_id', 'bigint', (c) => c.references('processes.id').onDelete('set null'))
    .addColumn('started_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index lookups_team_idx on lookups (team_id, id desc)`.execute(db);
  // What the engine's tick looks at: running lookups.
  await sql`create index lookups_running_idx on lookups (id) where status = 1`.execute(db);

  await db.schema
    .createTable('lookup_items')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('lookup_id', 'bigint', (c) => c.notNull().references('lookups.id').onDelete('cascade'))
    .addColumn('team_id', 'bigint', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`state in ('pending', 'claimed', 'done', 'reused', 'failed')`),
    )
    .addColumn('lease_until', 'timestamptz')
    .addColumn('not_before', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('refunds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('charge_key', 'text')
    .addColumn('error', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index lookup_items_phone_idx on lookup_items (lookup_id, phone)`.execute(db);
  // The claim's scan: a lookup's due pending items.
  await sql`create index lookup_items_due_idx on lookup_items (lookup_id, not_before, id) where state = 'pending'`.execute(
    db,
  );
  await sql`create index lookup_items_claimed_idx on lookup_items (lease_until) where state = 'claimed'`.execute(db);

  await db.schema
    .createTable('phone_lookups')
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('carrier_name', 'text')
    .addColumn('mcc_mnc', 'text')
    .addColumn('carrier_type', 'text', (c) =>
      c.notNull().check(sql`carrier_type in ('mobile', 'landline', 'voip', 'toll_free', 'other')`),
    )
    .addColumn('status_label', 'text', (c) => c.notNull().check(sql`status_label in ('valid', 'invalid', 'unknown')`))
    .addColumn('reachability', 'text', (c) => c.check(sql`reachability in ('connected', 'absent')`))
    .addColumn('ported', 'boolean')
    .addColumn('checked_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('gateway_id', 'bigint', (c) => c.references('gateways.id').onDelete('set null'))
    .addColumn('lookup_id', 'bigint', (c) => c.references('lookups.id').onDelete('set null'))
    .addColumn('origin', 'text', (c) => c.notNull().defaultTo('lookup').check(sql`origin in ('lookup', 'delivery')`))
    .addColumn('cost', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('phone_lookups_pk', ['team_id', 'phone'])
    .execute();
  // The audience filters by carrier type and name read these without a scan of every result.
  await sql`create index phone_lookups_type_idx on phone_lookups (team_id, carrier_type, phone)`.execute(db);
  await sql`create index phone_lookups_name_idx on phone_lookups (team_id, lower(carrier_name), phone)`.execute(db);

  // How long a result stays fresh (reused, not charged); null: the installation's default.
  await sql`alter table teams add column if not exists lookup_fresh_days integer
    check (lookup_fresh_days between 0 and 3650)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table teams drop column if exists lookup_fresh_days`.execute(db);
  await db.schema.dropTable('phone_lookups').ifExists().execute();
  await db.schema.dropTable('lookup_items').ifExists().execute();
  await db.schema.dropTable('lookups').ifExists().execute();
}
