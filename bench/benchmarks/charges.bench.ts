import { type Kysely, sql } from 'kysely';
import type { DB } from '../../apps/server/src/db/schema.ts';
import { type ChargeRequest, createChargesService } from '../../apps/server/src/modules/billing/charges.service.ts';
import { runAsBulk } from '../../apps/server/src/db/connection-priority.ts';
import { createLedgerRepository } from '../../apps/server/src/modules/billing/ledger.repository.ts';
import { startHerald } from '../lib/herald.ts';
import { describeSamples, sampleIdle, sampleRows, startSampler } from '../lib/interactive-sampler.ts';
import type { BenchContext, Row } from '../lib/types.ts';

export const name = 'charges';
export const description =
  'BENCH_CHARGES (default 100,000) SMS charges in batches of 500 against one balance (free SMS first), each batch a transaction; beside a bare conditional UPDATE loop';

const BATCH = 500;
const FREE_SMS = 1_000;
const BAR = 'issue 22: ≥ 10,000/s on PostgreSQL, ≥ 2,000 embedded';

export async function run(ctx: BenchContext): Promise<Row[]> {
  const total = Number(process.env.BENCH_CHARGES ?? 100_000);
  const referenceCount = Number(process.env.BENCH_CHARGES_REFERENCE ?? 20_000);
  ctx.log(`starting Herald (${ctx.database})`);
  const herald = await startHerald(ctx);
  try {
    const db = herald.app.services.database.db as Kysely<DB>;
    const { teamId, token } = await herald.signUpOwner();
    const owner = await db.selectFrom('users').select('id').where('team_id', '=', teamId).executeTakeFirstOrThrow();
    const userId = Number(owner.id);
    const ledger = createLedgerRepository();
    // The module's own charge path; the plan's free SMS as a fixed allowance of this period.
    const since = new Date(Date.now() - 60_000);
    const charges = createChargesService({ ledger, freeSms: async () => ({ total: FREE_SMS, since }) });

    // Funds for every paid part and 100,000 more, so the balance ends well above zero.
    const funds = total - FREE_SMS + 100_000;
    await ledger.credit(db, teamId, userId, [{ type: 'top_up', amount: funds, key: 'bench-funds' }]);

    // A person's requests meanwhile (issue 24): charges are bulk work, as in a campaign's dispatch.
    const auth = { authorization: `Bearer ${token}` };
    ctx.log('sampling the idle app for 3 s');
    const idle = await sampleIdle(herald.url, auth);
    ctx.log(`charging ${total.toLocaleString('en')} messages in batches of ${BATCH}`);
    const sampler = startSampler(herald.url, auth);
    const started = performance.now();
    let charged = 0;
    await runAsBulk(async () => {
      for (let offset = 0; offset < total; offset += BATCH) {
        const batch: ChargeRequest[] = [];
        for (let i = offset; i < Math.min(total, offset + BATCH); i++) {
          batch.push({ userId, code: 'sent_message', parts: 1, pricePerPart: 1, key: `bench-${i}`, name: 'Bench' });
        }
        const { results } = await db.transaction().execute((tx) => charges.chargeMany(tx, teamId, batch));
        charged += results.filter((r) => r.status === 'charged').length;
      }
    });
    const seconds = (performance.now() - started) / 1000;
    const during = await sampler.stop();
    ctx.log(`charges: ${describeSamples(during, idle)}`);
    const rate = total / seconds;

    const check = await sql<{ balance: string; ledger: string; rows: string; free: string }>`
      select (select balance from users where id = ${userId}) as balance,
             (select sum(amount) from transactions where user_id = ${userId}) as ledger,
             (select count(*) from transactions where user_id = ${userId}) as rows,
             (select sum(free_parts) from transactions where user_id = ${userId}) as free`.execute(db);
    const c = check.rows[0];
    ctx.log(
      `${charged} charged in ${seconds.toFixed(2)} s; balance ${c.balance}, ledger sum ${c.ledger}, ${c.rows} rows, ${c.free} free parts`,
    );
    if (
      charged !== total ||
      Number(c.balance) !== Number(c.ledger) ||
      Number(c.balance) !== funds - (total - FREE_SMS)
    ) {
      throw new Error(
        `ledger and balance disagree: ${JSON.stringify({ charged, ...c, expected: funds - (total - FREE_SMS) })}`,
      );
    }

    // The reference: one bare conditional UPDATE per charge, no ledger, on the same database.
    await sql`create table bench_balance (id int primary key, balance bigint not null check (balance >= 0))`.execute(
      db,
    );
    await sql`insert into bench_balance values (1, ${referenceCount})`.execute(db);
    ctx.log(`bare conditional UPDATE loop, ${referenceCount.toLocaleString('en')} updates`);
    const refStarted = performance.now();
    for (let i = 0; i < referenceCount; i++) {
      await sql`update bench_balance set balance = balance - 1 where id = 1 and balance >= 1 returning balance`.execute(
        db,
      );
    }
    const refRate = referenceCount / ((performance.now() - refStarted) / 1000);
    await sql`drop table bench_balance`.execute(db);

    return [
      {
        metric: `charges/s (${total.toLocaleString('en')} in batches of ${BATCH}, ledger = balance)`,
        value: Math.round(rate),
        unit: '/s',
        reference: { value: Math.round(refRate), label: 'bare conditional UPDATE loop, one per charge' },
        bar: { op: '>=', target: ctx.database === 'postgres' ? 10_000 : 2_000, of: 'value', source: BAR },
      },
      ...sampleRows('charges', during, idle),
    ];
  } finally {
    await herald.close();
  }
}
