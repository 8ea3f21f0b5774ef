import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
/** As in test-app.ts: the shipped plans with a Trial without limits, unless a test names others. */
const plansFile = fileURLToPath(new URL('../fixtures/plans/unlimited-trial.json', import.meta.url));

export type Exit = number | string | null;

/**
 * The server's entry (`src/main.ts`) run as a child process, as an operator runs it: for tests of
 * signals, crashes and restarts, which `app.inject()` cannot show. `env` is laid over this
 * process's environment without its DATABASE_URL, so a test is embedded unless it passes one.
 */
export function serverProcess(env: Record<string, string>) {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  let child: ChildProcess | undefined;
  let exited: Promise<Exit> = Promise.resolve(null);

  /** Another process of the same configuration, on its own port; stderr piped, for its message. */
  const spawnOn = (onPort: number, stderr: 'inherit' | 'pipe' = 'inherit') => {
    const inherited: NodeJS.ProcessEnv = { ...process.env };
    delete inherited.DATABASE_URL;
    return spawn(process.execPath, [main], {
      env: {
        ...inherited,
        HOST: '127.0.0.1',
        PORT: String(onPort),
        LOG_LEVEL: 'error',
        HERALD_PLANS_FILE: plansFile,
        // Test payments, which a PostgreSQL installation must ask for.
        HERALD_PAYMENTS: 'sandbox',
        ...env,
      },
      stdio: ['ignore', 'ignore', stderr],
    });
  };
  const exitOf = (p: ChildProcess) => new Promise<Exit>((r) => p.once('exit', (code, signal) => r(code ?? signal)));

  const server = {
    port,
    spawnOn,
    exitOf,
    get pid() {
      return child?.pid;
    },
    /** Starts it without waiting (to signal it while it starts); `stop` waits for its exit. */
    launch() {
      child = spawnOn(port);
      exited = exitOf(child);
    },
    /**
     * Starts it and waits until GET /api/health answers: seconds when idle, but a start that
     * opens and migrates the database took over 30 s on a loaded two-core machine.
     */
    async start(timeoutMs = 120_000) {
      server.launch();
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const up = await fetch(`http://127.0.0.1:${port}/api/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (up) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`server did not start within ${timeoutMs} ms`);
    },
    /** Sends the signal and waits for the exit: its code, or the signal that ended it. */
    stop(signal: NodeJS.Signals): Promise<Exit> {
      child?.kill(signal);
      return exited;
    },
    /** For afterAll: kills it if it still runs. */
    async dispose() {
      if (child && child.exitCode === null && child.signalCode === null) await server.stop('SIGKILL');
    },
    /** A JSON call to its API; a Buffer body goes as it is (multipart), anything else as JSON. */
    async api(method: string, path: string, token?: string, body?: unknown, headers: Record<string, string> = {}) {
      const res = await fetch(`http://127.0.0.1:${port}/api${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body && !(body instanceof Buffer) ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: body instanceof Buffer ? new Uint8Array(body) : body ? JSON.stringify(body) : undefined,
      });
      // biome-ignore lint/suspicious/noExplicitAny: tests read a few known fields of JSON answers
      return { status: res.status, json: (await res.json()) as any };
    },
  };
  return server;
}

export type ServerProcess = ReturnType<typeof serverProcess>;

/** A CSV of `count` leads (phone, email, city) whose numbers start at `from`: distinct phones. */
export function numberedLeadsCsv(from: number, count: number): Buffer {
  const lines = ['phone,email,city'];
  for (let i = from; i < from + count; i++) {
    lines.push(`+3805${String(i).padStart(8, '0')},user${i}@example.com,City ${i % 100}`);
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}
