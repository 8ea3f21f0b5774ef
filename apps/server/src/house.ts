import type { FastifyInstance } from 'fastify';

/**
 * What every module's `index.ts` answers, in one shape, so `app.ts` lists the modules once and
 * derives the rest from that list.
 */
export interface HouseModule {
  /** Routes under `/api`, each module in a plugin of its own (hooks stay inside it). */
  routes?: (app: FastifyInstance) => unknown;
  /** Routes at the root, outside `/api`: pages and redirects. */
  pageRoutes?: (app: FastifyInstance) => unknown;
  /** Ends the module's timers, sweeps and buffers; called on close, before the platform closes. */
  stop?: () => unknown;
}

/** Registers the modules' routes (theirs under `/api`, pages at the root) and their stops on close. */
export async function registerModules(app: FastifyInstance, modules: readonly HouseModule[]): Promise<void> {
  app.addHook('onClose', async () => {
    await Promise.all(modules.map((module) => module.stop?.()));
  });
  await app.register(
    async (api) => {
      for (const { routes } of modules) if (routes) await api.register(async (scope) => void (await routes(scope)));
    },
    { prefix: '/api' },
  );
  for (const { pageRoutes } of modules)
    if (pageRoutes) await app.register(async (scope) => void (await pageRoutes(scope)));
}

/** Runs a module's start; if it throws (a wrong plans file), the app closes what it opened first. */
export async function closingOnFailure<T>(app: FastifyInstance, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    await app.close();
    throw error;
  }
}
