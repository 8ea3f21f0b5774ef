import type { FastifyInstance } from 'fastify';
import type { MessagesDeps } from './messages.deps.ts';
import { createMessagesRepository } from './messages.repository.ts';
import { messagesRoutes } from './messages.routes.ts';
import { createSendService } from './send.service.ts';
import { createStatusService, POLL_JOB, type PollJob } from './status.service.ts';

export type { MessagesDeps } from './messages.deps.ts';

/**
 * Wires messages (decision 020): the send path (single SMS now, campaign steps later), delivery
 * reports and replies from the gateways' hooks, the status poll for providers without callbacks,
 * and the sweep that turns abandoned claims into unknown outcomes.
 */
export async function createMessagesModule(
  given: Omit<MessagesDeps, 'leaseMs' | 'sweepEveryMs'> & {
    /** A claim's lease; by default long enough for three gateway timeouts and a margin. */
    leaseMs?: number;
    gatewayTimeoutMs: number;
    /** How often abandoned claims are looked for (a minute by default). */
    sweepEveryMs?: number;
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
  const leaseMs = given.leaseMs ?? given.gatewayTimeoutMs * 3 + 30_000;
  const deps = { ...given, leaseMs, sweepEveryMs: given.sweepEveryMs ?? 60_000 };
  const repo = createMessagesRepository(deps.db);
  const status = createStatusService({ ...deps, repo });
  const send = createSendService({ ...deps, repo, status });
  deps.onStatus((event) => status.apply(event.teamId, event.gatewayId, event.reports));
  deps.onInbound((event) => status.inbound(event));

  let timer: NodeJS.Timeout | undefined;
  if (deps.runWorkers) {
    await deps.jobs.register<PollJob>(POLL_JOB, (data) => status.poll(data), { retryLimit: 2, retryDelay: 30 });
    await status.sweep();
    timer = setInterval(() => void status.sweep().catch(() => {}), deps.sweepEveryMs);
    timer.unref();
  }
  return {
    send,
    status,
    routes: (app: FastifyInstance) => messagesRoutes(app, { send }),
    stop: () => clearInterval(timer),
  };
}
