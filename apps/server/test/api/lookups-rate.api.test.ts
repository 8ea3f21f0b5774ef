import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TLookup } from '@herald/shared/lookups/lookups.schemas';
import { signupVerified } from '../support/accounts.ts';
import { topUpThroughSandbox } from '../support/billing.ts';
import { createGateway } from '../support/gateways.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

/**
 * A lookup under its gateway's own rate (the simulator's `lookups_per_second`), with the engine's
 * defaults: stopped part-way and started again, it looks up the rest and completes. Under a slow
 * rate the engine's lanes wait for tokens and are started again every tick, so a lookup whose
 * completion waited for "no lane left" stayed running at 100 % for good.
 */
describe.each(databases)('a rate-limited lookup on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stopped and started again, looks up the rest and completes', async () => {
    const owner = await signupVerified(t);
    const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.request({ method, url: `/api${url}`, token: owner.token, ...(payload ? { payload } : {}) });
    await createGateway(t, owner.token, {
      type: 'simulator',
      name: 'Simulator',
      active: true,
      default: false,
      allow_lookup: true,
      credentials: { delivery_rate: '100', failure_rate: '0', block_rate: '0', lookups_per_second: '4' },
    });
    await topUpThroughSandbox(t, owner.token, '10.00');
    const attrs = (await api('GET', '/lead-attributes')).json().data as { id: number; type: string }[];
    const phone = attrs.find((a) => a.type === 'phone')?.id;
    const source = (await api('POST', '/sources', { name: 'Fair' })).json();
    const list = (await api('POST', `/sources/${source.id}/lists`, { name: 'Visitors' })).json();
    const prefixes = ['+38067', '+38050', '+38063', '+38044'];
    for (let i = 0; i < 16; i++)
      await api('POST', '/leads', {
        source_id: source.id,
        list_id: list.id,
        attributes: [{ attr_id: phone, value: `${prefixes[i % 4]}15${String(1000 + i).slice(1)}00` }],
      });
    const id = (await api('POST', '/sources/lookup', { ids: [source.id] })).json().lookups[0].id as number;
    const get = async () =>
      ((await api('GET', '/lookup')).json().data as TLookup[]).find((l) => l.id === id) as TLookup;
    await waitUntil('a few phones looked up', async () => (await get()).looked_up >= 3, 20_000, 50);
    expect((await api('POST', '/lookup-stop', { ids: [id] })).statusCode).toBe(200);
    expect((await get()).looked_up).toBeLessThan(16);
    expect((await api('POST', `/lookup/${id}/status`, { status: 1 })).statusCode).toBe(200);
    await waitUntil('the lookup to complete', async () => (await get()).status === 3, 30_000, 100);
    expect(await get()).toMatchObject({ looked_up: 16, count: 0, percent: 100 });
  });
});
