import type { Kysely } from 'kysely';

// Demo requests from the menu's Request demo. Each is kept, whether it goes on to the installation's
// form service or to its support mailbox, so none is lost when either is down: `delivered_at`
// stays empty until the delivery job has handed it on, and `delivered_to` says where.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('demo_requests')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('team_id', 'bigint', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('uk'))
    .addColumn('delivered_to', 'text')
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(db.fn('now')))
    .execute();
  await db.schema.createIndex('demo_requests_team_idx').on('demo_requests').column('team_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('demo_requests').execute();
}
