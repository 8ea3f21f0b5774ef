import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface SubscriptionsTable {
  id: Generated<number>;
  team_id: number;
  /** The catalogue plan's id (decision 015); the slug is kept for reading the row alone. */
  plan_id: number;
  plan_slug: string;
  activated_by: number | null;
  period_starts_at: Date;
  ends_at: Date;
  renewals: Generated<number>;
  ended_at: Date | null;
  end_reason: 'replaced' | 'not_renewed' | null;
  created_at: CreatedAt;
}

export interface PlanFeatureUsesTable {
  id: Generated<number>;
  team_id: number;
  feature: string;
  amount: number;
  created_at: CreatedAt;
}

export interface ImportAllowancesTable {
  import_file_id: number;
  team_id: number;
  claimed: Generated<number>;
  created_at: CreatedAt;
}

export interface PlansTables {
  subscriptions: SubscriptionsTable;
  plan_feature_uses: PlanFeatureUsesTable;
  import_allowances: ImportAllowancesTable;
}
