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

const domainColumns = ['id', 'team_id', 'url', 'enabled', 'sort_order', 'created_at'] as const;

/** SQL of short links and short-URL domains; every method takes the team first (the redirect aside). */
export function createShortLinksRepository(db: Kysely<DB>) {
  return {
    /** The host new links get: the team's first enabled domain (by sort order), or the given one. */
    async linkHost(tx: Kysely<DB>, teamId: number, domainId?: number): Promise<string | undefined> {
      let q = tx
        .selectFrom('short_url_domains')
        .select('url')
        .where('team_id', '=', teamId)
        .where('enabled', '=', true)
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

    /** Is `host` one of any team's enabled domains? (The redirect serves links on those and on the app's own host.) */
    async isDomainHost(host: string): Promise<boolean> {
      const row = await db
        .selectFrom('short_url_domains')
        .select('id')
        .where('url', '=', host)
        .where('enabled', '=', true)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Counts a hit on the link in one statement. A human click sets `first_clicked_at` if none was
     * set and says whether this was that first one, so only one click ever becomes engagement.
     */
    async countHit(linkId: number, human: boolean): Promise<{ first: boolean }> {
      if (!human) {
        await db
          .updateTable('short_links')
          .set((eb) => ({ other_hits: eb('other_hits', '+', 1) }))
          .where('id', '=', linkId)
          .execute();
        return { first: false };
      }
      const { rows } = await sql<{ first: boolean }>`
        update short_links l set human_clicks = l.human_clicks + 1,
          first_clicked_at = coalesce(l.first_clicked_at, now())
        from short_links old
        where l.id = ${linkId} and old.id = l.id
        returning old.first_clicked_at is null as first`.execute(db);
      return { first: rows[0]?.first ?? false };
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
          .onConflict((oc) => oc.columns(['team_id', 'url']).doNothing())
          .returning(domainColumns)
          .executeTakeFirst();
      },
      async update(teamId: number, id: number, d: { url?: string; enabled?: boolean; sort_order?: number }) {
        return db
          .updateTable('short_url_domains')
          .set(d)
          .where('team_id', '=', teamId)
          .where('id', '=', id)
          .returning(domainColumns)
          .executeTakeFirst();
      },
      async urlTaken(teamId: number, url: string, exceptId: number) {
        const row = await db
          .selectFrom('short_url_domains')
          .select('id')
          .where('team_id', '=', teamId)
          .where('url', '=', url)
          .where('id', '<>', exceptId)
          .executeTakeFirst();
        return row !== undefined;
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
