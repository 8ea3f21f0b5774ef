import { type Kysely, sql, type Transaction } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { TAttributeType } from '@herald/shared/attributes/attributes.schemas';
import type { TLeadStatus, TLeadValue } from '@herald/shared/leads/leads.schemas';
import { type LeadWrite, type LeadWriteOptions, withLeadWrite } from '../../db/lead-store/lead-write.ts';
import type { DB } from '../../db/schema.ts';
import { escapeLike } from '../../db/sql-text.ts';

type Db = Kysely<DB> | Transaction<DB>;
export type LeadOrderField = 'id' | 'created_at' | 'updated_at' | 'duplicates' | 'status';
export interface LeadPageArgs {
  listId?: number;
  search?: string;
  /** Only leads that share a phone with another lead of the team. */
  duplicatesOnly?: boolean;
  order: { field: LeadOrderField; dir: 'asc' | 'desc' };
  offset: number;
  limit: number;
}

const leadColumns = ['id', 'status', 'source_id', 'list_id', 'duplicates', 'created_at', 'updated_at'] as const;
/**
 * A phone value's lookup fields come from the team's results cache (`phone_lookups`, one row per
 * team and phone, decision 041): every lead holding the phone shows the same, latest result, with
 * no copy on each value to keep in step. One primary-key probe per phone value of the page.
 */
const lookupField = (field: 'status_label' | 'carrier_name' | 'carrier_type') =>
  sql<string | null>`case when v.type = 'phone' then coalesce((select pl.${sql.ref(field)} from phone_lookups pl
    where pl.team_id = v.team_id and pl.phone = v.value), v.${sql.ref(field)}) else v.${sql.ref(field)} end`.as(field);
const valueColumns = [
  'v.id',
  'v.value',
  lookupField('status_label'),
  lookupField('carrier_name'),
  lookupField('carrier_type'),
  'v.clicked',
  'v.ban',
] as const;

interface ValueRow {
  id: number;
  value: string;
  status_label: string | null;
  carrier_name: string | null;
  carrier_type: string | null;
  clicked: boolean | null;
  ban: boolean | null;
  attribute_id: number;
  attribute_name: string;
  attribute_type: TAttributeType;
  attribute_slug: string;
}

function toLeadValue(r: ValueRow): TLeadValue {
  return {
    id: Number(r.id),
    value: r.value,
    status_label: r.status_label,
    carrier_name: r.carrier_name,
    carrier_type: r.carrier_type,
    clicked: r.clicked,
    ban: r.ban,
    attribute: { id: Number(r.attribute_id), name: r.attribute_name, type: r.attribute_type, slug: r.attribute_slug },
  };
}

