import { phoneCountry } from '@herald/shared/messages/phone-country';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { ChargeResult, MessagesDeps } from './messages.deps.ts';
import type { MessageRow } from './messages.repository.ts';
import type { SendRowsRepository } from './send-rows.repository.ts';

const priceKey = (row: MessageRow) => `${row.user_id}:${phoneCountry(row.phone) ?? ''}`;

/** The dispatch's charging of a claimed batch (decision 024): prices, one charge per row by its key. */
export function createDispatchCharges(deps: MessagesDeps & { rows: SendRowsRepository }) {
  const { rows } = deps;
  /** The price of a part for each payer and destination country among the rows. */
  async function pricesOf(teamId: number, claimed: MessageRow[]) {
    const prices = new Map<string, number>();
    for (const row of claimed) {
      if (row.user_id === null) continue;
      const key = priceKey(row);
      if (!prices.has(key)) prices.set(key, await deps.pricePerPart(teamId, Number(row.user_id), row.phone));
    }
    return prices;
  }

  /**
   * Charges claimed rows by their own keys (a re-claim replays the charge, nothing is taken twice)
   * and answers those that may go; the rest fail (balance short, payer gone) uncharged.
   */
  async function charge(tx: Kysely<DB>, teamId: number, claimed: MessageRow[], prices: Map<string, number>) {
    const ok: MessageRow[] = [];
    const refused: Array<{ row: MessageRow; code: string }> = [];
    const payable = claimed.filter((row) => row.user_id !== null);
    for (const row of claimed) if (row.user_id === null) refused.push({ row, code: 'payer_missing' });
    const requests = payable.map((row) => ({
      userId: Number(row.user_id),
      code: row.kind === 'single' ? ('sent_single_message' as const) : ('sent_message' as const),
      parts: row.parts,
      pricePerPart: prices.get(priceKey(row)) ?? 0,
      count: 1,
      key: row.charge_key,
      name: row.phone,
      meta: { message_id: Number(row.id) },
    }));
    // One statement per payer for the whole batch where billing offers it.
    const results = deps.chargeMany
      ? (await deps.chargeMany(tx, teamId, requests)).results
      : await (async () => {
          const out: ChargeResult[] = [];
          for (const request of requests) out.push(await deps.charge(tx, teamId, request));
          return out;
        })();
    for (const [i, row] of payable.entries()) {
      const result = results[i];
      if (result?.status === 'charged') ok.push({ ...row, price: result.amount });
      else
        refused.push({
          row,
          code: result?.status === 'insufficient' ? 'balance_insufficient' : `balance_${result?.status ?? 'error'}`,
        });
    }
    if (refused.length > 0)
      await rows.settleMany(
        tx,
        refused.map(({ row, code }) => ({
          id: Number(row.id),
          attempt: row.attempt,
          state: 'failed',
          errorCode: code,
          errorMessage: code,
        })),
      );
    await rows.setPrices(tx, ok);
    return { ok, refused: refused.map((r) => r.row) };
  }

  return { pricesOf, charge };
}
