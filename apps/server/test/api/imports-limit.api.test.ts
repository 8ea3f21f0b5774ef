import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DB } from '../../src/db/schema.ts';
import { signupVerified } from '../support/accounts.ts';
import { attributeIds, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { AFTERWARDS_MS, waitUntil } from '../support/wait.ts';
import { csv } from '../fixtures/imports/hostile-files.ts';
import { mapColumns, startImport, upload, waitForImport } from '../fixtures/imports/import-client.ts';

/**
 * The plan's `import-limit` (decision 009, "The plan's import limit"). The app is given a fixed
 * allowance in place of the plan's (`BuildOptions.importAllowance`), so a limit of thousands is
 * tested without a plan's worth of leads: leads the team may still import. Over it, the import
 * fails with `import_limit_reached` and leaves no lead behind. The plan's own: `plans-imports.api`.
 */
describe.each(databases)('the import limit on %s', (kind) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let allowance: number | null = null;
  beforeAll(async () => {
    t = await startTestApp(kind, {}, { importChunkRows: 1_000, importAllowance: async () => allowance });
    db = t.app.services.database.db as Kysely<DB>;
  });
  afterAll(() => t?.close());

  const phones = (count: number, from = 1_000_000) =>
    Array.from({ length: count }, (_, i) => `+38050${String(from + i).padStart(7, '0')}`);

  async function team(name: string) {
    const owner = await signupVerified(t);
    const attrs = await attributeIds(t, owner.token);
    const { list } = await sourceWithList(t, owner.token, name);
    return { owner, attrs, list };
  }
  const leadsIn = async (listId: number) =>
    Number(
      (await sql<{ n: number }>`select count(*)::int as n from leads where list_id = ${listId}`.execute(db)).rows[0].n,
    );

  it('refuses to run an import when nothing is left of the limit, and keeps it to run later', async () => {
    const { owner, attrs, list } = await team('Nothing left');
    const up = await upload(t, owner.token, list.id, 'leads.csv', csv(['Phone', ...phones(3)]));
    const doc = up.json();
    await mapColumns(t, owner.token, doc, { Phone: attrs.phone });
    allowance = 0;
    const refused = await t.request({ method: 'POST', url: `/api/imports/${doc.id}/dispatch`, token: owner.token });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'import_limit_reached' });
    const kept = (await t.request({ method: 'GET', url: `/api/imports/${doc.id}`, token: owner.token })).json();
    expect(kept.status).toBe('uploaded');
    expect((await t.request({ method: 'GET', url: '/api/processes', token: owner.token })).json().data).toEqual([]);

    allowance = 3;
    const run = await t.request({ method: 'POST', url: `/api/imports/${doc.id}/dispatch`, token: owner.token });
    expect(run.statusCode).toBe(200);
    expect(await waitForImport(t, owner.token, doc.id)).toMatchObject({ status: 'completed', leads_processed: 3 });
  });

  it('imports a file that fits the limit exactly, failed rows not counted', async () => {
    const { owner, attrs, list } = await team('Exactly');
    allowance = 50;
    const doc = await startImport(t, owner.token, list.id, 'fits.csv', csv(['Phone', ...phones(50), '12', 'x', '']), {
      Phone: attrs.phone,
    });
    expect(await waitForImport(t, owner.token, doc.id)).toMatchObject({
      status: 'completed',
      leads_processed: 50,
      leads_failed: 2,
    });
    expect(await leadsIn(list.id)).toBe(50);
  });

  it('fails a file over the limit and takes back what it had published of it', async () => {
    const { owner, attrs, list } = await team('Over');
    // More rows than one parse batch (2,000 embedded, 5,000 on PostgreSQL), so the first batches
    // are published, in chunks of 1,000, before the one that passes the limit is read.
    allowance = 11_000;
    const events: Array<{ id: number; stage: string; error_code: string | null }> = [];
    const unsubscribe = t.app.services.bus.subscribe((e) => {
      if (e.event.type === 'ImportStatus') events.push(e.event.payload as (typeof events)[number]);
    });
    const doc = await startImport(t, owner.token, list.id, 'over.csv', csv(['Phone', ...phones(12_000)]), {
      Phone: attrs.phone,
    });
    const result = await waitForImport(t, owner.token, doc.id);
    // On PostgreSQL the take-back's events come through LISTEN/NOTIFY, possibly after the failed row.
    await waitUntil('the take-back’s events', () => events.some((e) => e.id === doc.id && e.stage === 'rolling_back'));
    unsubscribe();
    expect(result).toMatchObject({
      status: 'failed',
      error_code: 'import_limit_reached',
      leads_processed: 0,
      // Nothing to resume: the plan, not the run, stopped it.
      resumable: false,
    });
    expect(result.error).toContain('11,000');
    const rolledBack = events.filter((e) => e.id === doc.id && e.stage === 'rolling_back');
    expect(rolledBack.length).toBeGreaterThan(0);
    expect(rolledBack[0].error_code).toBe('import_limit_reached');
    expect(await leadsIn(list.id)).toBe(0);
    const counts = await t.request({
      method: 'GET',
      url: `/api/sources/lists/${list.id}/aggregations`,
      token: owner.token,
    });
    expect(counts.json()).toMatchObject({ total_leads: 0 });
    await vi.waitFor(async () => {
      const processes = (await t.request({ method: 'GET', url: '/api/processes', token: owner.token })).json().data;
      // Nothing of it is kept: the popover's bar is empty, not at the take-back's last step.
      expect(processes[0]).toMatchObject({ title: 'over.csv', status: 'failed', progress: 0 });
    }, AFTERWARDS_MS);

    // With room on the plan, the same file imports whole.
    allowance = 12_000;
    const again = await startImport(t, owner.token, list.id, 'over.csv', csv(['Phone', ...phones(12_000)]), {
      Phone: attrs.phone,
    });
    expect(await waitForImport(t, owner.token, again.id)).toMatchObject({
      status: 'completed',
      leads_processed: 12_000,
    });
    expect(await leadsIn(list.id)).toBe(12_000);
  }, 300_000);

  it('ends the process when the list goes while a file over the limit is being taken back', async () => {
    const { owner, attrs, list } = await team('Gone');
    allowance = 11_000;
    let deleting: Promise<{ statusCode: number }> | undefined;
    const unsubscribe = t.app.services.bus.subscribe((e) => {
      const stage = (e.event.payload as { stage?: string }).stage;
      if (e.event.type === 'ImportStatus' && stage === 'rolling_back' && !deleting) {
        deleting = t.request({ method: 'DELETE', url: `/api/sources/lists/${list.id}`, token: owner.token });
      }
    });
    await startImport(t, owner.token, list.id, 'gone.csv', csv(['Phone', ...phones(12_000)]), { Phone: attrs.phone });
    await vi.waitFor(() => expect(deleting).toBeDefined(), { timeout: 60_000 });
    expect((await deleting)?.statusCode).toBe(200);
    unsubscribe();
    // The run finds its import gone and fails its process, as any run that lost its import does.
    await vi.waitFor(
      async () => {
        const processes = (await t.request({ method: 'GET', url: '/api/processes', token: owner.token })).json().data;
        expect(processes[0]).toMatchObject({ title: 'gone.csv', status: 'failed' });
      },
      { timeout: 30_000 },
    );
    expect(await leadsIn(list.id)).toBe(0);
  });
});
