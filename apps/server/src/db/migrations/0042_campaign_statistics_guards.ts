import { type Kysely, sql } from 'kysely';

// The summary's triggers (migration 0037, decision 037) run their set-based delta for every
// statement on `messages` and `short_links`, also for the many that cannot move a figure: the
// dispatch's claim (pending → claimed, one key "queued"), its stamp of the call time, a single SMS's
// report, a click on a link no campaign made. Each still planned and ran the whole delta over empty
// sets: about 15 % of the dispatch's statement time on PostgreSQL and 71 % on the embedded database.
// A guard at the top of each function now returns at once when no row of the statement can move the
// summary. PostgreSQL refuses a column list (`update of …`) on a trigger with transition tables, so
// the guard reads the transition tables itself; it is one scan of them, against the delta's several.
//
// The functions' bodies stay those of 0037: the guard is put in front of them here, and taken out by
// `down`.

/** A campaign message row whose summary key or values may have moved. */
const MESSAGE_MOVED = `(n.campaign_step_id is not null or o.campaign_step_id is not null)
  and (o.campaign_id, o.campaign_step_id, o.gateway_id, o.sender) is distinct from
      (n.campaign_id, n.campaign_step_id, n.gateway_id, n.sender)
  or (n.campaign_step_id is not null or o.campaign_step_id is not null)
  and not (o.state in ('pending', 'claimed') and n.state in ('pending', 'claimed'))
  and (o.state, o.error_code, o.status, o.parts, o.price, o.refunded_at, o.status_at) is distinct from
      (n.state, n.error_code, n.status, n.parts, n.price, n.refunded_at, n.status_at)`;

const GUARDS: Array<[string, string]> = [
  ['herald_campaign_stats_msg_ins', `not exists (select 1 from new_rows where campaign_step_id is not null)`],
  [
    'herald_campaign_stats_msg_upd',
    `not exists (select 1 from new_rows n join old_rows o on o.id = n.id where ${MESSAGE_MOVED})`,
  ],
  ['herald_campaign_stats_msg_del', `not exists (select 1 from old_rows where campaign_step_id is not null)`],
  [
    'herald_campaign_stats_link_upd',
    `not exists (select 1 from new_rows n join old_rows o on o.id = n.id
      join messages m on m.id = n.message_id and m.campaign_step_id is not null
      where o.first_clicked_at is distinct from n.first_clicked_at or o.human_clicks <> n.human_clicks
        or o.other_hits <> n.other_hits or o.unsubscribed_at is distinct from n.unsubscribed_at)`,
  ],
];

const guardText = (guard: string) => ` if ${guard} then return null; end if;`;

async function bodyOf(db: Kysely<unknown>, name: string): Promise<string> {
  // By the search path, as the trigger finds it: other schemas may hold functions of the same name.
  const r = await sql<{
    prosrc: string;
  }>`select prosrc from pg_proc where oid = to_regprocedure(${`${name}()`})`.execute(db);
  const src = r.rows[0]?.prosrc;
  if (!src || !/^\s*begin\b/.test(src)) throw new Error(`migration 0042: ${name} is not migration 0037's function`);
  return src;
}

async function replace(db: Kysely<unknown>, name: string, body: string) {
  await sql
    .raw(`create or replace function ${name}() returns trigger language plpgsql as $herald$${body}$herald$`)
    .execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, guard] of GUARDS) {
    const src = await bodyOf(db, name);
    await replace(
      db,
      name,
      src.replace(/^\s*begin\b/, (b) => `${b}${guardText(guard)}`),
    );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name, guard] of GUARDS) {
    const src = await bodyOf(db, name);
    await replace(db, name, src.replace(guardText(guard), ''));
  }
}
