import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';

type Db = Kysely<DB>;

/**
 * Writes a lookup's work rows, one per distinct phone (decision 040), in the caller's transaction.
 * What needs no provider is settled here, uncharged: a phone whose result is fresh, or one the
 * team's own campaign delivered a message to in the same window — a delivered message proves a
 * valid, reachable mobile, and becomes the phone's result (origin `delivery`, cost 0). Those rows
 * are `reused`; the lookup's totals (phones, reused, saved at `price`) are set from the rows.
 */
async function fill(
  tx: Db,
  lookupId: number,
  teamId: number,
  phones: RawBuilder<unknown>,
  freshDays: number,
  price: number,
) {
  const since = sql`now() - make_interval(days => ${freshDays}::int)`;
  await sql`create temporary table if not exists lookup_fill_phones (phone text primary key) on commit drop`.execute(
    tx,
  );
  await sql`insert into lookup_fill_phones (phone) select distinct phone from (${phones}) p(phone)
    where phone is not null on conflict do nothing`.execute(tx);
  // Delivered within the window and no fresh result: the delivery is the result.
  await sql`insert into phone_lookups (team_id, phone, carrier_type, status_label, reachability, checked_at,
      gateway_id, origin, cost)
    select ${teamId}, p.phone, 'mobile', 'valid', 'connected', d.at, d.gateway_id, 'delivery', 0
    from lookup_fill_phones p
    cross join lateral (select coalesce(m.status_at, m.called_at) as at, m.gateway_id from messages m
      where m.team_id = ${teamId} and m.phone = p.phone and m.kind = 'campaign_step'
        and m.status = 'delivered' and m.called_at > ${since}
      order by m.called_at desc limit 1) d
    where not exists (select 1 from phone_lookups r where r.team_id = ${teamId} and r.phone = p.phone
      and r.checked_at > ${since})
    on conflict (team_id, phone) do update set carrier_type = excluded.carrier_type,
      status_label = excluded.status_label, reachability = excluded.reachability, ported = null,
      mcc_mnc = null, carrier_name = null, checked_at = excluded.checked_at, gateway_id = excluded.gateway_id,
      origin = 'delivery', cost = 0, lookup_id = null`.execute(tx);
  await sql`insert into lookup_items (lookup_id, team_id, phone, state)
    select ${lookupId}, ${teamId}, p.phone,
      case when exists (select 1 from phone_lookups r where r.team_id = ${teamId} and r.phone = p.phone
        and r.checked_at > ${since}) then 'reused' else 'pending' end
    from lookup_fill_phones p
    on conflict (lookup_id, phone) do nothing`.execute(tx);
  await sql`drop table lookup_fill_phones`.execute(tx);
  await sql`update lookups k set phones = c.phones, reused = c.reused, saved = c.reused::bigint * ${price}::bigint,
      updated_at = now()
    from (select count(*)::int as phones, (count(*) filter (where state = 'reused'))::int as reused
      from lookup_items where lookup_id = ${lookupId}) c
    where k.id = ${lookupId}`.execute(tx);
}

/**
 * The phone values of the leads of `lists`, with their list: the lists' leads first, then each
 * lead's values of the team's phone attributes through (lead_id, attribute_id). Written so that the
 * plan holds without fresh statistics (the embedded database has no autovacuum, and leads written
 * since the last ANALYZE look like none): joined the other way, a planner that expects one row
 * walked every phone of the team once per phone — 9.8 s for 5,000 phones on PGlite, against 60 ms.
 */
function listPhones(teamId: number, lists: number[]) {
  return sql`with l as materialized (select id, list_id from leads
      where team_id = ${teamId} and list_id = any(${lists}::bigint[]))
    select l.list_id, v.value as phone from l join lead_values v on v.lead_id = l.id
    where v.attribute_id = any(array(select id from lead_attributes where team_id = ${teamId} and type = 'phone'))`;
}

/** A list's phones: the phone values of its leads. */
export function fillFromList(
  tx: Db,
  a: { lookupId: number; teamId: number; listId: number; freshDays: number; price: number },
) {
  const phones = sql`select x.phone from (${listPhones(a.teamId, [a.listId])}) x`;
  return fill(tx, a.lookupId, a.teamId, phones, a.freshDays, a.price);
}

/** Given phones (a campaign step's recipients). */
export function fillFromPhones(
  tx: Db,
  a: { lookupId: number; teamId: number; phones: string[]; freshDays: number; price: number },
) {
  return fill(tx, a.lookupId, a.teamId, sql`select unnest(${a.phones}::text[])`, a.freshDays, a.price);
}

/** Phones of these lists, and how many of them are settled without a provider (the start dialog). */
export async function previewLists(db: Db, teamId: number, listIds: number[], freshDays: number) {
  if (listIds.length === 0) return { phones: 0, fresh: 0 };
  const since = sql`now() - make_interval(days => ${freshDays}::int)`;
  const r = await sql<{ phones: string; fresh: string }>`
    with p as (select distinct x.list_id, x.phone from (${listPhones(teamId, listIds)}) x)
    select count(*) as phones, count(*) filter (where
      exists (select 1 from phone_lookups r where r.team_id = ${teamId} and r.phone = p.phone and r.checked_at > ${since})
      or exists (select 1 from messages m where m.team_id = ${teamId} and m.phone = p.phone
        and m.kind = 'campaign_step' and m.status = 'delivered' and m.called_at > ${since})) as fresh
    from p`.execute(db);
  return { phones: Number(r.rows[0]?.phones ?? 0), fresh: Number(r.rows[0]?.fresh ?? 0) };
}
