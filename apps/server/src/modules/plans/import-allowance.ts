import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { FeatureRegistry } from './features.ts';
import type { Limits } from './limits.ts';
import type { SubscriptionsRepository } from './subscriptions.repository.ts';

/** Import statuses of a run under way: its claim counts until it ends. */
const RUNNING = ['queued', 'parsing', 'resolving', 'cancel_queued', 'cancelling'] as const;

/** The import-limit uses this module keeps itself: what running imports have claimed. */
export function claimedByRunningImports(db: Kysely<DB>, teamId: number) {
  return db
    .selectFrom('import_allowances as a')
    .innerJoin('import_files as f', 'f.id', 'a.import_file_id')
    .select(sql<number>`coalesce(sum(a.claimed), 0)::int`.as('n'))
    .where('a.team_id', '=', teamId)
    .where('f.status', 'in', RUNNING);
}

/**
 * Leads running imports have claimed and not yet added: each claimed row may still become a new
 * lead, and what an import has added (`leads_processed`) is already in the team's lead count.
 * Counted against the lead limit, so a claim and a hand-made lead both see them.
 */
export function leadsClaimedNotAdded(db: Kysely<DB>, teamId: number) {
  return db
    .selectFrom('import_allowances as a')
    .innerJoin('import_files as f', 'f.id', 'a.import_file_id')
    .select(sql<number>`coalesce(sum(greatest(0, a.claimed - f.leads_processed)), 0)::int`.as('n'))
    .where('a.team_id', '=', teamId)
    .where('f.status', 'in', RUNNING);
}

/** Why a claim was refused, and the most rows this import may have. */
export interface ClaimRefusal {
  code: 'import_limit_reached' | 'import_lead_limit_reached';
  most: number;
}

/**
 * The import limit for the imports module (decision 015, "Imports and the import limit").
 * Dispatch takes the team's import-limit lock, refuses when nothing is left, and opens the
 * import's claim. While it parses, the run claims its good rows so far, batch by batch, under the
 * same lock: two imports started together each count what the other has claimed, so together they
 * never pass the limit; the one that would is failed and taken back (all or nothing). A claim
 * counts only while its import runs; once completed, the import counts by its leads.
 */
export function createImportAllowance(deps: {
  db: Kysely<DB>;
  repo: SubscriptionsRepository;
  limits: Limits;
  features: FeatureRegistry;
}) {
  const { db, repo, limits, features } = deps;

  /**
   * The lead limit's room for this import, its own claim excluded, in rows of its file: the
   * leads it added already count in the team's leads, the rest of its claim may yet be new.
   * Taken after the import-limit lock, as every path that takes both does.
   */
  async function leadRoom(tx: Kysely<DB>, teamId: number, importId: number, own: { claimed: number } | undefined) {
    await repo.lockFeature(tx, teamId, 'lead-limit');
    const { row, plan } = await limits.activePlan(tx, teamId);
    const value = plan.features['lead-limit'];
    if (value === null) return null;
    const added = await tx
      .selectFrom('import_files')
      .select('leads_processed')
      .where('id', '=', importId)
      .where('team_id', '=', teamId)
      .executeTakeFirst();
    const processed = added?.leads_processed ?? 0;
    const ownOutstanding = Math.max(0, (own?.claimed ?? 0) - processed);
    const used = await features.usage(tx, teamId, 'lead-limit', row.period_starts_at);
    return Math.max(0, value - (used - ownOutstanding)) + processed;
  }

  /** What the plan still allows this import, its own claim excluded (null: no limit). */
  async function room(tx: Kysely<DB>, teamId: number, importId: number) {
    await repo.lockFeature(tx, teamId, 'import-limit');
    const { row, plan } = await limits.activePlan(tx, teamId);
    const value = plan.features['import-limit'];
    const own = await tx
      .selectFrom('import_allowances')
      .select('claimed')
      .where('import_file_id', '=', importId)
      .where('team_id', '=', teamId)
      .executeTakeFirst();
    if (value === null) return { value, left: null, own };
    const used = await features.usage(tx, teamId, 'import-limit', row.period_starts_at);
    return { value, left: Math.max(0, value - (used - (own?.claimed ?? 0))), own };
  }

  return {
    /** At dispatch: refuses with `import_limit_reached` when nothing is left, else opens the claim. */
    async reserve(teamId: number, importId: number): Promise<void> {
      await db.transaction().execute(async (tx) => {
        const { left } = await room(tx, teamId, importId);
        if (left !== null && left <= 0) throw new AppError('import_limit_reached');
        // The team must also have room for at least one more lead.
        await limits.assertCanCreate(tx, teamId, 'lead-limit');
        await tx
          .insertInto('import_allowances')
          .values({ import_file_id: importId, team_id: teamId, claimed: 0 })
          .onConflict((c) => c.column('import_file_id').doNothing())
          .execute();
      });
    },

    /**
     * While parsing: the import needs `count` rows in all, each of which may be a new lead.
     * Answers null when the plan's import limit and lead limit both give them (and records the
     * claim), else which refuses and the most this import may have, for the failure's message.
     */
    async claim(teamId: number, importId: number, count: number): Promise<ClaimRefusal | null> {
      return db.transaction().execute(async (tx) => {
        let space: Awaited<ReturnType<typeof room>>;
        let leads: number | null;
        try {
          space = await room(tx, teamId, importId);
          if (space.left !== null && count > space.left) return { code: 'import_limit_reached', most: space.left };
          leads = await leadRoom(tx, teamId, importId, space.own);
        } catch (error) {
          // The subscription lapsed while the file was being read: nothing more may be imported.
          if (error instanceof AppError && error.code === 'subscription_required')
            return { code: 'import_limit_reached', most: 0 };
          throw error;
        }
        if (leads !== null && count > leads) return { code: 'import_lead_limit_reached', most: leads };
        await tx
          .insertInto('import_allowances')
          .values({ import_file_id: importId, team_id: teamId, claimed: count })
          .onConflict((c) =>
            c
              .column('import_file_id')
              .doUpdateSet({ claimed: sql`greatest(import_allowances.claimed, excluded.claimed)` }),
          )
          .execute();
        return null;
      });
    },
  };
}
export type ImportAllowance = ReturnType<typeof createImportAllowance>;
