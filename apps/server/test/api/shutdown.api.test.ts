import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serverProcess } from '../support/server-process.ts';
import { waitUntil } from '../support/wait.ts';

/**
 * A stop that arrives while the server is still starting (opening the database, migrating) lets the
 * start finish and then closes cleanly, instead of killing the process mid-migration. Embedded: its
 * lock file tells the test that the database is being opened.
 */
describe('a SIGTERM during start-up', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-shutdown-'));
  const server = serverProcess({ DATA_DIR: dataDir });

  afterAll(async () => {
    await server.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes opening the database, then exits 0 and leaves it whole', async () => {
    server.launch();
    const lock = join(dataDir, 'pglite.lock');
    // Node's start and the database's opening take seconds on a loaded machine.
    await waitUntil('the database lock file', () => existsSync(lock), 60_000, 10);
    expect(existsSync(lock)).toBe(true);
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(existsSync(lock)).toBe(false);

    // The directory opens again and serves.
    await server.start();
    expect(await server.stop('SIGTERM')).toBe(0);
  });
});
