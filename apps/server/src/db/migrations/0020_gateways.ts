import { type Kysely, sql } from 'kysely';

// SMS gateways of a team. Secrets live sealed in `credentials` (AES-256-GCM, key outside the
// database) and the rest in `params`, so the list can show a gateway without opening its seal.
// At most one default per team, held by the database so two concurrent saves cannot make two.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table gateways (
      id bigint generated always as identity primary key,
      team_id bigint not null references teams (id) on delete cascade,
      name text not null,
      type text not null,
      active boolean not null default true,
      is_default boolean not null default false,
      allow_lookup boolean not null default false,
      params jsonb not null default '{}'::jsonb,
      credentials text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index gateways_team_idx on gateways (team_id, id)`.execute(db);
  await sql`create unique index gateways_one_default_idx on gateways (team_id) where is_default`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table gateways`.execute(db);
}
