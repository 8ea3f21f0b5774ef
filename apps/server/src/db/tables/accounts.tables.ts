import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface AuthTokensTable {
  id: Generated<number>;
  user_id: number;
  kind: 'verify_email' | 'password_reset';
  token_hash: string;
  code_hash: string | null;
  code_expires_at: Date | null;
  failed_attempts: Generated<number>;
  expires_at: Date;
  used_at: Date | null;
  created_at: CreatedAt;
}

export interface InvitationsTable {
  id: Generated<number>;
  team_id: number;
  email: string;
  role: 'team_admin' | 'team_operator';
  token_hash: string;
  invited_by: number | null;
  expires_at: Date;
  accepted_at: Date | null;
  created_at: CreatedAt;
}

export interface RateLimitsTable {
  key: string;
  hits: number;
  reset_at: Date;
}

/** A single-use stand-in for the session token in a URL (migration 0014). */
export interface AccessTicketsTable {
  ticket_hash: string;
  session_id: string;
  user_id: number;
  purpose: string;
  expires_at: Date;
}

export interface AccountsTables {
  access_tickets: AccessTicketsTable;
  auth_tokens: AuthTokensTable;
  invitations: InvitationsTable;
  rate_limits: RateLimitsTable;
}
