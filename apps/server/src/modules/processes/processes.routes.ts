import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZProcessList } from '@herald/shared/processes/processes.schemas';
import { z } from 'zod';
import { currentUser } from '../../auth/authenticate.ts';
import type { ProcessesRepository } from '../../jobs/processes.repository.ts';

/** What the popover reads of the job platform's process rows. */
export type ProcessesReader = Pick<ProcessesRepository, 'findVisible' | 'clearFinished'>;

/** The header popover's initial state; live changes arrive as `ProcessStatus` events. */
export async function processesRoutes(app: FastifyInstance, { processes }: { processes: ProcessesReader }) {
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
