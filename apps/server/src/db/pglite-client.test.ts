import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAsBulk } from './connection-priority.ts';
import { INTERACTIVE_BEFORE_BULK, INTERACTIVE_FOLLOW_UP_MS, PgliteClient } from './pglite-client.ts';

describe('PgliteClient priority lane', () => {
  let client: PgliteClient;
  beforeAll(async () => {
    client = new PgliteClient(undefined);
    await client.run('select 1');
  }, 60_000);
  afterAll(async () => {
    await client.close();
  });

  it('runs an interactive query queued behind bulk statements next', async () => {
    const order: string[] = [];
    const holder = await runAsBulk(() => client.acquire());
    const statement = (label: string) => client.run(`select '${label}' as label`).then(() => order.push(label));
    const bulk = [1, 2, 3].map((n) => runAsBulk(() => statement(`bulk ${n}`)));
    const interactive = statement('interactive');
    holder();
    await Promise.all([...bulk, interactive]);
    expect(order).toEqual(['interactive', 'bulk 1', 'bulk 2', 'bulk 3']);
  });

  it('keeps each kind in arrival order and work inside runAsBulk stays bulk across awaits', async () => {
    const order: string[] = [];
    const holder = await client.acquire();
    const job = runAsBulk(async () => {
      await Promise.resolve();
      await client.run('select 1');
      order.push('bulk after an await');
    });
    const first = client.run('select 1').then(() => order.push('interactive 1'));
    const second = client.run('select 1').then(() => order.push('interactive 2'));
    await new Promise((r) => setTimeout(r, 10));
    holder();
    await Promise.all([job, first, second]);
    expect(order).toEqual(['interactive 1', 'interactive 2', 'bulk after an await']);
  });

  it('grants waiting bulk work its turn after a run of interactive grants, so it never starves', async () => {
    const order: string[] = [];
    const holder = await client.acquire();
    const take = (label: string, priority: 'interactive' | 'bulk') =>
      client.acquire(priority).then((release) => {
        order.push(label);
        release();
      });
    const bulk = take('bulk', 'bulk');
    const interactive = Array.from({ length: INTERACTIVE_BEFORE_BULK + 2 }, (_, i) => take(`i${i}`, 'interactive'));
    holder();
    await Promise.all([bulk, ...interactive]);
    expect(order.indexOf('bulk')).toBe(INTERACTIVE_BEFORE_BULK);
    expect(order).toHaveLength(INTERACTIVE_BEFORE_BULK + 3);
  });

  it("keeps the connection a moment for a request's next statement before waiting bulk work gets it", async () => {
    const order: string[] = [];
    const holder = await client.acquire();
    const bulk = runAsBulk(() => client.run('select 1').then(() => order.push('bulk')));
    holder();
    // The request's next statement, asked for within the moment (at once here, so a slow machine
    // cannot stretch the test's own pause past it): still ahead of the bulk work.
    await Promise.resolve();
    await client.run('select 1').then(() => order.push('follow-up'));
    await bulk;
    expect(order).toEqual(['follow-up', 'bulk']);
  });

  it('gives waiting bulk work the connection once no follow-up came', async () => {
    const order: string[] = [];
    const holder = await client.acquire();
    const bulk = runAsBulk(() => client.run('select 1').then(() => order.push('bulk')));
    holder();
    await new Promise((r) => setTimeout(r, INTERACTIVE_FOLLOW_UP_MS * 4));
    const late = client.run('select 1').then(() => order.push('late'));
    await Promise.all([bulk, late]);
    expect(order).toEqual(['bulk', 'late']);
  });

  it('hands the connection to a lone bulk caller at once when it is free', async () => {
    const result = await runAsBulk(() => client.run('select 42 as n'));
    expect(result.rows).toEqual([{ n: 42 }]);
    expect(client.busyForMs()).toBe(0);
  });
});
