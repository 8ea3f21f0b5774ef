import { type Kysely, type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recountStatement } from '../../src/db/lead-store/lead-duplicates.ts';
import { countingInsertStatement } from '../../src/db/lead-store/staged-duplicates.ts';
import type { DB } from '../../src/db/schema.ts';
import { signupVerified } from '../support/accounts.ts';
import { attributeIds, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { csv } from '../fixtures/imports/hostile-files.ts';
import { importFile } from '../fixtures/imports/import-client.ts';

/**
 * An import's duplicate recount is planned by the statistics of `lead_values`. A team's first import
 * into a database analyzed while it held only other teams' values found its team unknown to them
 * (an estimate of one phone): the recount nested loops over every phone of each chunk, quadratic —
 * on the embedded database a 20,000-row chunk took 140 s instead of 0.3 s. The publisher sets
 * the planner's estimate against the phones a chunk wrote and analyzes when it is far short.
 */
describe.each(databases)('planner statistics for a new team’s import on %s', (kind) => {
  let t: TestApp;
  let db: Kysely<DB>;
  beforeAll(async () => {
    t = await startTestApp(kind, {}, { importChunkRows: 2_000 });
    db = t.app.services.database.db as Kysely<DB>;
  });
  afterAll(() => t?.close());

  /** The planner's estimate of a team's phone values, as the recount's joins see it. */
  async function estimatedPhones(teamId: number) {
    const plan = await sql<{ 'QUERY PLAN': unknown }>`
      explain (format json) select 1 from lead_values where team_id = ${sql.lit(teamId)} and type = 'phone'`.execute(
      db,
    );
    const raw = plan.rows[0]['QUERY PLAN'];
    const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: { 'Plan Rows': number } }>;
    return parsed[0].Plan['Plan Rows'];
  }

  /** Imports `rows` phones in chunks of 2,000 — under the size after which the import analyzes anyway. */
  async function importPhones(prefix: string, rows: number) {
    const owner = await signupVerified(t);
    const attrs = await attributeIds(t, owner.token);
    const { list } = await sourceWithList(t, owner.token, `Team ${prefix}`);
    const phones = Array.from({ length: rows }, (_, i) => `+380${prefix}${String(1_000_000 + i)}`);
    const { result } = await importFile(t, owner.token, list.id, `${prefix}.csv`, csv(['Phone', ...phones]), {
      Phone: attrs.phone,
    });
    expect(result).toMatchObject({ status: 'completed', leads_processed: rows });
    return owner.user.team_id as number;
  }

  /** The CTEs a statement's plan computes once, apart from the statement (EXPLAIN's `CTE name` subplans). */
  async function ctesComputedOnce(statement: RawBuilder<unknown>): Promise<string[]> {
    const plan = await sql<{ 'QUERY PLAN': unknown }>`explain (format json) ${statement}`.execute(db);
    const raw = plan.rows[0]['QUERY PLAN'];
    const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
    return [...text.matchAll(/"Subplan Name":\s*"CTE (\w+)"/g)].map((m) => m[1]);
  }

  it('counts the duplicate recounts once, not once per lead of the team, whatever the statistics say', async () => {
    // Inlined into their updates, the recounts were planned per lead of the team when the planner
    // believed the team had none (a hard kill, a take-back): quadratic, the crawl of decision 002.
    const teamId = 1;
    expect(await ctesComputedOnce(recountStatement(teamId, sql`select 1::bigint as lead_id`))).toContain('counted');
    const chunk = countingInsertStatement(
      teamId,
      sql`${teamId}, 1, 1, 'active', 0`,
      sql`(select 1::bigint as lead_id, 1 as row_no) s`,
      sql`true`,
      sql`(select '+380501234567'::text as value) p`,
    );
    expect(await ctesComputedOnce(chunk)).toContain('recounted');
  });

  it('knows a new team’s phones after its first chunk, though the database was analyzed for another team', async () => {
    await importPhones('50', 6_000);
    const second = await importPhones('67', 6_000);
    // Analyzed in the first chunk of its import, which held 2,000 of its phones; unknown, it is 1.
    expect(await estimatedPhones(second)).toBeGreaterThanOrEqual(1_000);
  });
});
