// Hosts PGlite off the main thread: a long query here must not freeze the HTTP event loop
// (measured: a 400 ms audience count run on the main thread blocked every request for 400 ms).
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { WorkerRequest, WorkerResponse } from './pglite-protocol.ts';
import { analyzeAfterUncleanEnd, endedUncleanly } from './pglite-recovery.ts';

const { dataDir } = workerData as { dataDir: string | undefined };

// Same value shapes as the pg pool in server mode (see pg-pool.ts): dates stay strings.
const parsers = { 1082: (value: string) => value };

/**
 * PostgreSQL's default 128 MB of shared buffers live in this thread's WebAssembly memory, which
 * never shrinks once grown. 64 MB took ~80 MB off the process after a million-lead import at the
 * same speed; 32 MB slowed the duplicate-heavy XLSX import (decision 002, "Memory").
 */
const SHARED_BUFFERS = '64MB';

/**
 * A new WAL segment is otherwise filled with 16 MB of zeros first, inside whichever statement
 * crossed into it: a 40–50 ms stall in one chunk of an import in every few, the longest a request
 * waited behind it. Zero-filling only reserves disk space ahead; the WAL is as safe without it
 * (decision 013).
 */
const WAL_INIT_ZERO = 'off';

const unclean = endedUncleanly(dataDir);
const dbReady = PGlite.create(dataDir ?? 'memory://', {
  parsers,
  extensions: { pg_trgm },
  startParams: [
    ...PGlite.defaultStartParams,
    ...['-c', `shared_buffers=${SHARED_BUFFERS}`, '-c', `wal_init_zero=${WAL_INIT_ZERO}`],
  ],
}).then(async (db) => {
  if (unclean) await analyzeAfterUncleanEnd(db);
  return db;
});

function post(message: WorkerResponse) {
  parentPort?.postMessage(message);
}

parentPort?.on('message', async (request: WorkerRequest) => {
  let db: PGlite;
  try {
    db = await dbReady;
  } catch (error) {
    post({ id: request.id, error: serializeError(error) });
    return;
  }
  try {
    if (request.type === 'close') {
      await db.close();
      post({ id: request.id, result: { rows: [], affectedRows: 0 } });
      return;
    }
    if (request.type === 'exec') {
      // Several statements without parameters (pg-boss schema scripts, migrations).
      const results = await db.exec(request.sql);
      const rows = results.flatMap((r) => r.rows);
      post({ id: request.id, result: { rows, affectedRows: results.at(-1)?.affectedRows ?? 0 } });
      return;
    }
    const result = await db.query(request.sql, request.params);
    post({
      id: request.id,
      result: { rows: result.rows as Record<string, unknown>[], affectedRows: result.affectedRows ?? 0 },
    });
  } catch (error) {
    post({ id: request.id, error: serializeError(error) });
  }
});

function serializeError(error: unknown) {
  const e = error as Record<string, unknown>;
  return {
    message: String(e?.message ?? error),
    code: typeof e?.code === 'string' ? e.code : undefined,
    detail: typeof e?.detail === 'string' ? e.detail : undefined,
    constraint: typeof e?.constraint === 'string' ? e.constraint : undefined,
  };
}
