import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZProcessList } from '@herald/shared/processes/processes.schemas';
import { z } from 'zod';
import { currentUser } from '../../auth/authenticate.ts';
import type { ProcessesRepository } from './processes.repository.ts';

/** The header popover's initial state; live changes arrive as `ProcessStatus` events. */
export async function processesRoutes(app: FastifyInstance, { processes }: { processes: ProcessesRepository }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/processes',
    {
      preHandler: app.authorize('events:read'),
      schema: { tags: ['processes'], summary: 'My system processes', response: { 200: ZProcessList } },
    },
    async (request) => {
      const user = currentUser(request);
      return { data: await processes.findVisible(user.teamId, user.id) };
    },
  );
  r.delete(
    '/processes/finished',
    {
      preHandler: app.authorize('events:read'),
      schema: {
        tags: ['processes'],
        summary: 'Clear finished processes from the popover',
        response: { 200: z.object({ cleared: z.number() }) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return { cleared: await processes.clearFinished(user.teamId, user.id) };
    },
  );
}
