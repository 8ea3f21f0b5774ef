import type { ColumnType, Generated } from 'kysely';
import type { TMessageStatus } from '@herald/shared/gateways/message-status';
import type { TMessageKind, TMessageState } from '@herald/shared/messages/messages.schemas';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type BigintNumber = ColumnType<number, number | undefined, number>;

/** One message to one recipient (migration 0023); written before the gateway is called. */
export interface MessagesTable {
  id: Generated<number>;
  team_id: number;
  user_id: number | null;
  lead_id: number | null;
  kind: TMessageKind;
  campaign_id: number | null;
  campaign_step_id: number | null;
  /** E.164. */
  phone: string;
  gateway_id: number | null;
  /** The sender asked for (alpha name or number); null: the gateway's own. */
  sender: string | null;
  text: string;
  parts: number;
  encoding: string;
  price: BigintNumber;
  charge_key: string;
  /** The client's idempotency key: a retried request finds the row it made. */
  client_key: string | null;
  state: Generated<TMessageState>;
  lease_until: NullableTimestamp;
  /** When the gateway call began (migration 0025): a claim that ran out before it is sent later. */
  called_at: NullableTimestamp;
  /** When a pending row is due. */
  not_before: Timestamp;
  /** Claims so far. */
  attempt: Generated<number>;
  /** The charge was given back: the row ended without a send. */
  refunded_at: NullableTimestamp;
  status: TMessageStatus | null;
  /** The spec SMS status, computed by the database from state, status and error_code (migration 0041). */
  sms_status: ColumnType<string | null, never, never>;
  provider_message_id: string | null;
  error_code: string | null;
  error_message: string | null;
  created_at: CreatedAt;
  submitted_at: NullableTimestamp;
  status_at: NullableTimestamp;
  updated_at: Timestamp;
}

export interface MessageOptOutsTable {
  team_id: number;
  phone: string;
  gateway_id: number | null;
  reason: string;
  created_at: CreatedAt;
}

export interface MessagesTables {
  messages: MessagesTable;
  message_opt_outs: MessageOptOutsTable;
}
