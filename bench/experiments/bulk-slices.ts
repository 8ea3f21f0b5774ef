// How long bulk work holds the embedded database's one connection, per slice size (decision 013).
// `node bench/experiments/bulk-slices.ts [rows] [chunk sizes or auto, comma-separated]` imports a CSV of
// `rows` rows twice into one team per chunk size (IMPORT_CHUNK_ROWS), then exports every lead of the last import
// (the export batch as the segments module sets it), and prints, per run, the time it took and the
// lengths of bulk work's holds of the connection: the longest is what a request arriving at the
// wrong moment waits. `LONG_HOLD_MS` (100): the holds longer than this are listed with their
// statements; `KINDS` (8): how many kinds of statement the totals list.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ConnectionPriority, currentPriority } from '../../apps/server/src/db/connection-priority.ts';
import { PgliteClient } from '../../apps/server/src/db/pglite-client.ts';
import { startHerald } from '../lib/herald.ts';
import { writeImportFiles } from '../lib/import-files.ts';
import { percentile } from '../lib/interactive-sampler.ts';
import { uploadFile } from '../lib/upload.ts';

const rows = Number(process.argv[2] ?? 50_000);
// `auto`: the app's own sizing (toward a target hold); a number: chunks of that many rows.
const chunkSizes = (process.argv[3] ?? '20000,5000,2000,auto').split(',');

const holds: Record<ConnectionPriority, number[]> = { interactive: [], bulk: [] };
// The bulk holds longer than the request bar leaves room for, with the statements each was made of.
const LONG_HOLD_MS = Number(process.env.LONG_HOLD_MS ?? 100);
let longHolds: Array<{ ms: number; statements: string[] }> = [];
let inHold: string[] = [];
const acquire = PgliteClient.prototype.acquire;
PgliteClient.prototype.acquire = async function (this: PgliteClient, priority = currentPriority()) {
  const release = await acquire.call(this, priority);
  const started = performance.now();
  inHold = [];
  let done = false;
  return () => {
    const ms = performance.now() - started;
    if (!done) holds[priority].push(ms);
    if (!done && priority === 'bulk' && ms > LONG_HOLD_MS) longHolds.push({ ms, statements: inHold });
    done = true;
    release();
  };
};
// The slowest statements of each run, to see what a long hold is made of.
let statements: Array<{ ms: number; sql: string }> = [];
const query = PgliteClient.prototype.query;
PgliteClient.prototype.query = async function (this: PgliteClient, sql: string, params?: readonly unknown[]) {
  const started = performance.now();
  try {
    return await query.call(this, sql, params);
  } finally {
    const ms = performance.now() - started;
    statements.push({ ms, sql: sql.replace(/\s+/g, ' ').slice(0, 110) });
    if (ms >= 5) inHold.push(`${ms.toFixed(0)} ${sql.replace(/\s+/g, ' ').trim().slice(0, 50)}`);
  }
};
const reset = () => {
  holds.interactive = [];
  holds.bulk = [];
  statements = [];
  longHolds = [];
};
const f = (ms: number) => ms.toFixed(0).padStart(6);
const summary = (label: string, seconds: number) => {
  const b = holds.bulk;
  console.log(
    `${label.padEnd(28)} ${seconds.toFixed(1).padStart(7)} s  bulk holds ${String(b.length).padStart(6)}: p50 ${f(percentile(b, 50))} p99 ${f(percentile(b, 99))} max ${f(Math.max(0, ...b))} ms, busy ${(b.reduce((s, x) => s + x, 0) / 1000).toFixed(1)} s`,
  );
  for (const s of statements.sort((x, y) => y.ms - x.ms).slice(0, 5)) console.log(`    ${f(s.ms)} ms  ${s.sql}`);
  // Where the busy time went, by kind of statement: what a chunk costs besides its rows.
  const kinds = new Map<string, { ms: number; n: number }>();
  for (const s of statements) {
    const k = kinds.get(s.sql.slice(0, 70)) ?? { ms: 0, n: 0 };
    kinds.set(s.sql.slice(0, 70), { ms: k.ms + s.ms, n: k.n + 1 });
  }
  console.log(`    bulk holds over ${LONG_HOLD_MS} ms: ${longHolds.length}`);
  for (const h of longHolds.sort((x, y) => y.ms - x.ms).slice(0, 6))
    console.log(`      ${f(h.ms)} ms: ${h.statements.join(' | ') || '(no statement of 5 ms or more)'}`);
  for (const [sql, k] of [...kinds].sort((x, y) => y[1].ms - x[1].ms).slice(0, Number(process.env.KINDS ?? 8)))
    console.log(`    total ${f(k.ms)} ms in ${String(k.n).padStart(5)}  ${sql}`);
};

const dir = mkdtempSync(join(tmpdir(), 'herald-slices-'));
const csvPath = join(dir, 'leads.csv');
await writeImportFiles({ csvPath, csvRows: rows, xlsxPath: join(dir, 'unused.xlsx'), xlsxRows: 1 });
const ctx = { database: 'embedded' as const, durationSeconds: 0, log: (m: string) => console.error(m) };
console.log(`${rows.toLocaleString('en')} rows, ${new Date().toISOString()}`);
try {
  for (const [i, chunk] of chunkSizes.entries()) {
    // The last import's server goes on to the exports, over the leads it holds.
    const herald = await startHerald(ctx, chunk === 'auto' ? {} : { IMPORT_CHUNK_ROWS: chunk });
    try {
      const headers = { authorization: `Bearer ${(await herald.signUpOwner()).token}` };
      // biome-ignore lint/suspicious/noExplicitAny: a few known fields of JSON answers
      const api = async (method: string, path: string, body?: unknown): Promise<any> => {
        const r = await fetch(`${herald.url}/api${path}`, {
          method,
          headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
        return r.json();
      };
      const source = await api('POST', '/sources', { name: 'Slices' });
      // Twice into one team: the second import publishes beside leads the team already has, as
      // most imports do (its duplicate recount probes them).
      for (const round of ['first', 'second']) {
        const list = await api('POST', `/sources/${source.id}/lists`, { name: round });
        const fields = { 'list_id[0]': String(list.id), black_list: '0' };
        const up = await uploadFile(`${herald.url}/api/imports`, headers, fields, csvPath, 'leads.csv');
        const doc = JSON.parse(up.body);
        const mapping = doc.attributes.map((c: { id: number; name: string }) => ({
          processing_document_attribute_id: c.id,
          name: c.name,
        }));
        await api('POST', `/sync-import/${doc.id}/import-attributes/multiple`, { list: mapping });
        reset();
        const started = performance.now();
        await api('POST', `/imports/${doc.id}/dispatch`);
        for (;;) {
          const row = await api('GET', `/imports/${doc.id}`);
          if (row.status === 'completed') break;
          if (row.status === 'failed') throw new Error(`import failed: ${row.error}`);
          await new Promise((r) => setTimeout(r, 250));
        }
        summary(`${round} import, chunks of ${chunk}`, (performance.now() - started) / 1000);
      }
      if (i < chunkSizes.length - 1) continue;
      const everyone = await api('POST', '/segments', { name: 'Everyone', ignore_new_leads: false });
      reset();
      const started = performance.now();
      const job = await api('POST', `/segments/${everyone.id}/leads/csv`, { name: 'everyone' });
      for (;;) {
        const active = (await api('GET', '/exports/active')).data as Array<{ id: number; type: string }>;
        const mine = active.find((e) => e.id === job.id);
        if (mine && mine.type !== 'export-pending') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      summary('export of every lead', (performance.now() - started) / 1000);
    } finally {
      await herald.close();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
