import { type Kysely, sql } from 'kysely';

// A campaign's people across its steps kept as a summary (decision 037, "People across steps"): a
// phone counted once however many of the campaign's messages reached it: sent, delivered, clicked
// (a human click on a link), engaged (clicked or unsubscribed), unsubscribed (by the message's link:
// the campaign's link opt-outs). `statistic` counted them with count(distinct phone) over every
// message and its links: about a second on 1,000,000 recipients, every 5 s while the screen is open.
//
// - `campaign_statistics_phones`: per campaign and phone, how many of its messages are in each
//   state now (not a flag): a count may go down as well as up (a row moved or deleted by hand, an
//   unsubscribe taken back), and the figure stays exact whatever the order of the writes.
// - `campaign_statistics_people`: per campaign, how many phones have each count above zero.
//
// The same statement-level triggers' transition tables as 0037 feed them, in the statement that
// moves the rows: each phone's count is upserted with the statement's delta, and RETURNING gives its
// new value under the row lock, so `new - delta` is the value this statement replaced; a phone is
// added to (or taken from) the campaign's people only when its count crosses zero here. Two
// statements on one phone wait for each other's row lock and each sees the other's result: no
// update is lost, and no crossing is counted twice. Locks are taken in one order (phones sorted,
// then the campaign's row), so concurrent statements do not deadlock on them.
//
// Guards as in 0042: each function returns at once when no row of the statement moves a person (a
// claim, a call stamp, an intermediate report, a repeated click on a clicked link, a bot's hit).

/** A message row `x` of a campaign step: its phone, and whether it counts as sent and delivered. */
const sentOf = (x: string) => `(${x}.state = 'submitted')`;
const deliveredOf = (x: string) => `(${x}.state = 'submitted' and ${x}.status is not distinct from 'delivered')`;
const ofCampaign = (x: string) => `${x}.campaign_step_id is not null and ${x}.phone is not null`;
const ROW = (x: string) =>
  `${x}.id, ${x}.campaign_id, ${x}.phone, ${sentOf(x)}::int as sent, ${deliveredOf(x)}::int as delivered,
  ${x}.state in ('pending', 'claimed') as waiting`;
/** The side a statement does not have (no old rows on insert, no new ones on delete). */
const NONE = `select null::bigint as id, null::bigint as campaign_id, null::text as phone, 0 as sent, 0 as delivered,
  false as waiting where false`;

/** One message's links `s` grouped by message: a human click on a link, its unsubscribe link used, either. */
const LINK_PEOPLE = `bool_or(s.kind = 'link' and s.first_clicked_at is not null)::int as clicked,
  (bool_or(s.kind = 'link' and s.first_clicked_at is not null)
    or bool_or(s.kind = 'unsubscribe' and s.unsubscribed_at is not null))::int as engaged,
  bool_or(s.kind = 'unsubscribe' and s.unsubscribed_at is not null)::int as unsubscribed`;

const FIGURES = ['sent', 'delivered', 'clicked', 'engaged', 'unsubscribed'];
const LINK_FIGURES = ['clicked', 'engaged', 'unsubscribed'];

/**
 * Signed per-message contributions `d (campaign_id, phone, sent, delivered, clicked, engaged)` → each
 * phone's counts, then the campaign's people by the phones whose count crossed zero.
 */
const APPLY = `g as (select campaign_id, phone, ${FIGURES.map((f) => `sum(${f}) as ${f}`).join(', ')} from d
    group by 1, 2 having ${FIGURES.map((f) => `sum(${f}) <> 0`).join(' or ')}),
  up as (insert into campaign_statistics_phones as t (campaign_id, phone, ${FIGURES.join(', ')})
    select campaign_id, phone, ${FIGURES.join(', ')} from g order by campaign_id, phone
    on conflict (campaign_id, phone) do update set ${FIGURES.map((f) => `${f} = t.${f} + excluded.${f}`).join(', ')}
    returning t.campaign_id, t.phone, ${FIGURES.map((f) => `t.${f}`).join(', ')})
  insert into campaign_statistics_people as t (campaign_id, ${FIGURES.join(', ')})
    select up.campaign_id, ${FIGURES.map((f) => `sum((up.${f} > 0)::int - (up.${f} - g.${f} > 0)::int)`).join(', ')}
    from up join g on g.campaign_id = up.campaign_id and g.phone = up.phone
    group by 1
    having ${FIGURES.map((f) => `sum((up.${f} > 0)::int - (up.${f} - g.${f} > 0)::int) <> 0`).join(' or ')}
    order by 1
    on conflict (campaign_id) do update set ${FIGURES.map((f) => `${f} = t.${f} + excluded.${f}`).join(', ')}`;

