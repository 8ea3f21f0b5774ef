import { type Kysely, sql } from 'kysely';

// Campaigns (decision 031).
// - `campaigns`: the settings a user edits and the status the engine moves (the moves and the
//   editing rules are one table, `@herald/shared/campaigns/campaign-moves`). `launched_by` is who
//   pays: set when the campaign is scheduled or started, never the creator by default.
// - `campaign_audiences`: the segments, sources and lists whose leads the campaign reaches. No
//   foreign key on `ref_id` (it names one of three tables); the service checks the team.
// - `campaign_steps`: the messages in order. `send_by_minutes`: after the step's own start, a
//   message not yet handed to the gateway is cancelled and not charged.
// - `campaign_recipients`: one row per audience lead, fixed when the campaign starts (the preview
//   computes the same rows without writing). `skip_reason` null means "to send"; the partial unique
//   key makes one message per phone, so one person with two leads gets one message. Rows are per
//   lead, not per phone, so that every lead of the audience is in exactly one bucket and the
//   buckets add up to the audience; leads without a valid phone keep `phone` null.
// - `campaign_logs`: what users and the engine did, shown on the campaign's Logs tab.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('campaigns')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('launched_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('draft')
        .check(
          sql`status in ('draft', 'scheduled', 'processing', 'active', 'paused', 'completed', 'failed', 'rejected')`,
        ),
    )
    .addColumn('gateway_id', 'bigint', (c) => c.references('gateways.id').onDelete('set null'))
    .addColumn('sender', 'text')
    .addColumn('timezone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('start_at', 'timestamptz')
    .addColumn('frequency_per_minute', 'integer', (c) => c.notNull().defaultTo(60).check(sql`frequency_per_minute > 0`))
    .addColumn('quiet_hours', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('quiet_from', 'time', (c) => c.notNull().defaultTo('21:00'))
    .addColumn('quiet_to', 'time', (c) => c.notNull().defaultTo('09:00'))
    .addColumn('paused_reason', 'text')
    .addColumn('failed_reason', 'text')
    .addColumn('started_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await sql`create index campaigns_team_idx on campaigns (team_id, id desc)`.execute(db);
  // What the engine's tick looks at: campaigns that are due or under way.
  await sql`create index campaigns_open_idx on campaigns (status, start_at) where status in ('scheduled', 'processing', 'active')`.execute(
    db,
  );

  await db.schema
    .createTable('campaign_audiences')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('campaign_id', 'bigint', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('segment', 'source', 'list')`))
    .addColumn('ref_id', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('campaign_audiences_ref_key', ['campaign_id', 'kind', 'ref_id'])
    .execute();

  await db.schema
    .createTable('campaign_steps')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('campaign_id', 'bigint', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('sms').check(sql`type in ('sms', 'lookup')`))
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('redirect_to', 'text')
    .addColumn('short_url_domain_id', 'bigint', (c) => c.references('short_url_domains.id').onDelete('set null'))
    .addColumn('delay_minutes', 'integer', (c) => c.notNull().defaultTo(0).check(sql`delay_minutes >= 0`))
    .addColumn('limit_cap', 'integer', (c) => c.check(sql`limit_cap > 0`))
    .addColumn('send_by_minutes', 'integer', (c) => c.check(sql`send_by_minutes > 0`))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('not_sent').check(sql`status in ('not_sent', 'preparing', 'sending', 'sent')`),
    )
    .addColumn('recipients_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('started_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // Deferred: deleting a step renumbers the later ones in one statement.
    .addUniqueConstraint('campaign_steps_position_key', ['campaign_id', 'position'], (c) =>
      c.deferrable().initiallyDeferred(),
    )
    .execute();

  await db.schema
    .createTable('campaign_recipients')
    .addColumn('campaign_id', 'bigint', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('lead_id', 'bigint', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('skip_reason', 'text', (c) =>
      c.check(
        sql`skip_reason in ('blacklisted', 'opted_out', 'banned', 'ignored_format', 'no_valid_phone', 'duplicate_phone', 'capped', 'limit_cap')`,
      ),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('campaign_recipients_pkey', ['campaign_id', 'lead_id'])
    .execute();
  await sql`create unique index campaign_recipients_phone_key on campaign_recipients (campaign_id, phone) where skip_reason is null`.execute(
    db,
  );
  // The lead detail's campaign chips.
  await sql`create index campaign_recipients_lead_idx on campaign_recipients (team_id, lead_id)`.execute(db);

  await db.schema
    .createTable('campaign_logs')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('campaign_id', 'bigint', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index campaign_logs_campaign_idx on campaign_logs (campaign_id, id desc)`.execute(db);
  // A campaign's messages, for its statistics and the engine's progress.
  await sql`create index messages_campaign_idx on messages (campaign_id, state) where campaign_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index messages_campaign_idx`.execute(db);
  await db.schema.dropTable('campaign_logs').execute();
  await db.schema.dropTable('campaign_recipients').execute();
  await db.schema.dropTable('campaign_steps').execute();
  await db.schema.dropTable('campaign_audiences').execute();
  await db.schema.dropTable('campaigns').execute();
}
