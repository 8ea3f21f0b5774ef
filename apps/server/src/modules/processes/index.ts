import type { FastifyInstance } from 'fastify';
import type { ProcessesRepository } from './processes.repository.ts';
import { processesRoutes } from './processes.routes.ts';

/** Wires the header popover's processes over the rows the job queue keeps (routes only). */
export function createProcessesModule({ processes }: { processes: ProcessesRepository }) {
  return { routes: (app: FastifyInstance) => processesRoutes(app, { processes }) };
}
