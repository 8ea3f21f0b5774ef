import type { ColumnType, Generated } from 'kysely';
import type { TGatewayType } from '@herald/shared/gateways/gateway-types';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

export interface GatewaysTable {
  id: Generated<number>;
  team_id: number;
  name: string;
  type: TGatewayType;
  active: boolean;
  /** The spec's `default`; one per team (a partial unique index). */
  is_default: boolean;
  /** Lookup-only: used for carrier lookups, never offered for sending. */
  allow_lookup: boolean;
  /** Non-secret credential fields (sender, base URL, simulator rates). */
  params: ColumnType<Record<string, string>, string, string>;
  /** Secret fields, sealed with AES-256-GCM (crypto/credentials.ts); never sent to a browser. */
  credentials: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface GatewaysTables {
  gateways: GatewaysTable;
}
