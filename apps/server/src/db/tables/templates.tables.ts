import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

/** Migration 0021. Default templates have no team and a seed key. */
export interface SmsTemplatesTable {
  id: Generated<number>;
  team_id: number | null;
  user_id: number | null;
  name: string;
  type_id: string;
  message: string;
  public: Generated<boolean>;
  is_default: Generated<boolean>;
  seed_key: string | null;
  params: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface TemplatesTables {
  sms_templates: SmsTemplatesTable;
}
