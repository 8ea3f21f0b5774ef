import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZHealth } from '@herald/shared/health/health.schemas';
import type { Database } from '../../db/database.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';

/** `GET /api/health`: 200 when the database and the job queue answer, 503 otherwise. */
export async function healthRoutes(app: FastifyInstance, { database, jobs }: { database: Database; jobs: JobQueue }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/health',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['health'],
        summary: 'Database and job queue reachability',
        response: { 200: ZHealth, 503: ZHealth },
      },
    },
    async (_request, reply) => {
      const dbOk = await database.ping();
      const jobsOk = dbOk && jobs.isRunning();
      const body = {
        status: dbOk && jobsOk ? ('ok' as const) : ('degraded' as const),
        database: dbOk ? ('ok' as const) : ('down' as const),
        jobs: jobsOk ? ('ok' as const) : ('down' as const),
        mode: database.kind,
        uptime_s: Math.round(process.uptime()),
      };
      return reply.status(body.status === 'ok' ? 200 : 503).send(body);
    },
  );
}
