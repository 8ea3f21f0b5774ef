// bench/README.md "Embedded kill -9" (decision 009): what a hard kill (or a SIGTERM) of an embedded server
// does to its data. Each run: a fresh DATA_DIR, a real server process, a CSV import; the server is
// stopped with the signal while parsing, again while publishing, again while it starts on what that
// left (WAL replay), and once more just after an acknowledged write with the import done; after each stop the data directory is copied and
// inspected (does it open, do the import's rows agree with its bookkeeping and tallies, amcheck),
// then the server is started again on it. At the end every row of the file must be in the list once.
//
//   npm run embedded-kill -w @herald/bench -- [--signal kill|term] [--runs 5] [--rows 300000]
//     [--publish-window 15] [--keep]
//
// --publish-window: the stop while publishing comes at a random time up to this many seconds after
// publishing began. --keep leaves each run's DATA_DIR (and its server.log) in the temp directory.
//
// Prints one line per stop and a table; writes bench/results/embedded-kill-<signal>.json.
//
//   npm run embedded-kill -w @herald/bench -- --scenario resume [--signal kill|term] [--runs 1]
//     [--rows 300000] [--stop-at 20000] [--resume-timeout 900]
//
// The resume scenario (embedded-kill-resume.ts): one stop once --stop-at leads are published (a
// negative --stop-at: once that many rows are parsed), then the restart, the seconds until the
// import ends and the API's latency meanwhile; writes bench/results/embedded-kill-resume-<signal>.json.
import { cpSync, createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type ImportState, resumeAfterStop, startImport } from './embedded-kill-resume.ts';
import { HeraldProcess, sleep } from './herald-process.ts';
import { type Inspection, inspect } from './pglite-inspect.ts';

