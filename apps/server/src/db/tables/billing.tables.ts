import type { ColumnType, Generated } from 'kysely';
import type { TCurrency, TTransactionCode } from '@herald/shared/billing/billing.schemas';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

/** The ledger (migration 0018): one row per change of a user's balance; it sums to the balance. */
export interface TransactionsTable {
  id: Generated<number>;
  team_id: number;
  user_id: number;
  type: TTransactionCode;
  /** Signed minor units. */
  amount: number;
  name: string | null;
  count: Generated<number>;
  /** Free SMS parts this row took (a refund's are negative: it gives them back). */
  free_parts: Generated<number>;
  /** How this row moved the user's debt (0027); its sum is `users.debt`. */
  debt_change: Generated<number>;
  idempotency_key: string;
  order_id: string | null;
  meta: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  created_at: CreatedAt;
}

export interface PaymentOrdersTable {
  id: Generated<number>;
  order_id: string;
  team_id: number;
  user_id: number;
  purpose: 'top_up' | 'subscription';
  plan_id: number | null;
  amount: number;
  currency: TCurrency;
  status: Generated<'pending' | 'paid' | 'declined' | 'closed' | 'reversed'>;
  provider_status: string | null;
  /** When the provider's last status came (0027). */
  provider_status_at: Date | null;
  payment_id: string | null;
  created_at: CreatedAt;
  settled_at: Date | null;
}

export interface CheckoutKeysTable {
  id: number;
  public_key: string;
  private_key: string;
  created_at: CreatedAt;
}

export interface BillingTables {
  transactions: TransactionsTable;
  payment_orders: PaymentOrdersTable;
  checkout_keys: CheckoutKeysTable;
}
