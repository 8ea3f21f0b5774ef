import type { FastifyInstance } from 'fastify';
import type { EventBus } from '../../events/event-bus.ts';
import { eventsRoutes } from './events.routes.ts';

const HEARTBEAT_MS = 15_000;

/** Wires the live events stream over the platform's bus (routes only: the bus is the platform's). */
export function createEventsModule({ bus, heartbeatMs }: { bus: EventBus; heartbeatMs?: number }) {
  return {
    routes: (app: FastifyInstance) => eventsRoutes(app, { bus, heartbeatMs: heartbeatMs ?? HEARTBEAT_MS }),
  };
}