const { values: args } = parseArgs({
  options: {
    signal: { type: 'string', default: 'kill' },
    runs: { type: 'string', default: '5' },
    rows: { type: 'string', default: '300000' },
    keep: { type: 'boolean', default: false },
    'publish-window': { type: 'string', default: '15' },
    scenario: { type: 'string', default: 'stops' },
    'stop-at': { type: 'string', default: '20000' },
    'resume-timeout': { type: 'string', default: '900' },
  },
});
const signal = args.signal === 'term' ? 'SIGTERM' : 'SIGKILL';
const RUNS = Number(args.runs);
const ROWS = Number(args.rows);
const PUBLISH_WINDOW_MS = Number(args['publish-window']) * 1000;
const log = (m: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${m}\n`);

interface Stop {
  run: number;
  moment: 'parsing' | 'publishing' | 'starting (crash recovery)' | 'idle after a write';
  atStop: string;
  shutdown: { code: number | null; ms: number; hung: boolean };
  snapshot: Inspection;
  /** The snapshot's rows agree with the import's bookkeeping, the tallies, and amcheck. */
  coherent: boolean;
  restartMs?: number;
  restartError?: string;
  /** The import as first seen after the restart. */
  after?: string;
}
interface Final {
  run: number;
  status: string;
  snapshot: Inspection;
  exact: boolean;
}

async function writeCsv(path: string) {
  const out = createWriteStream(path);
  out.write('phone,email,city\n');
  let chunk = '';
  for (let i = 0; i < ROWS; i++) {
    chunk += `+3805${String(i).padStart(8, '0')},user${i}@example.com,City ${i % 100}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

function coherent(s: Inspection, moment: Stop['moment'], run: number) {
  if (!s.opened || s.error || (s.corruption?.length ?? 1) > 0 || !s.import) return false;
  const leads = s.leads ?? -1;
  return (
    leads === s.import.leads_processed &&
    s.tally === leads &&
    s.values === leads * 3 &&
    s.phones === leads &&
    s.distinctPhones === leads &&
    (moment !== 'idle after a write' || (s.lists ?? []).includes(`after-kill-${run}`))
  );
}

async function runOnce(run: number, csv: string, stops: Stop[]): Promise<Final> {
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-kill-exp-'));
  const server = new HeraldProcess(dataDir, 20_000 + Math.floor(Math.random() * 20_000), join(dataDir, 'server.log'));
  log(`run ${run}: ${dataDir}`);
  await server.start();
  const { source, list, importId } = await startImport(server, csv, run);
  const doc = { id: importId };

  const state = async (): Promise<ImportState> => (await server.api('GET', `/imports/${doc.id}`)).json;
  const show = (s: ImportState) => `${s.status} ${s.progress}% ${s.leads_processed.toLocaleString('en')} published`;
  const waitFor = async (test: (s: ImportState) => boolean, timeoutMs: number) => {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const s = await state();
      if (test(s)) return s;
      await sleep(50);
    }
    throw new Error(`timed out in state ${show(await state())}`);
  };

  /** Stops the server with the signal, inspects a copy of its data, starts it again. */
  async function stopAt(moment: Stop['moment'], atStop: string, restart = true) {
    const shutdown = await server.stop(signal);
    const copy = mkdtempSync(join(tmpdir(), 'herald-kill-snap-'));
    cpSync(join(dataDir, 'pglite'), copy, { recursive: true });
    const snapshot = await inspect(copy, list.id, doc.id);
    rmSync(copy, { recursive: true, force: true });
    const stop: Stop = { run, moment, atStop, shutdown, snapshot, coherent: coherent(snapshot, moment, run) };
    if (!restart) {
      stop.after = 'next row: started again and stopped while starting';
      stops.push(stop);
      log(`run ${run}: ${moment}: ${JSON.stringify(stop)}`);
      return;
    }
    try {
      stop.restartMs = await server.start();
      const first = await Promise.race([state(), sleep(5000).then(() => undefined)]);
      stop.after = first ? show(first) : 'busy (a publishing transaction holds the connection)';
    } catch (error) {
      stop.restartError = String(error);
    }
    stops.push(stop);
    log(`run ${run}: ${moment}: ${JSON.stringify(stop)}`);
    if (stop.restartError) throw new Error(`run ${run}: the server did not start again`);
  }

  const parseAt = 10 + Math.floor(Math.random() * 70);
  const parsing = await waitFor(
    (s) => (s.status === 'parsing' && s.progress >= parseAt) || ['resolving', 'completed', 'failed'].includes(s.status),
    600_000,
  );
  await stopAt('parsing', show(parsing));
  // Publishing: a state poll waits for the one connection while a chunk's transaction holds it, so
  // the stop comes at a random time after publishing began, not at an observed state; the copy
  // inspected afterwards tells how many chunks had committed.
  const seen = await waitFor(
    (s) => ['start_resolve_duplicates', 'resolve_duplicates'].includes(s.stage) || s.status === 'completed',
    1_200_000,
  );
  const delay = Math.random() * PUBLISH_WINDOW_MS;
  await sleep(delay);
  await stopAt('publishing', `${show(seen)}, then ${(delay / 1000).toFixed(1)} s`, false);
  // Then while the server starts on the data directory that kill left: PGlite replays its WAL,
  // migrations and the orphan sweep run, the import resumes. (Never two servers on one directory:
  // PGlite does not lock it, and two openers corrupt it.)
  const startDelay = 200 + Math.random() * 2800;
  server.spawn();
  await sleep(startDelay);
  await stopAt('starting (crash recovery)', `${(startDelay / 1000).toFixed(1)} s after the start`);
  let done = await waitFor((s) => s.status === 'completed' || s.status === 'failed', 1_800_000);
  if (done.status === 'failed') {
    // A stopped run that ended as failed: the user's way back is PUT sync-import {status: pending}.
    log(`run ${run}: import failed (${done.error}); resuming it by hand`);
    await server.api('PUT', `/sync-import/${doc.id}`, { status: 'pending' });
    done = await waitFor((s) => s.status === 'completed' || s.status === 'failed', 1_800_000);
  }
  const write = await server.api('POST', `/sources/${source.id}/lists`, { name: `after-kill-${run}` });
  if (write.status !== 201) throw new Error(`write before the idle stop: ${write.status}`);
  await stopAt('idle after a write', `list after-kill-${run} created (201)`);

  await server.stop('SIGTERM');
  const snapshot = await inspect(join(dataDir, 'pglite'), list.id, doc.id);
  const exact =
    done.status === 'completed' &&
    snapshot.leads === ROWS &&
    snapshot.distinctPhones === ROWS &&
    snapshot.phones === ROWS &&
    snapshot.values === ROWS * 3 &&
    snapshot.tally === ROWS &&
    snapshot.stagingTables === 0 &&
    snapshot.corruption?.length === 0;
  const final: Final = { run, status: done.status, snapshot, exact };
  log(`run ${run}: final: ${JSON.stringify(final)}`);
  if (!args.keep) rmSync(dataDir, { recursive: true, force: true });
  return final;
}

