import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';

export type ShortLinkKind = 'link' | 'unsubscribe';

export interface NewShortLink {
  lead_id: number | null;
  message_id: number | null;
  kind: ShortLinkKind;
  host: string;
  code: string;
  redirect_to: string | null;
  phone: string | null;
}

const domainColumns = [
  'id',
  'team_id',
  'url',
  'enabled',
  'sort_order',
  'verify_token',
  'verified_at',
  'checked_at',
  'failed_checks',
  'lost_at',
  'created_at',
] as const;

/** SQL of short links and short-URL domains; every method takes the team first (the redirect aside). */
export function createShortLinksRepository(db: Kysely<DB>) {
  return {
    /** The host new links get: the team's first enabled, verified domain (by sort order), or the given one. */
    async linkHost(tx: Kysely<DB>, teamId: number, domainId?: number): Promise<string | undefined> {
      let q = tx
        .selectFrom('short_url_domains')
        .select('url')
        .where('team_id', '=', teamId)
        .where('enabled', '=', true)
        .where('verified_at', 'is not', null)
        .orderBy('sort_order')
        .orderBy('id')
        .limit(1);
      if (domainId !== undefined) q = q.where('id', '=', domainId);
      return (await q.executeTakeFirst())?.url;
    },

    /** Inserts the link unless its code is taken (then undefined, and the caller draws again). */
    async insertLink(tx: Kysely<DB>, teamId: number, link: NewShortLink) {
      return tx
        .insertInto('short_links')
        .values({ team_id: teamId, ...link })
        .onConflict((oc) => oc.column('code').doNothing())
        .returning(['id', 'code', 'host'])
        .executeTakeFirst();
    },

    /** Inserts many links; returns those whose code was free (the rest are drawn again). */
    async insertLinks(tx: Kysely<DB>, teamId: number, links: NewShortLink[]) {
      if (links.length === 0) return [];
      return tx
        .insertInto('short_links')
        .values(links.map((l) => ({ team_id: teamId, ...l })))
        .onConflict((oc) => oc.column('code').doNothing())
        .returning(['id', 'code', 'host'])
        .execute();
    },

    /** The link a redirect follows: found by its code alone, since codes are unique everywhere. */
    async findByCode(code: string) {
      return db
        .selectFrom('short_links')
        .select([
          'id',
          'team_id',
          'lead_id',
          'message_id',
          'kind',
          'host',
          'code',
          'redirect_to',
          'phone',
          'created_at',
        ])
        .where('code', '=', code)
        .executeTakeFirst();
    },

    /**
     * The team holding the domain `host`, if any: the redirect serves a link on a domain only for
     * that team (and every link on the app's own host). Links are made on verified domains only,
     * so a link there was made while its team had proven the host; one that stops proving keeps
     * its links working for as long as the host still points here.
     */
    async domainTeam(host: string): Promise<number | undefined> {
      const row = await db.selectFrom('short_url_domains').select('team_id').where('url', '=', host).executeTakeFirst();
      return row === undefined ? undefined : Number(row.team_id);
    },

    /**
     * Adds up the hits of many links in one statement (the clicks of the last moment, batched).
     * A link with human clicks gets `first_clicked_at` unless it has one, and the row says whether
     * this was that first one, so only one click of a link ever becomes engagement.
     */
    async countHits(hits: Array<{ id: number; human: number; other: number; at: Date }>) {
      if (hits.length === 0) return [];
      const { rows } = await sql<{ id: number; first: boolean }>`
        update short_links l set
          human_clicks = l.human_clicks + v.human,
          other_hits = l.other_hits + v.other,
          first_clicked_at = case when v.human > 0 then coalesce(l.first_clicked_at, v.at) else l.first_clicked_at end
        from (
          select unnest(${hits.map((h) => h.id)}::bigint[]) as id, unnest(${hits.map((h) => h.human)}::int[]) as human,
            unnest(${hits.map((h) => h.other)}::int[]) as other,
            unnest(${hits.map((h) => h.at.toISOString())}::timestamptz[]) as at
        ) v, short_links old
        where l.id = v.id and old.id = l.id
        returning l.id, (old.first_clicked_at is null and v.human > 0) as first`.execute(db);
      return rows.map((r) => ({ id: Number(r.id), first: r.first }));
    },

    /** Marks an unsubscribe link used; false when it was already (the page was confirmed before). */
    async markUnsubscribed(tx: Kysely<DB>, linkId: number): Promise<boolean> {
      const r = await tx
        .updateTable('short_links')
        .set({ unsubscribed_at: sql`now()` })
        .where('id', '=', linkId)
        .where('kind', '=', 'unsubscribe')
        .where('unsubscribed_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    domains: {
      async list(teamId: number) {
        return db
          .selectFrom('short_url_domains')
          .select(domainColumns)
          .where('team_id', '=', teamId)
          .orderBy('sort_order')
          .orderBy('id')
          .execute();
      },
      async find(teamId: number, id: number) {
        return db
          .selectFrom('short_url_domains')
          .select(domainColumns)
          .where('team_id', '=', teamId)
          .where('id', '=', id)
          .executeTakeFirst();
      },
      async insert(tx: Kysely<DB>, teamId: number, d: { url: string; enabled: boolean; sort_order: number }) {
        return tx
          .insertInto('short_url_domains')
          .values({ team_id: teamId, ...d })
          .onConflict((oc) => oc.column('url').doNothing())
          .returning(domainColumns)
          .executeTakeFirst();
      },
      /** A new url starts its proof over: a fresh token, unverified. */
      async update(teamId: number, id: number, d: { url?: string; enabled?: boolean; sort_order?: number }) {
        const restart =
          d.url === undefined
            ? {}
            : {
                verify_token: sql<string>`replace(gen_random_uuid()::text, '-', '')`,
                verified_at: null,
                checked_at: null,
                failed_checks: 0,
                lost_at: null,
              };
        return db
          .updateTable('short_url_domains')
          .set({ ...d, ...restart })
          .where('team_id', '=', teamId)
          .where('id', '=', id)
          .returning(domainColumns)
          .executeTakeFirst();
      },
      /** Whether any team (this one too) holds `url` on another row. */
      async urlTaken(url: string, exceptId: number) {
        const row = await db
          .selectFrom('short_url_domains')
          .select('id')
          .where('url', '=', url)
          .where('id', '<>', exceptId)
          .executeTakeFirst();
        return row !== undefined;
      },
      /** Every domain of the installation, for the scheduled check (a few per team). */
      async listAll() {
        return db.selectFrom('short_url_domains').select(domainColumns).orderBy('id').execute();
      },
      /** All the team's owner and admins who may be mailed about its domains. */
      async managers(teamId: number) {
        return db
          .selectFrom('users')
          .select('email')
          .where('team_id', '=', teamId)
          .where('role', 'in', ['team_owner', 'team_admin'])
          .where('blocked', '=', false)
          .orderBy('id')
          .execute();
      },
      /** The domain at `host` whose token is `token` (what its well-known file answers). */
      async findByHostToken(host: string, token: string) {
        return db
          .selectFrom('short_url_domains')
          .select('id')
          .where('url', '=', host)
          .where('verify_token', '=', token)
          .executeTakeFirst();
      },
      /**
       * Writes a check's outcome, unless the domain's url (and so its token) changed meanwhile.
       * Proven: verified (since the first time), failures forgotten. Not proven: waiting stays
       * waiting; a verified domain counts the failure and is taken out of use at `loseAfter`.
       */
      async recordCheck(row: { id: number; verify_token: string }, proven: boolean, loseAfter: number) {
        const q = db
          .updateTable('short_url_domains')
          .where('id', '=', row.id)
          .where('verify_token', '=', row.verify_token)
          .returning(domainColumns);
        if (proven) {
          return q
            .set({
              verified_at: sql`coalesce(verified_at, now())`,
              checked_at: sql`now()`,
              failed_checks: 0,
              lost_at: null,
            })
            .executeTakeFirst();
        }
        const lose = sql<boolean>`verified_at is not null and failed_checks + 1 >= ${loseAfter}`;
        return q
          .set({
            checked_at: sql`now()`,
            failed_checks: sql`case when verified_at is null or ${lose} then 0 else failed_checks + 1 end`,
            lost_at: sql`case when ${lose} then now() else lost_at end`,
            verified_at: sql`case when ${lose} then null else verified_at end`,
          })
          .executeTakeFirst();
      },
      async delete(teamId: number, id: number): Promise<boolean> {
        const r = await db
          .deleteFrom('short_url_domains')
          .where('team_id', '=', teamId)
          .where('id', '=', id)
          .executeTakeFirst();
        return Number(r.numDeletedRows) > 0;
      },
    },
  };
}

export type ShortLinksRepository = ReturnType<typeof createShortLinksRepository>;
export type ShortLinkRow = NonNullable<Awaited<ReturnType<ShortLinksRepository['findByCode']>>>;
export type ShortUrlDomainRow = NonNullable<Awaited<ReturnType<ShortLinksRepository['domains']['find']>>>;
