import type { FastifyInstance } from 'fastify';
import type { MessagesDeps } from './messages.deps.ts';
import { createMessagesRepository } from './messages.repository.ts';
import { messagesRoutes } from './messages.routes.ts';
import { createSendService } from './send.service.ts';
import { runAsBulk } from '../../db/connection-priority.ts';
import { startSweeper } from '../../jobs/sweeper.ts';
import { createDispatcher, type EngineSettings } from './dispatch.ts';
import { createSweep } from './reconcile.ts';
import { createSendRowsRepository } from './send-rows.repository.ts';
import { createStatusService, POLL_JOB } from './status.service.ts';

export type { MessagesDeps } from './messages.deps.ts';
export type { Recipient } from './send-rows.repository.ts';

/** The engine's defaults; a lease of three gateway timeouts and 30 s covers a call and its settle. */
function engineSettings(deps: MessagesDeps): EngineSettings {
  const leaseMs = deps.leaseMs ?? (deps.gatewayTimeoutMs ?? 10_000) * 3 + 30_000;
  return {
    leaseMs,
    // Ten leases: reports and the provider's list have had their chance by then.
    unknownDeadlineMs: deps.engine?.unknownDeadlineMs ?? leaseMs * 10,
    batch: deps.engine?.batch ?? 100,
    concurrency: deps.engine?.concurrency ?? 16,
    lanes: deps.engine?.lanes ?? 4,
    rates: deps.engine?.rates ?? true,
    idleMs: deps.engine?.idleMs ?? 1_000,
  };
}

/**
 * Wires messages (decisions 020, 024): the send path (single SMS, and queued rows such as a
 * campaign's, dispatched in batches by a loop on every worker process under rates every worker
 * shares), delivery reports and replies from the gateways' hooks, the status poll for providers
 * without callbacks, and the sweep that returns or reconciles claims whose process died.
 */
export async function createMessagesModule(
  deps: MessagesDeps & {
    onStatus: (
      handler: (event: {
        teamId: number;
        gatewayId: number;
        reports: Parameters<ReturnType<typeof createStatusService>['apply']>[2];
      }) => Promise<void>,
    ) => void;
    onInbound: (
      handler: (event: { teamId: number; gatewayId: number; message: { from: string; text: string } }) => Promise<void>,
    ) => void;
  },
) {
  const settings = engineSettings(deps);
  const repo = createMessagesRepository(deps.db);
  const rows = createSendRowsRepository(deps.db);
  const status = createStatusService({ ...deps, leaseMs: settings.leaseMs, repo });
  const dispatcher = createDispatcher({ ...deps, rows, status, settings });
  const send = createSendService({ ...deps, repo, status, dispatcher, settings });
  deps.onStatus((event) => status.apply(event.teamId, event.gatewayId, event.reports));
  deps.onInbound((event) => status.inbound(event));

  let sweeper: { stop(): void } | undefined;
  let lanes: Promise<void>[] = [];
  let stopped = false;
  const wakers = new Set<() => void>();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      wakers.add(wake);
    });
  // One lane claims a batch, charges it, calls and settles; several lanes on a process keep calls
  // in flight while another lane's batch is at the database (claims skip each other's rows).
  let loggedAt = 0;
  const lane = async (_: unknown, index: number) => {
    while (!stopped) {
      try {
        // Bulk work: on the embedded database a person's request is given the connection first.
        const done = await runAsBulk(() => dispatcher.dispatchDue(index));
        if (done.sent === 0 && !stopped) await pause(Math.max(5, done.waitMs));
      } catch (error) {
        // A stopped send (the database restarting, a crash a test stages): its rows' leases decide.
        // A fault is logged (once a minute at most), so a dispatch that keeps failing is seen.
        if (!stopped) {
          if (Date.now() - loggedAt > 60_000) {
            loggedAt = Date.now();
            deps.log?.error({ err: error }, 'message dispatch failed');
          }
          await pause(settings.idleMs);
        }
      }
    }
  };
  if (deps.runWorkers) {
    await deps.jobs.register(POLL_JOB, (data) => status.poll(data), { retryLimit: 2, retryDelay: 30 });
    const sweep = createSweep({ ...deps, rows, dispatcher, settings });
    // A lease cannot run out sooner than it lasts: sweeping once a lease finds every dead claim in time.
    sweeper = await startSweeper(Math.min(deps.sweepEveryMs ?? 60_000, settings.leaseMs), () =>
      runAsBulk(async () => {
        await sweep();
        await status.sweepKept();
      }),
    );
    lanes = Array.from({ length: settings.lanes }, lane);
  }
  return {
    send,
    status,
    /** Queues rendered rows as pending (e.g. a campaign step's recipients); the dispatch sends them. */
    insertRecipients: rows.insertRecipients,
    /** One dispatch pass over every gateway with due rows; answers the calls made. */
    dispatchDue: dispatcher.dispatchDue,
    routes: (app: FastifyInstance) => messagesRoutes(app, { send }),
    async stop() {
      stopped = true;
      sweeper?.stop();
      for (const wake of [...wakers]) wake();
      // A call in flight ends by its own timeout; closing does not wait for more than a moment.
      await Promise.race([Promise.all(lanes), new Promise((r) => setTimeout(r, 2_000).unref())]);
    },
  };
}
