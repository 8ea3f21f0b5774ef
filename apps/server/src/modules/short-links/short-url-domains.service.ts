import type { Kysely } from 'kysely';
import { message } from '@herald/shared/common/messages';
import type { TFeatureSlug } from '@herald/shared/plans/plans.schemas';
import { linkLength, normaliseHost } from '@herald/shared/short-links/short-link-code';
import type {
  TShortUrlDomain,
  TStoreShortUrlDomainRequest,
  TUpdateShortUrlDomainRequest,
} from '@herald/shared/short-links/short-links.schemas';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { ShortLinksRepository, ShortUrlDomainRow } from './short-links.repository.ts';

export function toShortUrlDomain(row: ShortUrlDomainRow): TShortUrlDomain {
  return {
    id: Number(row.id),
    url: row.url,
    access: row.enabled ? 'Enabled' : 'Disabled',
    sort_order: row.sort_order,
    link_length: linkLength(row.url),
    created_at: row.created_at.toISOString(),
  };
}

export interface DomainsDeps {
  db: Kysely<DB>;
  /** The plans' check (decision 015): refuses with a translated 422 when the plan lacks the feature. */
  assertCanCreate: (tx: Kysely<DB>, teamId: number, slug: TFeatureSlug) => Promise<void>;
  /** The app's own host: links are made on it when the team has no enabled domain. */
  appHost: string;
}

const notFound = () => new AppError('not_found', message('short_url_domain_not_found'));

/** A team's own short-link domains (spec: short-url-domains), gated by the plan's `short-url-domain`. */
export function createShortUrlDomainsService(repo: ShortLinksRepository, deps: DomainsDeps) {
  const host = (url: string) => {
    const h = normaliseHost(url);
    if (!h) throw AppError.field('url', 'short_url_domain_invalid');
    return h;
  };

  return {
    async list(teamId: number) {
      return { data: (await repo.domains.list(teamId)).map(toShortUrlDomain) };
    },

    /** The host the team's next links are made on, as the link maker picks it, and a link's length there. */
    async linkHost(teamId: number) {
      const host = (await repo.linkHost(deps.db, teamId)) ?? deps.appHost;
      return { host, link_length: linkLength(host) };
    },

    /** Whether the team's plan includes its own domains (the settings tab shows the refusal otherwise). */
    async hasAccess(teamId: number): Promise<boolean> {
      try {
        await deps.assertCanCreate(deps.db, teamId, 'short-url-domain');
        return true;
      } catch (error) {
        if (error instanceof AppError) return false;
        throw error;
      }
    },

    async store(teamId: number, input: TStoreShortUrlDomainRequest): Promise<TShortUrlDomain> {
      const url = host(input.url);
      const row = await deps.db.transaction().execute(async (tx) => {
        await deps.assertCanCreate(tx, teamId, 'short-url-domain');
        return repo.domains.insert(tx, teamId, {
          url,
          enabled: (input.access ?? 'Enabled') === 'Enabled',
          sort_order: input.sort_order ?? 0,
        });
      });
      if (!row) throw AppError.field('url', 'short_url_domain_taken');
      return toShortUrlDomain(row);
    },

    async update(teamId: number, id: number, input: TUpdateShortUrlDomainRequest): Promise<TShortUrlDomain> {
      if (!(await repo.domains.find(teamId, id))) throw notFound();
      const url = input.url === undefined ? undefined : host(input.url);
      if (url !== undefined && (await repo.domains.urlTaken(teamId, url, id))) {
        throw AppError.field('url', 'short_url_domain_taken');
      }
      const row = await repo.domains.update(teamId, id, {
        url,
        enabled: input.access === undefined ? undefined : input.access === 'Enabled',
        sort_order: input.sort_order,
      });
      if (!row) throw notFound();
      return toShortUrlDomain(row);
    },

    /** Links already sent on the domain keep working on the app's own host. */
    async remove(teamId: number, id: number): Promise<void> {
      if (!(await repo.domains.delete(teamId, id))) throw notFound();
    },
  };
}

export type ShortUrlDomainsService = ReturnType<typeof createShortUrlDomainsService>;
