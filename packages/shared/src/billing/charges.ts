/**
 * How a sending or lookup module asks billing for money (decision 016), and what it is answered.
 * One declaration for the billing module that charges and the modules that call it.
 */
export type TChargeCode = 'sent_message' | 'sent_single_message' | 'lookup' | 'subscribe_payment';

/** What a sending or lookup module asks to be charged: an amount, or SMS parts at a price. */
export interface ChargeRequest {
  userId: number;
  code: TChargeCode;
  /** Minor units; or `parts` × `pricePerPart`, where the plan's free SMS are spent first. */
  amount?: number;
  parts?: number;
  pricePerPart?: number;
  /** Messages or lookups this covers; default 1. */
  count?: number;
  /** Unique per user: a retried charge with the same key charges once and answers as the first. */
  key: string;
  name?: string | null;
  meta?: Record<string, unknown> | null;
}

export interface ChargeResult {
  key: string;
  /**
   * `insufficient`: the balance does not cover it; `debt`: the user owes a reversed payment, and
   * nothing is charged (nor sent) until a top-up pays it (code `balance_debt`).
   */
  status: 'charged' | 'insufficient' | 'debt';
  /** Minor units taken (or that would have been). */
  amount: number;
  freeParts: number;
  /** Charged by an earlier call with this key; nothing was taken now. */
  replayed: boolean;
}

/** `refund(tx, teamId, request)`: gives back what the charge with `chargeKey` took, once. */
export interface RefundRequest {
  userId: number;
  /** The key the charge was made with; the refund's own key is `refund:<chargeKey>`. */
  chargeKey: string;
  /** Why, kept on the ledger row (e.g. `not_sent`, `expired`, `unknown_after_deadline`). */
  reason: string;
}

export interface RefundResult {
  /** `nothing_to_refund`: no such charge, or it took neither money nor free SMS. */
  status: 'refunded' | 'nothing_to_refund' | 'already_refunded';
  /** Minor units given back (0 unless `refunded`). */
  amount: number;
  /** Free SMS parts given back to the team's period (0 unless `refunded`). */
  freeSms: number;
}
