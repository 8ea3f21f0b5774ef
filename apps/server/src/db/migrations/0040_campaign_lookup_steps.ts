import { type Kysely, sql } from 'kysely';

// Campaign steps of type lookup (decision 041, "A lookup step"):
// - `campaign_steps.gateway_id`: the allow_lookup gateway a lookup step looks phones up through
//   (an SMS step sends through its campaign's gateway and leaves it null).
// - one lookup per step at most: the engine makes a step's lookup outside the campaign's
//   transaction, and a crash or a second worker between must find the first one, not make another.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table campaign_steps add column if not exists gateway_id bigint
    references gateways(id) on delete set null`.execute(db);
  await sql`create unique index if not exists lookups_campaign_step_key on lookups (campaign_step_id)
    where campaign_step_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists lookups_campaign_step_key`.execute(db);
  await sql`alter table campaign_steps drop column if exists gateway_id`.execute(db);
}