/** Leads and their values. Every method takes the team first. */
export function createLeadsRepository(db: Kysely<DB>) {
  function filtered(teamId: number, args: Pick<LeadPageArgs, 'listId' | 'search' | 'duplicatesOnly'>) {
    let q = db.selectFrom('leads').where('leads.team_id', '=', teamId);
    if (args.listId) q = q.where('leads.list_id', '=', args.listId);
    if (args.duplicatesOnly) q = q.where('leads.duplicates', '>', 0);
    if (args.search) {
      // Trigram index on lead_values.value: a fragment of a phone, e-mail or any value.
      const pattern = `%${escapeLike(args.search)}%`;
      q = q.where('leads.id', 'in', (eb) =>
        eb.selectFrom('lead_values').select('lead_id').where('team_id', '=', teamId).where('value', 'ilike', pattern),
      );
    }
    return q;
  }

  return {
    /** The team's leads, summed from `lead_counts` (kept by the leads triggers, migration 0003). */
    countAll(on: Kysely<DB>, teamId: number) {
      return on
        .selectFrom('lead_counts')
        .select(sql<number>`coalesce(sum(total), 0)::int`.as('n'))
        .where('team_id', '=', teamId);
    },

    /** A write to the team's leads, through the lead store (its locks, recount and data version). */
    write<T>(teamId: number, options: LeadWriteOptions, fn: (write: LeadWrite) => Promise<T>) {
      return withLeadWrite(db, teamId, options, fn);
    },

    /** One page of leads with their values, in one round trip (values as a JSON array per lead). */
    async findPage(teamId: number, args: LeadPageArgs) {
      const rows = await filtered(teamId, args)
        .select(leadColumns.map((c) => `leads.${c}` as const))
        .select((eb) =>
          jsonArrayFrom(
            eb
              .selectFrom('lead_values as v')
              .innerJoin('lead_attributes as a', 'a.id', 'v.attribute_id')
              .select([
                ...valueColumns,
                'a.id as attribute_id',
                'a.name as attribute_name',
                'a.type as attribute_type',
                'a.slug as attribute_slug',
              ])
              .whereRef('v.lead_id', '=', 'leads.id')
              .orderBy('a.sort_order')
              .orderBy('v.id'),
          ).as('values'),
        )
        .orderBy(`leads.${args.order.field}`, args.order.dir)
        .orderBy('leads.id', args.order.dir)
        .offset(args.offset)
        .limit(args.limit)
        .execute();
      return rows.map(({ values, ...lead }) => ({ ...lead, lead_values: values.map(toLeadValue) }));
    },

    async count(teamId: number, args: Pick<LeadPageArgs, 'listId' | 'search' | 'duplicatesOnly'>) {
      const row = await filtered(teamId, args)
        .select([
          sql<number>`count(*)`.as('total'),
          sql<number>`count(*) filter (where leads.status = 'blacklisted')`.as('blacklisted'),
        ])
        .executeTakeFirstOrThrow();
      return { total: Number(row.total), blacklisted: Number(row.blacklisted) };
    },

    findById(teamId: number, id: number, tx: Db = db) {
      return tx
        .selectFrom('leads')
        .select(leadColumns)
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    findExistingIds(teamId: number, ids: number[]) {
      return db.selectFrom('leads').select('id').where('team_id', '=', teamId).where('id', 'in', ids).execute();
    },

    async valuesOf(teamId: number, leadIds: number[], tx: Db = db): Promise<Array<TLeadValue & { lead_id: number }>> {
      if (leadIds.length === 0) return [];
      const rows = await tx
        .selectFrom('lead_values as v')
        .innerJoin('lead_attributes as a', 'a.id', 'v.attribute_id')
        .select([
          ...valueColumns,
          'v.lead_id',
          'a.id as attribute_id',
          'a.name as attribute_name',
          'a.type as attribute_type',
          'a.slug as attribute_slug',
        ])
        .where('v.team_id', '=', teamId)
        .where('v.lead_id', 'in', leadIds)
        .orderBy('a.sort_order')
        .orderBy('v.id')
        .execute();
      return rows.map((r) => ({ ...toLeadValue(r), lead_id: r.lead_id }));
    },

    findValue(teamId: number, id: number, tx: Db = db) {
      return tx
        .selectFrom('lead_values as v')
        .innerJoin('lead_attributes as a', 'a.id', 'v.attribute_id')
        .select(['v.id', 'v.lead_id', 'v.value', 'v.type', 'a.name as attribute_name'])
        .where('v.team_id', '=', teamId)
        .where('v.id', '=', id)
        .executeTakeFirst();
    },

    /**
     * The leads holding one of `leadId`'s phones (what its `duplicates` counts), with the phones
     * shared and where each lead lives; at most `limit`, oldest first.
     */
    async duplicatesOf(teamId: number, leadId: number, limit: number) {
      const r = await sql<{
        id: number;
        status: TLeadStatus;
        phones: string[];
        source_id: number;
        source_name: string;
        list_id: number;
        list_name: string;
      }>`
        select o.lead_id as id, l.status, array_agg(distinct o.value order by o.value) as phones,
          s.id as source_id, s.name as source_name, li.id as list_id, li.name as list_name
        from lead_values mine
        join lead_values o on o.team_id = ${teamId} and o.type = 'phone' and o.value = mine.value and o.lead_id <> mine.lead_id
        join leads l on l.id = o.lead_id and l.team_id = ${teamId}
        join sources s on s.id = l.source_id
        join lists li on li.id = l.list_id
        where mine.team_id = ${teamId} and mine.lead_id = ${leadId} and mine.type = 'phone'
        group by o.lead_id, l.status, s.id, s.name, li.id, li.name
        order by o.lead_id
        limit ${limit}`.execute(db);
      return r.rows;
    },

    sourceAndList(teamId: number, leadId: number) {
      return db
        .selectFrom('leads as l')
        .innerJoin('sources as s', 's.id', 'l.source_id')
        .innerJoin('lists as li', 'li.id', 'l.list_id')
        .select(['s.id as source_id', 's.name as source_name', 'li.id as list_id', 'li.name as list_name'])
        .where('l.team_id', '=', teamId)
        .where('l.id', '=', leadId)
        .executeTakeFirst();
    },
  };
}

export type LeadsRepository = ReturnType<typeof createLeadsRepository>;
