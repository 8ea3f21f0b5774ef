import type { ColumnType, Generated } from 'kysely';
import type { TRole } from '@herald/shared/auth/roles';
import type { TProcessMessage, TProcessStatus } from '@herald/shared/processes/processes.schemas';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

export interface TeamsTable {
  id: Generated<number>;
  name: string;
  data_version: Generated<number>;
  /** ISO 3166 code of the country phones without `+` or `00` are read in first. */
  default_country: Generated<string>;
  created_at: CreatedAt;
  /** The currency of the team's balances (0018). */
  balance_currency: Generated<'UAH' | 'USD' | 'EUR'>;
  /** The frequency cap across campaigns: at most this many campaign messages a phone; null: off (0032). */
  campaign_cap_messages: Generated<number | null>;
  /** ...in this many hours. */
  campaign_cap_hours: Generated<number>;
  /** Days a lookup result stays fresh (reused, not charged); null: the installation's default (0036). */
  lookup_fresh_days: Generated<number | null>;
}

export interface UsersTable {
  id: Generated<number>;
  team_id: number;
  name: string;
  email: string;
  phone: string | null;
  password_hash: string;
  role: TRole;
  email_verified_at: Date | null;
  blocked: Generated<boolean>;
  balance: Generated<number>;
  balance_auto_refill: Generated<boolean>;
  created_at: CreatedAt;
  /** With auto-refill: whose balance refills this member's (0018). */
  balance_refill_from: Generated<number | null>;
  /** What a reversed payment could not take back: paid first by the next credit (0027). */
  debt: Generated<number>;
  updated_at: UpdatedAt;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: CreatedAt;
  expires_at: Date;
  revoked_at: Date | null;
}

export interface ProcessesTable {
  id: Generated<number>;
  team_id: number;
  user_id: number;
  kind: string;
  title: string;
  status: TProcessStatus;
  phase: string | null;
  progress: Generated<number>;
  /** `{code, params}` (0029; a string before), written as its JSON text. */
  message: ColumnType<TProcessMessage | null, string | null | undefined, string | null>;
  cleared: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface PlatformTables {
  processes: ProcessesTable;
  teams: TeamsTable;
  users: UsersTable;
  sessions: SessionsTable;
}
