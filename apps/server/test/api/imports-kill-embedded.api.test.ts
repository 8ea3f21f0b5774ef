import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { describe, expect, it } from 'vitest';
import { multipart } from '../fixtures/imports/import-client.ts';
import { embeddedServerProcess, verifiedOwner } from '../support/embedded-process.ts';
import { numberedLeadsCsv } from '../support/server-process.ts';

const ROWS = 30_000;
/** The slowest answer allowed while the resumed import runs (the fault held the API for minutes). */
const SLOWEST_ANSWER_MS = 20_000;

/**
 * kill -9 of an embedded server in the middle of an import (decision 002, "After a hard kill"): the
 * next start finds the data directory ended uncleanly and analyzes it before anything runs, the
 * import resumes and completes with every row once, and the API answers meanwhile.
 */
describe('an import survives kill -9 on the embedded database', () => {
  const { server, dataDir } = embeddedServerProcess('herald-kill-embedded-', {
    JWT_SECRET: 'kill-embedded-secret-kill-embedded-secret-01',
    // Several chunks, so the kill lands after some are published and the resumed run has more.
    IMPORT_CHUNK_ROWS: '5000',
  });
  const { stop } = server;
  /** A start after a kill replays the WAL first, slow on a busy machine: twice the usual wait. */
  const start = () => server.start(240_000);

  it('resumes after a kill while publishing, answers meanwhile, and has fresh statistics', async () => {
    await start();
    const api = await verifiedOwner(server, dataDir, 'Kill Test', 'kill-embedded@example.com');

    const source = await api('POST', '/sources', { name: 'Killed' });
    const list = await api('POST', `/sources/${source.json.id}/lists`, { name: 'Killed list' });
    const attrs = (await api('GET', '/lead-attributes')).json.data as Array<{ id: number; slug: string }>;
    const body = multipart(
      { 'list_id[0]': String(list.json.id), black_list: '0' },
      { name: 'big.csv', content: numberedLeadsCsv(0, ROWS) },
    );
    const up = await api('POST', '/imports', body.payload, body.headers);
    expect(up.status).toBe(201);
    const id = up.json.id as number;
    const mapping = up.json.attributes.map((c: { id: number; name: string }) =>
      c.name === 'city'
        ? { processing_document_attribute_id: c.id, name: 'City' }
        : { processing_document_attribute_id: c.id, lead_attribute_id: attrs.find((a) => a.slug === c.name)?.id },
    );
    expect((await api('POST', `/sync-import/${id}/import-attributes/multiple`, { list: mapping })).status).toBe(200);
    expect((await api('POST', `/imports/${id}/dispatch`)).status).toBe(200);

    let slowest = 0;
    const waitFor = async (test: (s: Record<string, unknown>) => boolean, timeoutMs: number) => {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const asked = performance.now();
        const s = (await api('GET', `/imports/${id}`)).json;
        slowest = Math.max(slowest, performance.now() - asked);
        if (test(s)) return s;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('timed out');
    };

    // Killed once the first chunks are in the list: the next one may be inside its transaction.
    await waitFor((s) => Number(s.leads_processed) >= 5_000 || s.status === 'completed', 120_000);
    await stop('SIGKILL');
    await start();
    slowest = 0;
    const done = await waitFor((s) => s.status === 'completed' || s.status === 'failed', 240_000);
    expect(done).toMatchObject({ status: 'completed', parsed_leads_count: ROWS, leads_processed: ROWS });
    expect(slowest).toBeLessThan(SLOWEST_ANSWER_MS);
    expect(await stop('SIGTERM')).toBe(0);

    const db = await PGlite.create(join(dataDir, 'pglite'), { extensions: { pg_trgm } });
    try {
      const leads = await db.query(
        `select count(*)::int as leads, count(distinct v.value)::int as phones, count(v.value)::int as phone_values
         from leads l left join lead_values v on v.lead_id = l.id and v.type = 'phone' where l.list_id = $1`,
        [list.json.id],
      );
      expect(leads.rows[0]).toEqual({ leads: ROWS, phones: ROWS, phone_values: ROWS });
      const tally = await db.query('select sum(total)::int as total from lead_counts where list_id = $1', [
        list.json.id,
      ]);
      expect(tally.rows[0]).toEqual({ total: ROWS });
      // The start after the kill analyzed every table, not only those an import analyzes itself:
      // these have column statistics (an embedded database never analyzes them otherwise).
      const unanalyzed = await db.query<{ table: string }>(
        `select c.relname as table from pg_class c
         where c.relname in ('import_files', 'lists', 'users')
           and not exists (select 1 from pg_statistic s where s.starelid = c.oid)`,
      );
      expect(unanalyzed.rows).toEqual([]);
    } finally {
      await db.close();
    }
  }, 420_000);
});
