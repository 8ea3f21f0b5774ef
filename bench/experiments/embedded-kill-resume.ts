// The resume scenario of the embedded kill experiment: a big import stopped (SIGKILL or SIGTERM)
// once about `killAt` leads are published, the server started again on the same DATA_DIR, then the
// time until the import is done and the latency of an API call that reads the database meanwhile.
// Before the restart a copy of the data directory shows what the planner will work from (row
// estimates of the tables a resumed run reads, and the cumulative statistics PostgreSQL keeps).
import { cpSync, mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { HeraldProcess, sleep } from './herald-process.ts';

export interface ImportState {
  status: string;
  stage: string;
  progress: number;
  leads_processed: number;
  parsed_leads_count: number;
  error: string | null;
}

/** Signs up, makes a list and dispatches an import of `csv` (phone, email, city) into it. */
export async function startImport(server: HeraldProcess, csv: string, run: number) {
  await server.signUp(`kill${run}@example.com`);
  const source = (await server.api('POST', '/sources', { name: 'Killed' })).json;
  const list = (await server.api('POST', `/sources/${source.id}/lists`, { name: 'Killed list' })).json;
  const form = new FormData();
  form.append('list_id[0]', String(list.id));
  form.append('black_list', '0');
  form.append('file', await openAsBlob(csv), 'big.csv');
  const doc = (await server.api('POST', '/imports', form)).json;
  const attrs = (await server.api('GET', '/lead-attributes')).json.data as Array<{ id: number; slug: string }>;
  const attr = (slug: string) => attrs.find((a) => a.slug === slug)?.id;
  const mapping = doc.attributes.map((c: { id: number; name: string }) =>
    c.name === 'city'
      ? { processing_document_attribute_id: c.id, name: 'City' }
      : { processing_document_attribute_id: c.id, lead_attribute_id: attr(c.name) },
  );
  await server.api('POST', `/sync-import/${doc.id}/import-attributes/multiple`, { list: mapping });
  if ((await server.api('POST', `/imports/${doc.id}/dispatch`)).status !== 200) throw new Error('dispatch failed');
  return { source, list, importId: doc.id as number };
}

export interface PlannerView {
  table: string;
  reltuples: number;
  relpages: number;
  /** Cumulative statistics (reset by crash recovery). */
  liveTuples: number | null;
  modifiedSinceAnalyze: number | null;
  analyzed: boolean;
}

/** Row estimates and cumulative statistics of the lead tables and the staging tables in a copy. */
export async function plannerView(pgliteDir: string): Promise<PlannerView[]> {
  const copy = mkdtempSync(join(tmpdir(), 'herald-kill-plan-'));
  cpSync(pgliteDir, copy, { recursive: true });
  const db = await PGlite.create(copy);
  try {
    const r = await db.query<Record<string, unknown>>(`
      select c.relname as table, c.reltuples, c.relpages, s.n_live_tup, s.n_mod_since_analyze,
        exists (select 1 from pg_statistic st where st.starelid = c.oid) as analyzed
      from pg_class c left join pg_stat_user_tables s on s.relid = c.oid
      where c.relkind = 'r' and (c.relname in ('leads', 'lead_values', 'lead_logs') or c.relname like 'import_rows_%')
      order by c.relname`);
    return r.rows.map((x) => ({
      table: String(x.table),
      reltuples: Number(x.reltuples),
      relpages: Number(x.relpages),
      liveTuples: x.n_live_tup === null ? null : Number(x.n_live_tup),
      modifiedSinceAnalyze: x.n_mod_since_analyze === null ? null : Number(x.n_mod_since_analyze),
      analyzed: Boolean(x.analyzed),
    }));
  } finally {
    await db.close().catch(() => {});
    rmSync(copy, { recursive: true, force: true });
  }
}

export interface ResumeResult {
  signal: string;
  rows: number;
  /** Leads published when the server was stopped. */
  stoppedAt: number;
  before: PlannerView[];
  restartMs: number;
  /** Seconds from the restart until the import ended, and how it ended (or 'timed out'). */
  finishS: number;
  status: string;
  leads: number;
  /** Latency of GET /imports/{id} polled once a second meanwhile: median, max (ms). */
  medianMs: number;
  maxMs: number;
  /** Leads published every 30 s after the restart. */
  trace: number[];
}

/**
 * One run: import `csv` (`rows` rows), stop the server with `signal` once `killAt` leads are
 * published (a negative `killAt`: once -killAt rows are parsed, or the first chunk is published),
 * start it again and follow the import for at most `timeoutS` seconds.
 */
export async function resumeAfterStop(
  csv: string,
  rows: number,
  signal: 'SIGKILL' | 'SIGTERM',
  killAt: number,
  timeoutS: number,
  keep = false,
): Promise<ResumeResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-kill-resume-'));
  const server = new HeraldProcess(dataDir, 20_000 + Math.floor(Math.random() * 20_000), join(dataDir, 'server.log'));
  try {
    await server.start();
    const { importId } = await startImport(server, csv, 1);
    const state = async (): Promise<ImportState> => (await server.api('GET', `/imports/${importId}`)).json;
    let s = await state();
    const reached = (x: ImportState) =>
      killAt > 0 ? x.leads_processed >= killAt : x.parsed_leads_count >= -killAt || x.leads_processed > 0;
    while (!reached(s) && !['completed', 'failed'].includes(s.status)) {
      await sleep(20);
      s = await state();
    }
    const stoppedAt = s.leads_processed;
    process.stderr.write(`stopping at ${s.status}, ${s.parsed_leads_count} parsed, ${stoppedAt} published\n`);
    await server.stop(signal);
    const before = await plannerView(join(dataDir, 'pglite'));
    const restartMs = await server.start();
    const started = performance.now();
    const latencies: number[] = [];
    const trace: number[] = [];
    let nextTrace = 30_000;
    while (performance.now() - started < timeoutS * 1000) {
      const t0 = performance.now();
      const now = await Promise.race([state(), sleep(timeoutS * 1000).then(() => undefined)]);
      latencies.push(performance.now() - t0);
      if (!now) break;
      s = now;
      if (performance.now() - started >= nextTrace) {
        trace.push(s.leads_processed);
        nextTrace += 30_000;
      }
      if (['completed', 'failed'].includes(s.status)) break;
      await sleep(1000);
    }
    const finishS = (performance.now() - started) / 1000;
    const done = ['completed', 'failed'].includes(s.status);
    latencies.sort((a, b) => a - b);
    await server.stop('SIGTERM');
    return {
      signal,
      rows,
      stoppedAt,
      before,
      restartMs,
      finishS: Math.round(finishS * 10) / 10,
      status: done ? s.status : 'timed out',
      leads: s.leads_processed,
      medianMs: Math.round(latencies[Math.floor(latencies.length / 2)] ?? 0),
      maxMs: Math.round(latencies.at(-1) ?? 0),
      trace,
    };
  } finally {
    await server.stop('SIGKILL');
    if (!keep) rmSync(dataDir, { recursive: true, force: true });
    else process.stderr.write(`kept ${dataDir}\n`);
  }
}
