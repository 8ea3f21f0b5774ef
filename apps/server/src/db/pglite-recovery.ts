import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/**
 * Whether the last process on this data directory ended without closing PostgreSQL (kill -9, a
 * crash, power loss): a clean close removes `postmaster.pid`, a dead process leaves it. Read before
 * the database opens; the data directory lock (`data-dir-lock.ts`) rules out a live owner.
 */
export function endedUncleanly(dataDir: string | undefined): boolean {
  return dataDir !== undefined && existsSync(join(dataDir, 'postmaster.pid'));
}

/**
 * Planner statistics made whole again after an unclean end (decision 002, "After a hard kill").
 * Crash recovery discards PostgreSQL's cumulative statistics, and an ANALYZE run inside a
 * transaction that died (an import's chunk analyzes `lead_values` inside its own) can leave its row
 * estimate in `pg_class` without its column statistics; the embedded database has no autovacuum to
 * notice either. ANALYZE samples (at most 30,000 rows a table), once, before the first query.
 */
export async function analyzeAfterUncleanEnd(db: PGlite): Promise<void> {
  await db.exec('analyze');
}
