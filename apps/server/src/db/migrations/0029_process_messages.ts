import { type Kysely, sql } from 'kysely';

// A process's message becomes `{code, params}` (jsonb) instead of a string the web took apart with
// a regex (`leads_failed:<count>:<import id>`, `export:<id>`, a failure's code), and a process can
// be `paused` (a campaign waiting for its owner or for money): decision 026.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table processes alter column message type jsonb using (case
      when message is null then null
      when message ~ '^leads_failed:[0-9]+:[0-9]+$' then jsonb_build_object('code', 'leads_failed', 'params',
        jsonb_build_object('count', split_part(message, ':', 2)::bigint, 'import_id', split_part(message, ':', 3)::bigint))
      when message ~ '^export:[0-9]+$' then jsonb_build_object('code', 'export_ready', 'params',
        jsonb_build_object('export_id', split_part(message, ':', 2)::bigint))
      when message ~ '^[a-z][a-z0-9_]*$' then jsonb_build_object('code', message, 'params', '{}'::jsonb)
      else jsonb_build_object('code', 'job_failed', 'params', '{}'::jsonb)
    end)`.execute(db);
  await sql`alter table processes drop constraint processes_status_check, add constraint processes_status_check
    check (status in ('queued', 'running', 'paused', 'resolving', 'failing', 'cancelling', 'completed', 'failed',
      'cancelled'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update processes set status = 'running' where status = 'paused'`.execute(db);
  await sql`alter table processes drop constraint processes_status_check, add constraint processes_status_check
    check (status in ('queued', 'running', 'resolving', 'failing', 'cancelling', 'completed', 'failed',
      'cancelled'))`.execute(db);
  await sql`alter table processes alter column message type text using (case
      when message is null then null
      when message->>'code' = 'leads_failed'
        then 'leads_failed:' || (message->'params'->>'count') || ':' || (message->'params'->>'import_id')
      when message->>'code' = 'export_ready' then 'export:' || (message->'params'->>'export_id')
      else message->>'code'
    end)`.execute(db);
}
