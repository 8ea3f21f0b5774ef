import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { ChargeRequest, ChargeResult, RefundRequest } from '@herald/shared/billing/charges';
import type { TCurrency } from '@herald/shared/billing/billing.schemas';
import type { DB } from '../../db/schema.ts';
import type { EventBus } from '../../events/event-bus.ts';
import type { ProcessesRepository } from '../../jobs/processes.repository.ts';
import { createLookupEngine } from './lookup-engine.ts';
import { type AdapterOf, createLookupGateways } from './lookup-gateway.ts';
import { createListDeletes } from './lookup-list-deletes.ts';
import { createLookupLive } from './lookup-live.ts';
import { createLookupMoves, freshDays } from './lookup-moves.ts';
import { createLookupsRepository } from './lookups.repository.ts';
import { lookupsRoutes } from './lookups.routes.ts';
import { createLookupsService } from './lookups.service.ts';

export interface LookupsDeps {
  db: Kysely<DB>;
  database: { kind: 'embedded' | 'postgres' };
  bus: EventBus;
  jobs: { processes: Pick<ProcessesRepository, 'update'> };
  runWorkers: boolean;
  gateways: { adapter: AdapterOf };
  billing: {
    chargeMany: (tx: Kysely<DB>, teamId: number, requests: ChargeRequest[]) => Promise<{ results: ChargeResult[] }>;
    refund: (tx: Kysely<DB>, teamId: number, request: RefundRequest) => Promise<unknown>;
    announce: (teamId: number, userIds: number[], options?: { raised?: boolean }) => Promise<void>;
    profileBalance: (teamId: number, userId: number) => Promise<{ balance: number; balance_currency: TCurrency }>;
  };
  /** Where lookups hear that lists or sources are about to be deleted (the sources module's hook). */
  onListsDeleting?: (
    handler: (teamId: number, by: 'list_id' | 'source_id', ids: number[]) => Promise<() => Promise<void>>,
  ) => void;
  /** The price list's lookup, minor units of `currency`. */
  lookupPrice: (currency: TCurrency) => number;
  log?: { error(obj: unknown, msg: string): void };
  /** Engine tuning (tests, the benchmark): see `createLookupEngine`. */
  engine?: {
    tickMs?: number;
    lanes?: number;
    batch?: number;
    concurrency?: number;
    leaseMs?: number;
    retryMs?: number;
    rateLimit?: boolean;
  };
}

/**
 * Lookups (decision 040): repository → service → routes, and the engine on worker processes.
 * For other modules: `service.createForList` / `createForStep` (a campaign lookup step's one lookup) / `get`, `results`, `freshDays`,
 * and `onResults(listener)`, told the phones of each batch of results after it commits.
 */
export function createLookupsModule(deps: LookupsDeps) {
  const { db } = deps;
  const repo = createLookupsRepository(db);
  const gateways = createLookupGateways(db, deps.gateways.adapter, { rateLimit: deps.engine?.rateLimit });
  const money = async (teamId: number, userId: number) => {
    const b = await deps.billing.profileBalance(teamId, userId);
    return { price: deps.lookupPrice(b.balance_currency), balance: b.balance, currency: b.balance_currency };
  };
  const live = createLookupLive({ db, bus: deps.bus, processes: deps.jobs.processes, repo });
  const listeners: Array<(teamId: number, phones: string[]) => Promise<void>> = [];
  const engine = createLookupEngine({
    db,
    gatewayOf: gateways.gatewayOf,
    priceOf: async (teamId, userId) => (await money(teamId, userId)).price,
    chargeMany: deps.billing.chargeMany,
    refund: deps.billing.refund,
    announce: deps.billing.announce,
    live,
    onResults: async (teamId, phones) => {
      for (const listener of listeners) await listener(teamId, phones);
    },
    log: deps.log,
    // Embedded: one process, so no other worker waits for a dead one's claims, while the one
    // connection, shared with people's requests first, can keep a batch's write waiting long.
    leaseMs: deps.database.kind === 'embedded' ? 120_000 : undefined,
    ...deps.engine,
  });
  const moves = createLookupMoves({
    db,
    gateways,
    money,
    moved: engine.moved,
    refund: deps.billing.refund,
    announce: deps.billing.announce,
  });
  const service = createLookupsService({ db, repo, moves, live, gateways, money });
  deps.onListsDeleting?.(
    createListDeletes({ db, moves, processes: deps.jobs.processes, bus: deps.bus, tickMs: deps.engine?.tickMs }),
  );
  if (deps.runWorkers) engine.start();

  return {
    service,
    engine,
    results: (teamId: number, phones: string[]) => service.results(teamId, phones),
    freshDays: (teamId: number) => freshDays(db, teamId),
    onResults(listener: (teamId: number, phones: string[]) => Promise<void>) {
      listeners.push(listener);
    },
    stop: () => engine.stop(),
    routes: (app: FastifyInstance) => lookupsRoutes(app, service),
  };
}
export type LookupsModule = ReturnType<typeof createLookupsModule>;
