import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema.ts';
import { signupVerified } from '../support/accounts.ts';
import { attributeIds, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { csv } from '../fixtures/imports/hostile-files.ts';
import { startImport, waitForImport } from '../fixtures/imports/import-client.ts';

type Owner = Awaited<ReturnType<typeof signupVerified>>;

/**
 * Imports run two at a time (decision 009, "Imports side by side"): one team's big file does not
 * hold another team's small one at 0% until it ends, and two imports of one team still count each
 * other's duplicates. Chunks of 20 rows make the big import take many transactions.
 */
describe.each(databases)('imports side by side on %s', (kind) => {
  let t: TestApp;
  let db: Kysely<DB>;
  beforeAll(async () => {
    t = await startTestApp(kind, {}, { importChunkRows: 20 });
    db = t.app.services.database.db as Kysely<DB>;
  });
  afterAll(() => t?.close());

  const phones = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => `+38050${String(from + i).padStart(7, '0')}`);

  async function start(owner: Owner, name: string, rows: string[]) {
    const attrs = await attributeIds(t, owner.token);
    const { list } = await sourceWithList(t, owner.token, name);
    return startImport(t, owner.token, list.id, `${name}.csv`, csv(['Phone', ...rows]), { Phone: attrs.phone });
  }
  const statusOf = async (owner: Owner, id: number) =>
    (await t.request({ method: 'GET', url: `/api/imports/${id}`, token: owner.token })).json().status as string;

  it('finishes a small import of one team while a big one of another is still running', async () => {
    const big = await signupVerified(t);
    const small = await signupVerified(t);
    const bigDoc = await start(big, 'Big', phones(1_000_000, 5_000));
    const smallDoc = await start(small, 'Small', phones(2_000_000, 5));
    const done = await waitForImport(t, small.token, smallDoc.id, 120_000);
    expect(done).toMatchObject({ status: 'completed', leads_processed: 5 });
    // One import at a time would have run the big one (250 transactions) to its end first.
    expect(await statusOf(big, bigDoc.id)).not.toBe('completed');
    expect(await waitForImport(t, big.token, bigDoc.id, 240_000)).toMatchObject({
      status: 'completed',
      leads_processed: 5_000,
    });
  }, 300_000);

  it('counts the duplicates between two imports of one team that publish at once', async () => {
    const owner = await signupVerified(t);
    // The same 2,000 phones in the same order: the chunks that publish at the same moment share
    // their phones, and every lead ends with one duplicate, on the other import's lead.
    const [first, second] = await Promise.all([
      start(owner, 'First', phones(3_000_000, 2_000)),
      start(owner, 'Second', phones(3_000_000, 2_000)),
    ]);
    for (const doc of [first, second]) {
      expect(await waitForImport(t, owner.token, doc.id, 240_000)).toMatchObject({ status: 'completed' });
    }
    const counts = await sql<{ duplicates: number; n: number }>`
      select duplicates, count(*)::int as n from leads where team_id = ${owner.user.team_id}
      group by duplicates order by duplicates`.execute(db);
    expect(counts.rows).toEqual([{ duplicates: 1, n: 4_000 }]);
  }, 300_000);
});
