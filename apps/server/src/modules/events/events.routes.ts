import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/authenticate.ts';
import { type EventBus, type EventEnvelope, isForUser } from '../../events/event-bus.ts';

interface Options {
  bus: EventBus;
  heartbeatMs: number;
}

/** `GET /api/events`: the signed-in user's live events as Server-Sent Events. */
export async function eventsRoutes(app: FastifyInstance, { bus, heartbeatMs }: Options) {
  const open = new Set<() => void>();
  app.addHook('onClose', async () => {
    for (const end of open) end();
  });

  app.withTypeProvider<ZodTypeProvider>().get(
    '/events',
    {
      config: { tokenInQuery: true },
      preHandler: app.authorize('events:read'),
      schema: {
        tags: ['events'],
        summary: 'Live events (text/event-stream); the token may be passed as ?token=',
        querystring: z.object({ token: z.string().optional(), lastEventId: z.coerce.number().optional() }),
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
        if (!raw.writableEnded) raw.end();
      };
      open.add(end);
      request.raw.on('close', end);
    },
  );
}
