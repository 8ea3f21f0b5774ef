import type { Kysely } from 'kysely';
import { message } from '@herald/shared/common/messages';
import type { TFeatureSlug } from '@herald/shared/plans/plans.schemas';
import {
  domainRefusal,
  isSameOrSubdomain,
  linkLength,
  normaliseHost,
} from '@herald/shared/short-links/short-link-code';
import type {
  TShortUrlDomain,
  TStoreShortUrlDomainRequest,
  TUpdateShortUrlDomainRequest,
} from '@herald/shared/short-links/short-links.schemas';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import { type DomainProbe, proofText, proveDomain, TXT_PREFIX, WELL_KNOWN_PREFIX } from './domain-proof.ts';
import type { ShortLinksRepository, ShortUrlDomainRow } from './short-links.repository.ts';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export function toShortUrlDomain(row: ShortUrlDomainRow): TShortUrlDomain {
  return {
    id: Number(row.id),
    url: row.url,
    access: row.enabled ? 'Enabled' : 'Disabled',
    verification: {
      status: row.verified_at === null ? 'waiting' : 'verified',
      token: row.verify_token,
      http_url: `http://${row.url}${WELL_KNOWN_PREFIX}${row.verify_token}`,
      txt_name: `${TXT_PREFIX}${row.url}`,
      txt_value: proofText(row.verify_token),
      verified_at: iso(row.verified_at),
      checked_at: iso(row.checked_at),
      lost_at: iso(row.lost_at),
    },
    sort_order: row.sort_order,
    link_length: linkLength(row.url),
    created_at: row.created_at.toISOString(),
  };
}

export interface DomainsDeps {
  db: Kysely<DB>;
  /** The plans' check (decision 015): refuses with a translated 422 when the plan lacks the feature. */
  assertCanCreate: (tx: Kysely<DB>, teamId: number, slug: TFeatureSlug) => Promise<void>;
  /** The app's own host (with its port, if any): links are made on it when the team has no enabled, verified domain. */
  appHost: string;
  /** The app's own name without a port: never a team's domain, nor any name under it. */
  appHostname: string;
  /** How a domain is asked for its proof (the network, or a test's stand-in). */
  probe: DomainProbe;
  /** Failed re-checks in a row after which a verified domain is taken out of use. */
  loseAfter: number;
  log: { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };
  /** Tells the team a verified domain was taken out of use (a mail, sent by a job). */
  onLost: (domain: { teamId: number; domainId: number; host: string }) => Promise<void>;
}

const notFound = () => new AppError('not_found', message('short_url_domain_not_found'));
/** Domains asked at once by the scheduled check. */
const CHECKS_AT_ONCE = 8;

/** A team's own short-link domains (spec: short-url-domains), gated by the plan's `short-url-domain`. */
export function createShortUrlDomainsService(repo: ShortLinksRepository, deps: DomainsDeps) {
  /** The host as stored, or the translated 422 saying why not (a path, a port, the app's own host). */
  const host = (url: string) => {
    const h = normaliseHost(url);
    if (!h) throw AppError.field('url', domainRefusal(url) ?? 'short_url_domain_invalid');
    // The app's host serves every team's links already; a name under it is the installation's to give.
    if (isSameOrSubdomain(h, deps.appHostname)) throw AppError.field('url', 'short_url_domain_app_host');
    return h;
  };

  /** Asks the domain for its proof; a row that could never prove (a stored port, the app's host) is not asked. */
  async function check(row: ShortUrlDomainRow) {
    const provable = normaliseHost(row.url) === row.url && !isSameOrSubdomain(row.url, deps.appHostname);
    const result = provable
      ? await proveDomain(deps.probe, row.url, row.verify_token)
      : ({ proven: false, http: 'not a provable host', dns: 'not a provable host' } as const);
    const after = await repo.domains.recordCheck(row, result.proven, deps.loseAfter);
    const context = { domainId: Number(row.id), teamId: Number(row.team_id), host: row.url, result };
    if (after && row.verified_at === null && after.verified_at !== null)
      deps.log.info(context, 'short URL domain verified');
    if (after && row.verified_at !== null && after.verified_at === null) {
      deps.log.warn(context, 'short URL domain stopped proving ownership and is out of use');
      await deps.onLost({ teamId: Number(row.team_id), domainId: Number(row.id), host: row.url });
    }
    return { result, row: after };
  }

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

    /** Adds the domain waiting for verification; a host any team holds already is refused. */
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
      const current = await repo.domains.find(teamId, id);
      if (!current) throw notFound();
      let url = input.url === undefined ? undefined : host(input.url);
      if (url === current.url) url = undefined;
      if (url !== undefined && (await repo.domains.urlTaken(url, id)))
        throw AppError.field('url', 'short_url_domain_taken');
      let row: ShortUrlDomainRow | undefined;
      try {
        row = await repo.domains.update(teamId, id, {
          url,
          enabled: input.access === undefined ? undefined : input.access === 'Enabled',
          sort_order: input.sort_order,
        });
      } catch (error) {
        // Another team took the host between the look and the write.
        if ((error as { code?: string }).code === '23505') throw AppError.field('url', 'short_url_domain_taken');
        throw error;
      }
      if (!row) throw notFound();
      return toShortUrlDomain(row);
    },

    /** Links already sent on the domain keep working on the app's own host. */
    async remove(teamId: number, id: number): Promise<void> {
      if (!(await repo.domains.delete(teamId, id))) throw notFound();
    },

    /**
     * "Verify now": asks the domain at once. Proven, it is verified (and serves new links if
     * enabled); not, a translated 422 says what to set up, and the domain stays as it was.
     */
    async verify(teamId: number, id: number): Promise<TShortUrlDomain> {
      const row = await repo.domains.find(teamId, id);
      if (!row) throw notFound();
      const { result, row: after } = await check(row);
      if (!after) throw notFound();
      if (!result.proven) {
        throw new AppError('validation_failed', message('short_url_domain_not_proven', { host: row.url }));
      }
      return toShortUrlDomain(after);
    },

    /**
     * The scheduled check of every domain: waiting ones that now prove are verified; verified ones
     * that fail `loseAfter` checks in a row are taken out of use (the tab says since when).
     */
    async checkAll(): Promise<{ checked: number; verified: number; lost: number }> {
      const rows = await repo.domains.listAll();
      let verified = 0;
      let lost = 0;
      for (let i = 0; i < rows.length; i += CHECKS_AT_ONCE) {
        const outcomes = await Promise.all(rows.slice(i, i + CHECKS_AT_ONCE).map(check));
        outcomes.forEach(({ row: after }, j) => {
          const before = rows[i + j];
          if (after && before.verified_at === null && after.verified_at !== null) verified++;
          if (after && before.verified_at !== null && after.verified_at === null) lost++;
        });
      }
      return { checked: rows.length, verified, lost };
    },
  };
}

export type ShortUrlDomainsService = ReturnType<typeof createShortUrlDomainsService>;
