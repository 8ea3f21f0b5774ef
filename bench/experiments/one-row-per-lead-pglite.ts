// bench/README.md "The floor" (decision 009): the statements of one-row-per-lead.sql run on the
// embedded database (PGlite in a temp data directory, the app's shared_buffers), each timed, so the
// cheapest lead layout measured on PostgreSQL is measured against the embedded 30 s bar too.
//
//   node bench/experiments/one-row-per-lead-pglite.ts
//
// PGlite runs in this thread, as in the app's worker: one thread does all of it, as it would there.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const script = await readFile(new URL('./one-row-per-lead.sql', import.meta.url), 'utf8');
// psql's meta-commands (\timing, \echo) are dropped; statements end with ';' at a line's end.
const statements = script
  .split('\n')
  .filter((line) => !line.startsWith('\\') && !line.startsWith('--'))
  .join('\n')
  .split(/;\s*\n/)
  .map((statement) => statement.trim())
  .filter(Boolean);

const dir = await mkdtemp(join(tmpdir(), 'herald-lean-'));
try {
  const db = await PGlite.create(join(dir, 'pgdata'), {
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=64MB'],
  });
  await db.exec('create extension if not exists pg_trgm');
  let total = 0;
  for (const statement of statements) {
    const started = performance.now();
    await db.exec(statement);
    const ms = performance.now() - started;
    total += ms;
    console.log(`${(ms / 1000).toFixed(2).padStart(7)} s  ${statement.replace(/\s+/g, ' ').slice(0, 110)}`);
  }
  console.log(`${(total / 1000).toFixed(2).padStart(7)} s  in all`);
  await db.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}
