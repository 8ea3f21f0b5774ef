import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const main = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

/**
 * A stop that arrives while the server is still starting (opening the database, migrating) lets the
 * start finish and then closes cleanly, instead of killing the process mid-migration. Embedded: its
 * lock file tells the test that the database is being opened.
 */
describe('a SIGTERM during start-up', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-shutdown-'));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  let server: ChildProcess | undefined;
  const spawnServer = () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.DATABASE_URL;
    server = spawn(process.execPath, [main], {
      env: { ...env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const child = server;
    return new Promise<number | string | null>((r) => child.once('exit', (code, signal) => r(code ?? signal)));
  };

  afterAll(() => {
    if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes opening the database, then exits 0 and leaves it whole', async () => {
    const exited = spawnServer();
    const lock = join(dataDir, 'pglite.lock');
    for (let i = 0; i < 600 && !existsSync(lock); i++) await new Promise((r) => setTimeout(r, 10));
    expect(existsSync(lock)).toBe(true);
    server?.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(lock)).toBe(false);

    // The directory opens again and serves.
    const again = spawnServer();
    let healthy = false;
    for (let i = 0; i < 300 && !healthy; i++) {
      healthy = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (!healthy) await new Promise((r) => setTimeout(r, 100));
    }
    expect(healthy).toBe(true);
    server?.kill('SIGTERM');
    expect(await again).toBe(0);
  });
});
