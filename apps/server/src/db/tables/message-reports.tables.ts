import type { ColumnType, Generated } from 'kysely';
import type { TMessageStatus } from '@herald/shared/gateways/message-status';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

/** A verified delivery report waiting for its row to settle (migration 0026). */
export interface MessageReportsKeptTable {
  id: Generated<number>;
  team_id: number;
  gateway_id: number;
  /** The row the callback's URL named, if it named one. */
  message_id: number | null;
  /** The provider's signature (or our hook token) covers `message_id`. */
  row_signed: Generated<boolean>;
  provider_message_id: string;
  status: TMessageStatus;
  provider_status: string;
  error_code: string | null;
  reported_at: ColumnType<Date, Date | string, never>;
  created_at: CreatedAt;
}

/** A verified reply, once per provider message id (migration 0026). */
export interface MessageInboundTable {
  id: Generated<number>;
  team_id: number;
  gateway_id: number | null;
  provider_message_id: string | null;
  /** E.164. */
  phone: string;
  text: string;
  opt_out: boolean;
  received_at: CreatedAt;
}

export interface MessageReportsTables {
  message_reports_kept: MessageReportsKeptTable;
  message_inbound: MessageInboundTable;
}
