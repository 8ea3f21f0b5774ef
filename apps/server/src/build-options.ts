import type { DomainEventsHub } from './events/domain-events.ts';
import { AppError } from './http/app-error.ts';
import type { Mailer } from './mail/mailer.ts';
import type { createGatewaysModule } from './modules/gateways/index.ts';
import type { LookupsDeps, LookupsModule } from './modules/lookups/index.ts';
import type { createMessagesModule } from './modules/messages/index.ts';
import type { DomainProbe, ShortLinksModule } from './modules/short-links/index.ts';

/** What `buildApp` takes besides the config: the logger, and the seams tests use. */
export interface BuildOptions {
  /** pino options, or false for silence (tests). */
  logger?: boolean | Record<string, unknown>;
  mailer?: Mailer;
  heartbeatMs?: number;
  /** pg-boss schema; tests give each run its own. */
  jobsSchema?: string;
  /** How often imports, exports and messages look for work that died with its process; tests shorten it. */
  sweepEveryMs?: number;
  /** Leads per import publishing transaction; tests make it small to stop an import midway. */
  importChunkRows?: number;
  /** Leads deleted a transaction when a list or source goes (embedded: 5,000; PostgreSQL: all in one); tests make it small. */
  leadDeleteBatch?: number;
  /**
   * Leads a team may still import (null: no limit), in place of its plan's import limit: tests
   * give a number to prove the limit ends an import without importing a plan's worth of leads.
   */
  importAllowance?: (teamId: number) => Promise<number | null>;
  /** Handed the gateways' offer to the sending side (send through a gateway, hear its reports); tests send and watch reports with it. */
  onGateways?: (gateways: Pick<ReturnType<typeof createGatewaysModule>, 'adapter' | 'onStatus' | 'onInbound'>) => void;
  /** Runs just before a message's gateway call; tests stop a send there as a crash would. */
  beforeGatewayCall?: (message: { id: number; team_id: number }) => Promise<void>;
  /** Seconds between status polls of a message (polled providers); tests make it short. */
  messagePollSeconds?: number;
  /** The send engine's tuning (batch, calls in flight, rates on or off); the benchmark turns the rates off. */
  messagesEngine?: Parameters<typeof createMessagesModule>[0]['engine'];
  /** The lookup engine's tuning (lanes, batch, calls in flight, rate limit on or off); tests and the benchmark. */
  lookupsEngine?: LookupsDeps['engine'];
  /** Handed the lookups module; tests and the benchmark drive it. */
  onLookups?: (lookups: LookupsModule) => void;
  /** Handed the modules' event hub; tests hear `messages.moved` and the rest with it. */
  onDomainEvents?: (events: Pick<DomainEventsHub, 'on'>) => void;
  /** Handed the short links' `make`; tests make links with it. */
  onShortLinks?: (shortLinks: Pick<ShortLinksModule, 'make' | 'makeMany' | 'appHost' | 'checkDomains'>) => void;
  /** How short-URL domains are asked for their proof (HTTP file, DNS TXT); tests answer offline. */
  domainProbe?: DomainProbe;
}

/** `BuildOptions.importAllowance` as the imports module's hook: a fixed number of leads a run may import. */
export function fixedAllowance(allowance: (teamId: number) => Promise<number | null>) {
  return {
    async reserve(teamId: number) {
      const left = await allowance(teamId);
      if (left !== null && left <= 0) throw new AppError('import_limit_reached');
    },
    async claim(teamId: number, _importId: number, count: number) {
      const left = await allowance(teamId);
      return left === null || count <= left ? null : { code: 'import_limit_reached' as const, most: left };
    },
  };
}