/** Rows whose person (campaign, phone) changed also carry their links' figures from one person to the other. */
function messagesBody(op: 'INSERT' | 'UPDATE' | 'DELETE'): string {
  const o = `select ${ROW('o')} from old_rows o where ${ofCampaign('o')}`;
  const n = `select ${ROW('n')} from new_rows n where ${ofCampaign('n')}`;
  const sides =
    op === 'UPDATE'
      ? `o as (${o}), n as (${n}),
        moved as (select coalesce(n.id, o.id) as id from o full join n on n.id = o.id
          where (o.campaign_id, o.phone) is distinct from (n.campaign_id, n.phone))`
      : op === 'INSERT'
        ? `o as (${NONE}), n as (${n}), moved as (select id from n where not n.waiting)`
        : `o as (${o}), n as (${NONE}), moved as (select id from o)`;
  return `with ${sides},
    l as (select s.message_id as id, ${LINK_PEOPLE} from moved join short_links s on s.message_id = moved.id
      group by s.message_id),
    d as (select o.campaign_id, o.phone, -o.sent as sent, -o.delivered as delivered,
        ${LINK_FIGURES.map((f) => `-coalesce(l.${f}, 0) as ${f}`).join(', ')} from o left join l on l.id = o.id
      union all select n.campaign_id, n.phone, n.sent, n.delivered, ${LINK_FIGURES.map((f) => `coalesce(l.${f}, 0)`).join(', ')}
        from n left join l on l.id = n.id),
    ${APPLY}`;
}

/** A link statement: each touched campaign message's clicked and engaged after minus before. */
const LINKS_BODY = `with ch as (select o.message_id as id from new_rows n join old_rows o on o.id = n.id
      where o.message_id is not null and (o.message_id is distinct from n.message_id or o.kind <> n.kind
        or (o.first_clicked_at is null) <> (n.first_clicked_at is null)
        or (o.unsubscribed_at is null) <> (n.unsubscribed_at is null))
    union select n.message_id from new_rows n join old_rows o on o.id = n.id
      where n.message_id is not null and (o.message_id is distinct from n.message_id or o.kind <> n.kind
        or (o.first_clicked_at is null) <> (n.first_clicked_at is null)
        or (o.unsubscribed_at is null) <> (n.unsubscribed_at is null))),
  k as (select m.id, m.campaign_id, m.phone from messages m where m.id in (select id from ch) and ${ofCampaign('m')}),
  after as (select s.message_id as id, ${LINK_PEOPLE} from short_links s where s.message_id in (select id from k)
    group by s.message_id),
  before as (select s.message_id as id, ${LINK_PEOPLE} from (
      select x.* from short_links x where x.message_id in (select id from k) and x.id not in (select id from new_rows)
      union all select o.* from old_rows o where o.message_id in (select id from k)) s
    group by s.message_id),
  d as (select k.campaign_id, k.phone, 0 as sent, 0 as delivered,
      ${LINK_FIGURES.map((f) => `coalesce(a.${f}, 0) - coalesce(b.${f}, 0) as ${f}`).join(', ')}
    from k left join after a on a.id = k.id left join before b on b.id = k.id),
  ${APPLY}`;

/** A message row that may move a person: its person changed, or it became (or stopped being) sent or delivered. */
const PERSON_MOVED = `(${ofCampaign('n')} or ${ofCampaign('o')})
  and ((o.campaign_id, o.phone, o.campaign_step_id is null) is distinct from (n.campaign_id, n.phone, n.campaign_step_id is null)
    or ${sentOf('o')} <> ${sentOf('n')} or ${deliveredOf('o')} <> ${deliveredOf('n')})`;

