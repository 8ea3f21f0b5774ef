import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { PgliteClient } from './pglite-client.ts';
import { PgliteDialect } from './pglite-dialect.ts';
import type { DB } from './schema.ts';

// int8 (counts, ids) as numbers like PGlite does; dates as 'YYYY-MM-DD' strings in both modes.
pg.types.setTypeParser(20, (value) => {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
});
pg.types.setTypeParser(1082, (value) => value);

export type SqlRunner = (sql: string, params?: readonly unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

export interface Database {
  kind: 'embedded' | 'postgres';
  db: Kysely<DB>;
  /** Runs raw SQL outside Kysely (pg-boss, health checks), through the same connection rules. */
  executeSql: SqlRunner;
  /** A `pg` connection string in server mode, for LISTEN/NOTIFY. */
  connectionString?: string;
  /** Whether the database answers; a connection busy with a query counts as answering. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const PING_TIMEOUT_MS = 5_000;
const STUCK_AFTER_MS = 120_000;

function withTimeout(check: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([check.catch(() => false), timeout]).finally(() => clearTimeout(timer));
}

export function createDatabase(config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR' | 'DB_POOL_SIZE'>): Database {
  if (config.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: config.DB_POOL_SIZE });
    // An idle client that loses its server (restart, kill) must not crash the process.
    pool.on('error', () => {});
    return {
      kind: 'postgres',
      db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }),
      executeSql: async (sql, params) => {
        const result = await pool.query(sql, params as unknown[]);
        // A multi-statement script returns one result per statement.
        if (Array.isArray(result)) return { rows: result.flatMap((r: pg.QueryResult) => r.rows) };
        return { rows: result.rows };
      },
      connectionString: config.DATABASE_URL,
      ping: () =>
        withTimeout(
          pool.query('select 1').then(() => true),
          PING_TIMEOUT_MS,
        ),
      close: async () => {
        await pool.end();
      },
    };
  }
  const dataDir = config.DATA_DIR === ':memory:' ? undefined : join(config.DATA_DIR, 'pglite');
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // One process per data directory: PGlite does not enforce it, and two openers corrupt it.
  const unlock = dataDir ? lockDataDir(join(config.DATA_DIR, 'pglite.lock')) : () => {};
  const client = new PgliteClient(dataDir);
  const db = new Kysely<DB>({ dialect: new PgliteDialect(client) });
  return {
    kind: 'embedded',
    db,
    executeSql: (sql, params) => client.run(sql, params ?? []),
    // PGlite is one connection: a health check must not queue behind a long report, and a query
    // that is running proves the worker alive. Only a connection stuck far too long counts as down.
    ping: async () => {
      const busy = client.busyForMs();
      if (busy > 0) return busy < STUCK_AFTER_MS;
      return withTimeout(
        client.run('select 1').then(() => true),
        PING_TIMEOUT_MS,
      );
    },
    close: async () => {
      try {
        await db.destroy();
      } finally {
        unlock();
      }
    },
  };
}
