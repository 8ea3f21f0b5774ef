import { type Kysely, sql } from 'kysely';

// SMS templates and alpha names (sender names).
// - Templates belong to a team, except the default ones every team sees: those have no team, are
//   marked default and carry a seed key by which the server names them in the reader's language;
//   nobody edits or deletes them. A template that is not public is seen by its author alone.
// - An alpha name is asked for by a team and waits on review (status 2) until the installation's
//   admins make it active (1) or inactive (0); at most one name of a team is its default.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sms_templates')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type_id', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('public', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('seed_key', 'text', (c) => c.unique())
    .addColumn('params', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('sms_templates_default_has_no_team', sql`is_default = (team_id is null)`)
    .execute();
  await sql`create index sms_templates_team_idx on sms_templates (team_id, created_at desc)`.execute(db);
  await sql`
    insert into sms_templates (name, type_id, message, public, is_default, seed_key) values
      ('Знижка з посиланням', 'promotion', 'Знижка 20% на все до неділі! Деталі: {{link}}', true, true, 'promotion_link'),
      ('Sale in Latin letters', 'promotion', 'Sale -20% until Sunday! Details: {{link}}', true, true, 'promotion_latin'),
      ('Нагадування', 'reminder', 'Нагадуємо про ваш запис. Деталі: {{link}}', true, true, 'reminder'),
      ('Замовлення готове', 'service', 'Ваше замовлення готове до видачі. Деталі: {{link}}', true, true, 'order_ready')
  `.execute(db);

  await db.schema
    .createTable('alpha_names')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'smallint', (c) => c.notNull().defaultTo(2).check(sql`status in (0, 1, 2)`))
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('reviewed_by', 'text')
    .addColumn('reviewed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('alpha_names_default_is_active', sql`not is_default or status = 1`)
    .execute();
  await sql`create unique index alpha_names_team_name_key on alpha_names (team_id, lower(name))`.execute(db);
  await sql`create unique index alpha_names_one_default on alpha_names (team_id) where is_default`.execute(db);
  await sql`create index alpha_names_review_idx on alpha_names (created_at) where status = 2`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('alpha_names').execute();
  await db.schema.dropTable('sms_templates').execute();
}
