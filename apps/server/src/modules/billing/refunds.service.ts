import type { Kysely } from 'kysely';
import type { RefundRequest, RefundResult } from '@herald/shared/billing/charges';
import type { DB } from '../../db/schema.ts';
import type { FreeSmsAllowance } from './charges.service.ts';
import type { DebtsRepository } from './debts.repository.ts';
import type { LedgerRepository } from './ledger.repository.ts';

/** Ledger codes a refund may give back: charges, never a credit or a move between users. */
const REFUNDABLE = new Set(['sent_message', 'sent_single_message', 'lookup']);

const nothing = (status: RefundResult['status']): RefundResult => ({ status, amount: 0, freeSms: 0 });

/**
 * Refunds (decision 027): what one charge took, given back once. The refund row's key is
 * `refund:<chargeKey>`, UNIQUE per user like every ledger key, so of any number of refunds of one
 * charge, concurrent or repeated, exactly one writes and raises the balance; the others find the
 * key and answer `already_refunded`. Free SMS come back as a negative `free_parts`, which lowers
 * the period's usage, but only while the charge's period is the current one: a period's free
 * SMS do not carry over, so a refund after it ends gives back what the message cost in money only.
 */
export function createRefunds(deps: { ledger: LedgerRepository; debts: DebtsRepository; freeSms: FreeSmsAllowance }) {
  return async function refund(tx: Kysely<DB>, teamId: number, request: RefundRequest): Promise<RefundResult> {
    const charge = await deps.debts.charge(tx, teamId, request.userId, request.chargeKey);
    if (!charge || !REFUNDABLE.has(charge.type)) return nothing('nothing_to_refund');
    const amount = -Number(charge.amount);
    let freeSms = charge.free_parts;
    if (freeSms > 0) {
      const allowance = await deps.freeSms(tx, teamId);
      if (!allowance || charge.created_at < allowance.since) freeSms = 0;
    }
    if (amount <= 0 && freeSms === 0) return nothing('nothing_to_refund');
    const key = `refund:${request.chargeKey}`;
    const credited = await deps.ledger.credit(tx, teamId, request.userId, [
      {
        type: 'refund',
        amount: Math.max(0, amount),
        freeParts: -freeSms,
        count: 1,
        key,
        name: charge.name,
        meta: { reason: request.reason, charge_key: request.chargeKey },
      },
    ]);
    if (!credited) return nothing('nothing_to_refund');
    if (credited.written.length === 0) return nothing('already_refunded');
    // Money back pays a debt first, as every credit does.
    if (amount > 0) await deps.debts.payDebt(tx, teamId, request.userId, key);
    return { status: 'refunded', amount: Math.max(0, amount), freeSms };
  };
}
export type Refund = ReturnType<typeof createRefunds>;