const yes = (b: boolean | undefined) => (b ? 'yes' : 'NO');

async function resumeScenario(csv: string) {
  const results = [];
  for (let run = 1; run <= RUNS; run++) {
    const r = await resumeAfterStop(
      csv,
      ROWS,
      signal,
      Number(args['stop-at']),
      Number(args['resume-timeout']),
      args.keep,
    );
    log(`run ${run}: ${JSON.stringify(r)}`);
    results.push(r);
  }
  const out = new URL('../results/', import.meta.url);
  mkdirSync(out, { recursive: true });
  writeFileSync(
    new URL(`embedded-kill-resume-${signal.toLowerCase()}.json`, out),
    JSON.stringify({ signal, rows: ROWS, date: new Date().toISOString(), results }, null, 2),
  );
  const lines = ['| run | stopped at | restart | import | finished after | API median, max | leads every 30 s |'];
  lines.push('| ---: | ---: | ---: | --- | ---: | ---: | --- |');
  for (const [i, r] of results.entries()) {
    lines.push(
      `| ${i + 1} | ${r.stoppedAt} | ${(r.restartMs / 1000).toFixed(1)} s | ${r.status} | ${r.finishS} s | ${r.medianMs} ms, ${r.maxMs} ms | ${r.trace.join(' ')} |`,
    );
  }
  console.log(lines.join('\n'));
  if (results.some((r) => r.status !== 'completed' || r.leads !== ROWS)) process.exitCode = 1;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'herald-kill-csv-'));
  const csv = join(dir, 'big.csv');
  await writeCsv(csv);
  if (args.scenario === 'resume') {
    try {
      await resumeScenario(csv);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return;
  }
  log(`${signal}, ${RUNS} runs, ${ROWS.toLocaleString('en')} rows`);
  const stops: Stop[] = [];
  const finals: Final[] = [];
  try {
    for (let run = 1; run <= RUNS; run++) {
      try {
        finals.push(await runOnce(run, csv, stops));
      } catch (error) {
        log(`run ${run} aborted: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const results = new URL('../results/', import.meta.url);
  mkdirSync(results, { recursive: true });
  writeFileSync(
    new URL(`embedded-kill-${signal.toLowerCase()}.json`, results),
    JSON.stringify({ signal, rows: ROWS, runs: RUNS, date: new Date().toISOString(), stops, finals }, null, 2),
  );

  const lines = [
    `| run | moment | state when stopped | exit | opens (copy) | rows = bookkeeping, tallies, amcheck | restart | import after restart |`,
    '| ---: | --- | --- | --- | --- | --- | ---: | --- |',
  ];
  for (const s of stops) {
    const exit = s.shutdown.hung ? 'hung' : `${s.shutdown.code ?? signal} ${(s.shutdown.ms / 1000).toFixed(1)} s`;
    const detail = `${yes(s.coherent)} (${s.snapshot.leads ?? '?'} leads, ${s.snapshot.import?.status ?? '?'}, ${s.snapshot.corruption?.length ?? '?'} corrupt)`;
    const restart = s.restartError
      ? 'FAILED'
      : s.restartMs === undefined
        ? '—'
        : `${(s.restartMs / 1000).toFixed(1)} s`;
    lines.push(
      `| ${s.run} | ${s.moment} | ${s.atStop} | ${exit} | ${yes(s.snapshot.opened)} | ${detail} | ${restart} | ${s.after ?? ''} |`,
    );
  }
  lines.push('', '| run | import | leads | distinct phones | values | lead_counts | staging left | exactly once |');
  lines.push('| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const f of finals) {
    const s = f.snapshot;
    lines.push(
      `| ${f.run} | ${f.status} | ${s.leads} | ${s.distinctPhones} | ${s.values} | ${s.tally} | ${s.stagingTables} | ${yes(f.exact)} |`,
    );
  }
  console.log(lines.join('\n'));
  if (finals.length < RUNS || finals.some((f) => !f.exact) || stops.some((s) => !s.coherent)) process.exitCode = 1;
}

await main();
