import type { FastifyInstance } from 'fastify';
import { type ProcessesReader, processesRoutes } from './processes.routes.ts';

/** Wires the header popover's processes over the rows the job platform keeps (routes only). */
export function createProcessesModule({ processes }: { processes: ProcessesReader }) {
  return { routes: (app: FastifyInstance) => processesRoutes(app, { processes }) };
}
