import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { DEMO_DELIVERY_JOB, type DemoDelivery, registerDemoJobs } from './demo.jobs.ts';
import { createDemoRepository } from './demo.repository.ts';
import { demoRoutes } from './demo.routes.ts';
import { createDemoService } from './demo.service.ts';

export interface DemoModuleDeps {
  db: Kysely<DB>;
  jobs: Pick<JobQueue, 'register' | 'send'>;
  mailer: Mailer;
  delivery: DemoDelivery;
  /** The team's phone country (settings), for reading the phone as the team writes it. */
  defaultCountry: (teamId: number) => Promise<string>;
  log: { warn(obj: object, msg: string): void };
}

/** Wires Request demo: repository → service → routes, and the job that hands requests on. */
export async function createDemoModule({ db, jobs, mailer, delivery, defaultCountry, log }: DemoModuleDeps) {
  const repo = createDemoRepository(db);
  const queue = {
    async deliver(id: number) {
      await jobs.send(DEMO_DELIVERY_JOB, { id });
    },
  };
  const service = createDemoService({ repo, queue, defaultCountry });
  await registerDemoJobs(jobs, { repo, mailer, delivery, log });
  return { service, routes: (app: FastifyInstance) => demoRoutes(app, { demo: service }) };
}
