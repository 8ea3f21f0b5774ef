import type { ColumnType, Generated } from 'kysely';
import type {
  TCarrierType,
  TLookupItemState,
  TLookupStatusCode,
  TLookupType,
  TReachability,
  TStatusLabel,
} from '@herald/shared/lookups/lookups.schemas';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** PostgreSQL `bigint` sums arrive as text from the driver; the repository converts them. */
type Money = ColumnType<number | string, number | undefined, number>;

/** Migration 0036; decision 040. */
export interface LookupsTable {
  id: Generated<number>;
  team_id: number;
  type: Generated<TLookupType>;
  source_id: number | null;
  list_id: number | null;
  campaign_step_id: number | null;
  gateway_id: number | null;
  /** The creator. */
  user_id: number | null;
  /** Who pays: the user who last started it. */
  launched_by: number | null;
  /** 0 pending, 1 running, 2 paused, 3 completed. */
  status: Generated<TLookupStatusCode>;
  /** A message code: why the engine paused it (`balance_not_enough_lookup`, `lookup_gateway_missing`). */
  paused_reason: string | null;
  phones: Generated<number>;
  reused: Generated<number>;
  looked_up: Generated<number>;
  failed: Generated<number>;
  /** Minor units of the launcher's currency. */
  cost: Generated<Money>;
  saved: Generated<Money>;
  rate_per_sec: number | null;
  process_id: number | null;
  started_at: NullableTimestamp;
  completed_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface LookupItemsTable {
  id: Generated<number>;
  lookup_id: number;
  team_id: number;
  phone: string;
  state: Generated<TLookupItemState>;
  lease_until: NullableTimestamp;
  not_before: Timestamp;
  attempt: Generated<number>;
  /** Provider failures refunded so far: the next charge's key differs by it. */
  refunds: Generated<number>;
  charge_key: string | null;
  error: string | null;
  updated_at: Timestamp;
}

/** The team's result per phone (one vocabulary whatever the provider). */
export interface PhoneLookupsTable {
  team_id: number;
  phone: string;
  carrier_name: string | null;
  mcc_mnc: string | null;
  carrier_type: TCarrierType;
  status_label: TStatusLabel;
  reachability: TReachability | null;
  ported: boolean | null;
  checked_at: Timestamp;
  gateway_id: number | null;
  lookup_id: number | null;
  /** `lookup`: a provider answered; `delivery`: the team's delivered message proved it (free). */
  origin: Generated<'lookup' | 'delivery'>;
  cost: Generated<number>;
}

export interface LookupsTables {
  lookups: LookupsTable;
  lookup_items: LookupItemsTable;
  phone_lookups: PhoneLookupsTable;
}