const TRIGGERS: Array<[string, string, 'INSERT' | 'UPDATE' | 'DELETE', string, string]> = [
  [
    'herald_campaign_people_msg_ins',
    'messages',
    'INSERT',
    // A waiting row is neither sent nor delivered, and its links cannot have been clicked yet.
    `not exists (select 1 from new_rows n where ${ofCampaign('n')} and n.state not in ('pending', 'claimed'))`,
    messagesBody('INSERT'),
  ],
  [
    'herald_campaign_people_msg_upd',
    'messages',
    'UPDATE',
    `not exists (select 1 from new_rows n join old_rows o on o.id = n.id where ${PERSON_MOVED})`,
    messagesBody('UPDATE'),
  ],
  [
    'herald_campaign_people_msg_del',
    'messages',
    'DELETE',
    `not exists (select 1 from old_rows o where ${ofCampaign('o')})`,
    messagesBody('DELETE'),
  ],
  [
    'herald_campaign_people_link_upd',
    'short_links',
    'UPDATE',
    // Repeated human clicks and bots' hits move counters only, never whether a link was clicked.
    `not exists (select 1 from new_rows n join old_rows o on o.id = n.id
      where (o.message_id is not null or n.message_id is not null)
        and (o.message_id is distinct from n.message_id or o.kind <> n.kind
          or (o.first_clicked_at is null) <> (n.first_clicked_at is null)
          or (o.unsubscribed_at is null) <> (n.unsubscribed_at is null)))`,
    LINKS_BODY,
  ],
];

/** One campaign's people recounted from its rows: the backfill, and the reference after triggers were off. */
const REBUILD = `create function herald_campaign_people_rebuild(cid bigint) returns void language plpgsql as $$ begin
  delete from campaign_statistics_phones where campaign_id = cid;
  delete from campaign_statistics_people where campaign_id = cid;
  insert into campaign_statistics_phones (campaign_id, phone, ${FIGURES.join(', ')})
    select cid, m.phone, count(*) filter (where ${sentOf('m')}), count(*) filter (where ${deliveredOf('m')}),
      ${LINK_FIGURES.map((f) => `count(*) filter (where l.${f} = 1)`).join(', ')}
    from messages m left join lateral (select ${LINK_PEOPLE} from short_links s where s.message_id = m.id) l on true
    where m.campaign_id = cid and ${ofCampaign('m')}
    group by m.phone
    having count(*) filter (where ${sentOf('m')}) > 0 or count(*) filter (where l.engaged = 1) > 0;
  insert into campaign_statistics_people (campaign_id, ${FIGURES.join(', ')})
    select cid, ${FIGURES.map((f) => `count(*) filter (where ${f} > 0)`).join(', ')}
    from campaign_statistics_phones where campaign_id = cid;
end $$`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table campaign_statistics_phones (campaign_id bigint not null, phone text not null,
    sent integer not null default 0, delivered integer not null default 0, clicked integer not null default 0,
    engaged integer not null default 0, unsubscribed integer not null default 0,
    primary key (campaign_id, phone))`.execute(db);
  await sql`create table campaign_statistics_people (campaign_id bigint primary key,
    sent bigint not null default 0, delivered bigint not null default 0, clicked bigint not null default 0,
    engaged bigint not null default 0, unsubscribed bigint not null default 0)`.execute(db);
  await sql.raw(REBUILD).execute(db);
  for (const [name, table, op, guard, body] of TRIGGERS) {
    const refs =
      op === 'INSERT'
        ? 'new table as new_rows'
        : op === 'DELETE'
          ? 'old table as old_rows'
          : 'old table as old_rows new table as new_rows';
    await sql
      .raw(
        `create function ${name}() returns trigger language plpgsql as $herald$ begin
          if ${guard} then return null; end if;
          ${body};
          return null; end $herald$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${name} after ${op.toLowerCase()} on ${table} referencing ${refs} for each statement execute function ${name}()`,
      )
      .execute(db);
  }
  // The backfill: campaigns that already have messages read right from the first `statistic`.
  await sql`select herald_campaign_people_rebuild(id) from campaigns c
    where exists (select 1 from messages m where m.campaign_id = c.id) order by id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name, table] of TRIGGERS) {
    await sql.raw(`drop trigger if exists ${name} on ${table}`).execute(db);
    await sql.raw(`drop function if exists ${name}()`).execute(db);
  }
  await sql`drop function if exists herald_campaign_people_rebuild(bigint)`.execute(db);
  await sql`drop table if exists campaign_statistics_people`.execute(db);
  await sql`drop table if exists campaign_statistics_phones`.execute(db);
}
