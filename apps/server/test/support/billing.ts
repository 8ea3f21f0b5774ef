import { sql } from 'kysely';
import { expect } from 'vitest';
import { signData } from '../../src/modules/billing/checkout/liqpay.ts';
import type { TestApp } from './test-app.ts';

/** Every user's ledger sums to their balance: checked after each billing test. */
export async function expectLedgerBalanced(t: TestApp) {
  const { rows } = await sql<{ id: number; balance: number; ledger: number }>`
    select u.id, u.balance, coalesce(sum(tr.amount), 0)::bigint as ledger
    from users u left join transactions tr on tr.user_id = u.id
    group by u.id, u.balance
    having u.balance <> coalesce(sum(tr.amount), 0)`.execute(t.app.services.database.db);
  expect(rows).toEqual([]);
  // And every debt to its rows' debt changes (decision 027).
  const debts = await sql<{ id: number }>`
    select u.id from users u left join transactions tr on tr.user_id = u.id
    group by u.id, u.debt having u.debt <> coalesce(sum(tr.debt_change), 0)`.execute(t.app.services.database.db);
  expect(debts.rows).toEqual([]);
  const negative = await sql<{ n: number }>`select count(*)::int as n from users where balance < 0`.execute(
    t.app.services.database.db,
  );
  expect(negative.rows[0].n).toBe(0);
}

/** The sandbox checkout's key pair, as the app generated it. */
export async function sandboxKeys(t: TestApp) {
  const { rows } = await sql<{ public_key: string; private_key: string }>`
    select public_key, private_key from checkout_keys where id = 1`.execute(t.app.services.database.db);
  return { publicKey: rows[0].public_key, privateKey: rows[0].private_key };
}

export function form(fields: Record<string, string>) {
  return {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  };
}

export const decode = (data: string) =>
  JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as Record<string, unknown>;

/** Tops `token`'s balance up by `amount` (as typed) through the checkout and the sandbox page's Pay. */
export async function topUpThroughSandbox(t: TestApp, token: string, amount: string) {
  const res = await t.request({ method: 'POST', url: '/api/balance/topup', token, payload: { amount } });
  if (res.statusCode !== 200) throw new Error(`topup failed: ${res.body}`);
  const { data, signature } = res.json() as { data: string; signature: string };
  const paid = await t.request({
    method: 'POST',
    url: '/checkout/sandbox/complete',
    ...form({ data, signature, decision: 'pay' }),
  });
  if (paid.statusCode !== 303) throw new Error(`sandbox pay failed: ${paid.statusCode} ${paid.body}`);
  return res.json() as { data: string; signature: string; order_id: string };
}

/** A callback for the order `checkout` opened, with `status`, signed with the sandbox's keys as LiqPay would. */
export async function signedCallback(t: TestApp, checkout: { data: string }, status: string) {
  const keys = await sandboxKeys(t);
  const data = Buffer.from(
    JSON.stringify({ ...decode(checkout.data), status, payment_id: `p-${status}-${Date.now()}` }),
  ).toString('base64');
  return form({ data, signature: signData(keys.privateKey, data) });
}
