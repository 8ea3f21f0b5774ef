import { type Kysely, sql } from 'kysely';

// The country a phone written without `+` or `00` is read in first (decision 011). Ukraine, where
// the product started, for every team that exists and every new one until its owner changes it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table teams add column default_country text not null default 'UA'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table teams drop column default_country`.execute(db);
}
