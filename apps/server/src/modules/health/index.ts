import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { healthRoutes } from './health.routes.ts';

/** Wires the health check over the platform's database and queue (routes only). */
export function createHealthModule({ database, jobs }: { database: Database; jobs: JobQueue }) {
  return { routes: (app: FastifyInstance) => healthRoutes(app, { database, jobs }) };
}
