import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZAccessTicket } from '@herald/shared/auth/tickets.schemas';
import { z } from 'zod';
import { currentUser } from '../../auth/authenticate.ts';
import { type EventBus, type EventEnvelope, isForUser } from '../../events/event-bus.ts';
import { createSessionWatch } from './session-watch.ts';

interface Options {
  bus: EventBus;
  heartbeatMs: number;
  /** How often open streams' sessions are checked; a revoked one's stream ends within this. */
  sessionCheckMs?: number;
}

const EVENTS_TICKET = 'events';

/**
 * `GET /api/events`: the signed-in user's live events as Server-Sent Events. EventSource cannot
 * send headers, so the browser first asks `POST /api/events/tickets` (with its bearer header) for a
 * single-use ticket and opens the stream with `?ticket=`.
 */
export async function eventsRoutes(app: FastifyInstance, { bus, heartbeatMs, sessionCheckMs }: Options) {
  const open = new Set<() => void>();
  const watch = createSessionWatch(app.liveSessions, sessionCheckMs ?? Math.min(heartbeatMs, 5_000));
  app.addHook('onClose', async () => {
    for (const end of open) end();
    watch.stop();
  });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/events/tickets',
    {
      preHandler: app.authorize('events:read'),
      schema: {
        tags: ['events'],
        summary: 'A single-use ticket to open GET /api/events',
        response: { 201: ZAccessTicket },
      },
    },
    async (request, reply) => reply.status(201).send(await app.issueTicket(request, EVENTS_TICKET)),
  );

  r.get(
    '/events',
    {
      config: { ticketPurpose: () => EVENTS_TICKET },
      preHandler: app.authorize('events:read'),
      schema: {
        tags: ['events'],
        summary: 'Live events (text/event-stream); opened with a ticket from POST /api/events/tickets',
        querystring: z.object({ ticket: z.string().optional(), lastEventId: z.coerce.number().optional() }),
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const header = request.headers['last-event-id'];
      const lastId = Number(Array.isArray(header) ? header[0] : (header ?? request.query.lastEventId ?? 0)) || 0;

      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      raw.write('retry: 3000\n\n');

      const send = (envelope: EventEnvelope) => {
        if (!isForUser(envelope.audience, user)) return;
        raw.write(
          `id: ${envelope.id}\nevent: ${envelope.event.type}\ndata: ${JSON.stringify(envelope.event.payload)}\n\n`,
        );
      };
      if (lastId > 0) for (const envelope of bus.since(lastId)) send(envelope);

      const unsubscribe = bus.subscribe(send);
      const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), heartbeatMs);
      const end = () => {
        clearInterval(heartbeat);
        unsubscribe();
        open.delete(end);
        watch.remove(end);
        if (!raw.writableEnded) raw.end();
      };
      open.add(end);
      // Revocation applies to every new request at once; this ends the stream already open.
      watch.add(user.sessionId, end);
      request.raw.on('close', end);
    },
  );
}
