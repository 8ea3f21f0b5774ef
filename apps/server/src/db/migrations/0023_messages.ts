import { type Kysely, sql } from 'kysely';

// Sent messages and opt-outs (decision 020).
// - One row per recipient message, written (and charged) before the gateway is called: a crash
//   leaves a row that says how far the send got, so nothing is sent twice. `state` is the send
//   path's (pending → claimed → submitted | unknown | failed); `status` the carrier's, moved only
//   forwards by the rank rule. A campaign's step sends one message to a lead: a partial unique key.
// - No foreign key to leads: leads are deleted in large batches, and a message outlives its lead
//   in the ledger's terms (the charge stays). The lead id is kept for the Timeline.
// - Opt-outs: phones a team may not send to (an inbound STOP), whether or not a lead holds them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('messages')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('lead_id', 'bigint')
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('single', 'campaign_step')`))
    .addColumn('campaign_id', 'bigint')
    .addColumn('campaign_step_id', 'bigint')
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('gateway_id', 'bigint', (c) => c.references('gateways.id').onDelete('set null'))
    .addColumn('sender', 'text')
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('parts', 'integer', (c) => c.notNull())
    .addColumn('encoding', 'text', (c) => c.notNull())
    .addColumn('price', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('charge_key', 'text', (c) => c.notNull())
    .addColumn('client_key', 'text')
    .addColumn('state', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`state in ('pending', 'claimed', 'submitted', 'unknown', 'failed')`),
    )
    .addColumn('lease_until', 'timestamptz')
    .addColumn('status', 'text')
    .addColumn('provider_message_id', 'text')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('submitted_at', 'timestamptz')
    .addColumn('status_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index messages_provider_key on messages (gateway_id, provider_message_id) where provider_message_id is not null`.execute(
    db,
  );
  await sql`create unique index messages_step_lead_key on messages (campaign_step_id, lead_id) where campaign_step_id is not null`.execute(
    db,
  );
  await sql`create unique index messages_client_key on messages (team_id, user_id, client_key) where client_key is not null`.execute(
    db,
  );
  await sql`create unique index messages_charge_key on messages (team_id, charge_key)`.execute(db);
  await sql`create index messages_lead_idx on messages (team_id, lead_id)`.execute(db);
  // What the sweep and the poll look at: rows whose outcome is still open.
  await sql`create index messages_open_idx on messages (state, lease_until) where state in ('pending', 'claimed', 'unknown')`.execute(
    db,
  );

  await db.schema
    .createTable('message_opt_outs')
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('gateway_id', 'bigint', (c) => c.references('gateways.id').onDelete('set null'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('message_opt_outs_pkey', ['team_id', 'phone'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('message_opt_outs').execute();
  await db.schema.dropTable('messages').execute();
}
