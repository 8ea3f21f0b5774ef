import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface DemoRequestsTable {
  id: Generated<number>;
  team_id: number;
  user_id: number | null;
  name: string;
  email: string;
  phone: string;
  message: Generated<string>;
  language: Generated<string>;
  /** `form` (the form service) or `mail` (the support address); null until handed on. */
  delivered_to: string | null;
  delivered_at: Date | null;
  created_at: CreatedAt;
}

export interface DemoTables {
  demo_requests: DemoRequestsTable;
}
