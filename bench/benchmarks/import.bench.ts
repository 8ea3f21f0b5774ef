import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { startHerald } from '../lib/herald.ts';
import { writeImportFiles } from '../lib/import-files.ts';
import { describeSamples, percentile, sampleIdle, sampleRows, startSampler } from '../lib/interactive-sampler.ts';
import type { BenchContext, Row } from '../lib/types.ts';
import { uploadFile } from '../lib/upload.ts';

export const name = 'import';
export const description =
  'BENCH_IMPORT_ROWS-row CSV (default 1,000,000; phone, email, 3 more; 5% duplicate phones) into a new list with dedup, and a BENCH_IMPORT_XLSX_ROWS-row XLSX (default 200,000); beside a bare COPY of the same rows';

/** Peak RSS of this process (server, PGlite worker and parser threads included) while `fn` runs. */
async function withPeakRss<T>(fn: () => Promise<T>): Promise<{ result: T; peakMb: number; startMb: number }> {
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 50);
  try {
    const result = await fn();
    return { result, peakMb: Math.round(peak / 1024 / 1024), startMb: Math.round(start / 1024 / 1024) };
  } finally {
    clearInterval(timer);
  }
}

export async function run(ctx: BenchContext): Promise<Row[]> {
  const count = Number(process.env.BENCH_IMPORT_ROWS ?? 1_000_000);
  const xlsxCount = Number(process.env.BENCH_IMPORT_XLSX_ROWS ?? 200_000);
  const dir = mkdtempSync(join(tmpdir(), 'herald-import-bench-'));
  const csvPath = join(dir, 'leads.csv');
  const xlsxPath = join(dir, 'leads.xlsx');
  ctx.log(`writing ${count.toLocaleString('en')} CSV rows and ${xlsxCount.toLocaleString('en')} XLSX rows`);
  await writeImportFiles({ csvPath, csvRows: count, xlsxPath, xlsxRows: xlsxCount });

  const herald = await startHerald(ctx);
  try {
    const { app, url } = herald;
    const { token } = await herald.signUpOwner();
    const headers = { authorization: `Bearer ${token}` };
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${url}/api${path}`, {
        method,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      // biome-ignore lint/suspicious/noExplicitAny: the bench reads a few known fields of JSON answers
      return res.json() as Promise<any>;
    };
    const source = await api('POST', '/sources', { name: 'Bench' });
    const attributes = (await api('GET', '/lead-attributes')).data as Array<{ id: number; slug: string }>;
    const attr = (slug: string) => attributes.find((a) => a.slug === slug)?.id;

    /** Upload, map, dispatch; returns seconds from dispatch to completed, with what a person felt meanwhile. */
    async function importOnce(path: string, fileName: string) {
      const list = await api('POST', `/sources/${source.id}/lists`, { name: fileName });
      const uploadStarted = performance.now();
      const fields = { 'list_id[0]': String(list.id), black_list: '0' };
      const uploaded = await uploadFile(`${url}/api/imports`, headers, fields, path, fileName);
      if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status} ${uploaded.body}`);
      const doc = JSON.parse(uploaded.body);
      const uploadSeconds = (performance.now() - uploadStarted) / 1000;
      const mapping = doc.attributes.map((c: { id: number; name: string }) =>
        c.name === 'phone'
          ? { processing_document_attribute_id: c.id, lead_attribute_id: attr('phone') }
          : c.name === 'email'
            ? { processing_document_attribute_id: c.id, lead_attribute_id: attr('email') }
            : { processing_document_attribute_id: c.id, name: c.name },
      );
      await api('POST', `/sync-import/${doc.id}/import-attributes/multiple`, { list: mapping });
      // The idle figure first, then the same routes every 100 ms while the import runs.
      const idle = await sampleIdle(url, headers);
      const progress: number[] = [];
      const sampler = startSampler(url, headers);
      const started = performance.now();
      let result: { status: string; leads_processed: number; error: string | null } | undefined;
      try {
        await api('POST', `/imports/${doc.id}/dispatch`);
        // The import's own progress, as its screen asks for it.
        while (true) {
          const t0 = performance.now();
          result = await api('GET', `/imports/${doc.id}`);
          progress.push(performance.now() - t0);
          if (result?.status === 'completed' || result?.status === 'failed') break;
          await new Promise((r) => setTimeout(r, 250));
        }
      } finally {
        await sampler.stop();
      }
      const seconds = (performance.now() - started) / 1000;
      const during = await sampler.stop();
      if (result?.status !== 'completed') throw new Error(`import failed: ${result?.error}`);
      ctx.log(`${fileName}: ${describeSamples(during, idle)}`);
      ctx.log(
        `${fileName}: GET /api/imports/{id} p50 ${percentile(progress, 50).toFixed(1)} / p99 ${percentile(progress, 99).toFixed(1)} / max ${Math.max(...progress).toFixed(1)} ms`,
      );
      return {
        seconds,
        uploadSeconds,
        during,
        idle,
        progressP99: percentile(progress, 99),
        leads: result.leads_processed,
      };
    }

    ctx.log('importing the CSV');
    const csvRun = await withPeakRss(() => importOnce(csvPath, 'leads.csv'));
    ctx.log(
      `CSV: ${csvRun.result.seconds.toFixed(1)} s after a ${csvRun.result.uploadSeconds.toFixed(1)} s upload, ${csvRun.result.leads} leads, peak RSS ${csvRun.peakMb} MB (${csvRun.startMb} MB before the upload)`,
    );
    ctx.log('importing the XLSX');
    const xlsxRun = await withPeakRss(() => importOnce(xlsxPath, 'leads.xlsx'));
    ctx.log(
      `XLSX: ${xlsxRun.result.seconds.toFixed(1)} s, peak RSS ${xlsxRun.peakMb} MB (${xlsxRun.startMb} MB before the upload)`,
    );

    ctx.log('bare COPY of the same CSV into a plain table');
    const copySeconds = await bareCopy(ctx, app.services.config.DATABASE_URL, csvPath);
    ctx.log(`COPY: ${copySeconds.toFixed(1)} s`);

    const onPg = ctx.database === 'postgres';
    const reference = { value: Number(copySeconds.toFixed(2)), label: 'bare COPY of the same rows' };
    const out: Row[] = [
      {
        metric: `CSV ${count.toLocaleString('en')} rows into a new list, dedup included`,
        value: Number(csvRun.result.seconds.toFixed(2)),
        unit: 's',
        reference,
        bar: { op: '<=', target: onPg ? 15 : 30, of: 'value', source: 'issue 5 (PostgreSQL 15 s, embedded 30 s)' },
      },
      {
        metric: 'CSV import peak RSS',
        value: csvRun.peakMb,
        unit: 'MB',
        ...(onPg ? { bar: { op: '<=', target: 512, of: 'value', source: 'DESIGN §5 import' } as const } : {}),
      },
      ...sampleRows('the CSV import', csvRun.result.during, csvRun.result.idle),
      {
        metric: 'GET /api/imports/{id} (its progress) during the CSV import, p99',
        value: Number(csvRun.result.progressP99.toFixed(1)),
        unit: 'ms',
        bar: { op: '<=', target: 150, of: 'value', source: 'issue 24: interactive p99 during bulk work' },
      },
      {
        metric: `XLSX ${xlsxCount.toLocaleString('en')} rows`,
        value: Math.round(xlsxCount / xlsxRun.result.seconds),
        unit: 'rows/s',
        reference: { value: Math.round(count / copySeconds), label: 'bare COPY rows/s' },
        bar: { op: '>=', target: 20_000, of: 'value', source: 'DESIGN §5 import-xlsx' },
      },
      {
        metric: 'XLSX import peak RSS',
        value: xlsxRun.peakMb,
        unit: 'MB',
        bar: { op: '<=', target: 768, of: 'value', source: 'DESIGN §5 import-xlsx' },
      },
    ];
    return out;
  } finally {
    await herald.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The reference: the same file COPYed into a plain table (PostgreSQL), or into PGlite via /dev/blob. */
async function bareCopy(ctx: BenchContext, databaseUrl: string | undefined, csvPath: string) {
  const ddl = 'create table bench_copy (phone text, email text, first_name text, last_name text, city text)';
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(ddl);
      const started = performance.now();
      const stream = client.query(copyFrom('copy bench_copy from stdin with (format csv, header)'));
      const { createReadStream } = await import('node:fs');
      const { pipeline } = await import('node:stream/promises');
      await pipeline(createReadStream(csvPath), stream);
      return (performance.now() - started) / 1000;
    } finally {
      await client.query('drop table if exists bench_copy').catch(() => {});
      await client.end();
    }
  }
  // Embedded: a separate in-memory PGlite (the app's one is a worker behind a lock).
  const { PGlite } = await import('@electric-sql/pglite');
  const lite = new PGlite();
  try {
    await lite.exec(ddl);
    const blob = new Blob([readFileSync(csvPath)]);
    const started = performance.now();
    await lite.query("copy bench_copy from '/dev/blob' with (format csv, header)", [], { blob });
    return (performance.now() - started) / 1000;
  } finally {
    await lite.close();
    void ctx;
    void sql;
  }
}
