import { type Kysely, sql } from 'kysely';

// Plans and subscriptions (decision 015). The plan catalogue is a file, not a table: an
// installation replaces it without a migration, and a subscription names its plan by the
// catalogue's id. A team has at most one current subscription (ended_at null); a replaced or
// lapsed one keeps its row, with when and why it ended. Usage of a feature is never stored as a
// counter: it is counted from the data (sources, lists, leads, imports, …) when asked, so only
// what has no other trace is kept here: the uses the subscription test records, and what a
// running import has claimed of the import limit.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('plan_id', 'integer', (c) => c.notNull())
    .addColumn('plan_slug', 'text', (c) => c.notNull())
    .addColumn('activated_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('period_starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    .addColumn('renewals', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ended_at', 'timestamptz')
    .addColumn('end_reason', 'text', (c) => c.check(sql`end_reason in ('replaced', 'not_renewed')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('subscriptions_period_check', sql`ends_at > period_starts_at`)
    .execute();
  // One current subscription a team: a second activation racing the first fails here.
  await sql`create unique index subscriptions_current_key on subscriptions (team_id) where ended_at is null`.execute(
    db,
  );
  // The renewal job's question: current subscriptions whose period is over.
  await sql`create index subscriptions_due_idx on subscriptions (ends_at) where ended_at is null`.execute(db);

  // Uses of a period feature that leave no other trace (the subscription test's "import 10").
  await db.schema
    .createTable('plan_feature_uses')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('feature', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('plan_feature_uses_team_idx')
    .on('plan_feature_uses')
    .columns(['team_id', 'feature', 'created_at'])
    .execute();

  // What a dispatched import has claimed of the import limit while it runs. It counts only while
  // its import is unfinished; a completed import counts by its leads, a failed or cancelled one
  // not at all, so a run that dies never leaves a claim behind.
  await db.schema
    .createTable('import_allowances')
    .addColumn('import_file_id', 'bigint', (c) => c.primaryKey().references('import_files.id').onDelete('cascade'))
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('claimed', 'integer', (c) => c.notNull().defaultTo(0).check(sql`claimed >= 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('import_allowances_team_idx').on('import_allowances').column('team_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('import_allowances').execute();
  await db.schema.dropTable('plan_feature_uses').execute();
  await db.schema.dropTable('subscriptions').execute();
}
