import module from 'node:module';

// V8's compiled code of every module, kept on disk (the OS temp folder, or NODE_COMPILE_CACHE):
// a second start skips compiling most of what it loads (decision 023). On before the app's
// modules load, hence the imports below are dynamic.
module.enableCompileCache?.();
const { buildApp } = await import('./app.ts');
const { ConfigError, loadConfig } = await import('./config.ts');

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
  // Signals are heard from the start: one that arrives while the app is still being built (migrations,
  // the database opening) lets the build finish, then closes it cleanly instead of killing it.
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let stopping: string | undefined;
  const shutdown = async () => {
    if (!app || !stopping) return;
    app.log.info({ signal: stopping }, 'shutting down');
    const timer = setTimeout(() => {
      app?.log.error('shutdown took too long, exiting');
      process.exit(1);
    }, 60_000);
    timer.unref();
    await app.close();
    process.exit(0);
  };
  const onSignal = (signal: string) => {
    // A second signal while the build has not finished yet (a stuck start, a second Ctrl+C) ends it.
    if (stopping && !app) process.exit(1);
    if (stopping) return;
    stopping = signal;
    void shutdown();
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  app = await buildApp(config);
  if (stopping) return shutdown();

  if (config.HERALD_ROLE === 'worker') {
    app.log.info({ mode: app.services.database.kind }, 'worker started');
    await app.ready();
    return;
  }
  await app.listen({ host: config.HOST, port: config.PORT });
  app.log.info(`Herald is running at ${config.APP_URL} (${app.services.database.kind} database)`);
}

main().catch((error) => {
  // A wrong file named by the configuration (the plan catalogue, the price list): its message only.
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(78);
  }
  console.error(error);
  process.exit(1);
});
