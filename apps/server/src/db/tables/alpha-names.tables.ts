import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

/** Migration 0021. status: 0 inactive, 1 active, 2 on review. */
export interface AlphaNamesTable {
  id: Generated<number>;
  team_id: number;
  name: string;
  status: Generated<0 | 1 | 2>;
  is_default: Generated<boolean>;
  reviewed_by: string | null;
  reviewed_at: Date | null;
  /** The language the name was asked for in: its review's mail is written in it (0030). */
  language: Generated<'uk' | 'en' | 'ru'>;
  created_at: CreatedAt;
}

export interface AlphaNamesTables {
  alpha_names: AlphaNamesTable;
}
