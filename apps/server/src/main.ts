import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';

// Entry point: reads configuration, builds the app, listens (unless a worker-only process), and
// shuts down gracefully: in-flight requests and jobs finish, then the database closes.
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
  const app = await buildApp(config);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error('shutdown took too long, exiting');
      process.exit(1);
    }, 60_000);
    timer.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  if (config.HERALD_ROLE === 'worker') {
    app.log.info({ mode: app.services.database.kind }, 'worker started');
    await app.ready();
    return;
  }
  await app.listen({ host: config.HOST, port: config.PORT });
  app.log.info(`Herald is running at ${config.APP_URL} (${app.services.database.kind} database)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
