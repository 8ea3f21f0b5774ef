import { type Expression, type Kysely, sql } from 'kysely';
import type { TFeatureSlug } from '@herald/shared/plans/plans.schemas';
import type { DB } from './schema.ts';

/**
 * What the plans module hands the modules whose creates a plan limits (decision 015). Typed here,
 * on the platform, so a module's deps can name it without importing the plans module.
 */
export interface PlanLimits {
  /**
   * In the create's own transaction, before the insert: a 422 when the team's plan does not allow
   * `amount` more of `slug` (or the team has no subscription). Concurrent creates queue on the
   * team's lock of the feature, so they cannot pass the limit together.
   */
  assertCanCreate(db: Kysely<DB>, teamId: number, slug: TFeatureSlug, amount?: number): Promise<void>;
  /** Registers how a module counts its feature's usage from its rows (`since`: the period's start). */
  provide(slug: TFeatureSlug, usage: UsageQuery): void;
  /**
   * How far back the team sees its histories (the plan's `history-days`): rows older than this
   * are left out where the Timeline, import history and transactions are read; null: all of them.
   */
  historySince(db: Kysely<DB>, teamId: number): Promise<Date | null>;
}

/**
 * A team's usage of one feature as a query of one row and one number, built on `db` but not run:
 * the plans read every feature's usage in one statement (a profile shows them all), on the
 * caller's transaction when there is one.
 */
export type UsageQuery = (db: Kysely<DB>, teamId: number, since: Date) => Expression<unknown>;

/** A day, for `history-days`. */
export const DAY_MS = 86_400_000;

type TeamTable = 'sources' | 'lists' | 'segments' | 'lead_attributes' | 'users';

/** How many rows of a team a table holds: the usage of most limits. */
export function countTeamRows(db: Kysely<DB>, table: TeamTable, teamId: number) {
  return db.selectFrom(table).select(sql<number>`count(*)::int`.as('n')).where('team_id', '=', teamId);
}

/**
 * The plan's import and lead limits as the imports module uses them (decision 015). `reserve` at
 * dispatch refuses with `import_limit_reached` when nothing is left; `claim` while parsing asks for
 * the import's good rows so far and answers null when the plan gives them, else which limit
 * refuses (the import's failure code) and the most rows the import may have.
 */
export interface ImportAllowance {
  reserve(teamId: number, importId: number): Promise<void>;
  claim(
    teamId: number,
    importId: number,
    count: number,
  ): Promise<{ code: 'import_limit_reached' | 'import_lead_limit_reached'; most: number } | null>;
}
