import type { Kysely } from 'kysely';

// Short-lived, single-use tickets that stand in for the session token where a browser cannot send a
// header (EventSource, a download link), so the token never appears in a URL. Only hashes are stored;
// in the database, so any API process can redeem a ticket another one issued.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('access_tickets')
    .addColumn('ticket_hash', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('access_tickets_expires_idx').on('access_tickets').column('expires_at').execute();
  await db.schema.createIndex('access_tickets_session_idx').on('access_tickets').column('session_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('access_tickets').execute();
}
