import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { describe, expect, it } from 'vitest';
import { multipart } from '../fixtures/imports/import-client.ts';
import { embeddedServerProcess, verifiedOwner } from '../support/embedded-process.ts';
import { numberedLeadsCsv } from '../support/server-process.ts';

const ROWS = 100_000;

/**
 * SIGTERM of an embedded server in the middle of an import (decision 009, "Embedded (PGlite)"):
 * while parsing and, for a second import, while publishing. The server must exit 0 (PGlite closed
 * cleanly), start again on the same DATA_DIR, and in the end each file's rows must be in its list
 * exactly once, with the tallies agreeing. Embedded only: the data directory is PGlite's.
 */
describe('an import survives SIGTERM on the embedded database', () => {
  const { server, dataDir } = embeddedServerProcess('herald-sigterm-', {
    JWT_SECRET: 'sigterm-test-secret-sigterm-test-secret-0123',
  });
  const { start, stop } = server;

  it('exits cleanly while parsing and while publishing, and each file ends in its list exactly once', async () => {
    await start();
    const api = await verifiedOwner(server, dataDir, 'Sigterm Test', 'sigterm@example.com');

    const source = await api('POST', '/sources', { name: 'Stopped' });
    const attrs = (await api('GET', '/lead-attributes')).json.data as Array<{ id: number; slug: string }>;
    /** Uploads a file of ROWS rows whose phones start at `offset`, maps it, dispatches it. */
    const dispatch = async (name: string, offset: number) => {
      const list = await api('POST', `/sources/${source.json.id}/lists`, { name });
      const body = multipart(
        { 'list_id[0]': String(list.json.id), black_list: '0' },
        { name: `${name}.csv`, content: numberedLeadsCsv(offset, ROWS) },
      );
      const up = await api('POST', '/imports', body.payload, body.headers);
      expect(up.status).toBe(201);
      const mapping = up.json.attributes.map((c: { id: number; name: string }) =>
        c.name === 'city'
          ? { processing_document_attribute_id: c.id, name: 'City' }
          : { processing_document_attribute_id: c.id, lead_attribute_id: attrs.find((a) => a.slug === c.name)?.id },
      );
      const mapped = await api('POST', `/sync-import/${up.json.id}/import-attributes/multiple`, { list: mapping });
      expect(mapped.status).toBe(200);
      expect((await api('POST', `/imports/${up.json.id}/dispatch`)).status).toBe(200);
      return { id: up.json.id as number, listId: list.json.id as number };
    };
    const waitFor = async (id: number, test: (s: Record<string, unknown>) => boolean, timeoutMs: number) => {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const s = (await api('GET', `/imports/${id}`)).json;
        if (test(s)) return s;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('timed out');
    };

    // 1: SIGTERM while parsing.
    const first = await dispatch('Parsing', 0);
    // A loaded machine once kept a fresh server's first import queued for over a minute.
    await waitFor(first.id, (s) => s.status === 'parsing' && Number(s.progress) >= 20, 300_000);
    expect(await stop('SIGTERM')).toBe(0);
    await start();
    // 2: SIGTERM while publishing, on a list that already holds the first file's leads.
    const second = await dispatch('Publishing', ROWS);
    // 100,000 rows each: minutes, not seconds, on a loaded two-core machine.
    await waitFor(second.id, (s) => s.stage === 'resolve_duplicates' || s.status === 'completed', 300_000);
    expect(await stop('SIGTERM')).toBe(0);
    await start();
    for (const { id } of [first, second]) {
      const done = await waitFor(id, (s) => s.status === 'completed' || s.status === 'failed', 300_000);
      expect(done).toMatchObject({ status: 'completed', parsed_leads_count: ROWS, leads_processed: ROWS });
    }
    // A second server on the same DATA_DIR (PGlite does not lock it; two openers corrupt it) stops
    // before it opens the database, naming the process that has it.
    const intruder = server.spawnOn(server.port + 1, 'pipe');
    let stderr = '';
    intruder.stderr?.on('data', (d) => {
      stderr += d;
    });
    expect(await server.exitOf(intruder)).toBe(1);
    expect(stderr).toContain(`in use by process ${server.pid}`);
    expect((await api('GET', `/imports/${first.id}`)).status).toBe(200);
    expect(await stop('SIGTERM')).toBe(0);

    const db = await PGlite.create(join(dataDir, 'pglite'), { extensions: { pg_trgm } });
    try {
      for (const { listId } of [first, second]) {
        const leads = await db.query(
          `select count(*)::int as leads, count(distinct v.value)::int as phones, count(v.value)::int as phone_values
           from leads l left join lead_values v on v.lead_id = l.id and v.type = 'phone' where l.list_id = $1`,
          [listId],
        );
        expect(leads.rows[0]).toEqual({ leads: ROWS, phones: ROWS, phone_values: ROWS });
        const tally = await db.query('select sum(total)::int as total from lead_counts where list_id = $1', [listId]);
        expect(tally.rows[0]).toEqual({ total: ROWS });
      }
      expect((await db.query('select count(*)::int as n from lead_values')).rows[0]).toEqual({ n: ROWS * 2 * 3 });
      const staging = await db.query(`select count(*)::int as n from pg_tables where tablename like 'import_rows_%'`);
      expect(staging.rows[0]).toEqual({ n: 0 });
    } finally {
      await db.close();
    }
  }, 900_000);
});
