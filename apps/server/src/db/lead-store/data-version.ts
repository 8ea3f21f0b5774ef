import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../schema.ts';

/**
 * Marks the team's lead data changed, so cached counts and lead pages (versioned-cache.ts) are
 * recomputed. Call it in the transaction of every write that changes what a lead page or a count
 * shows: leads, their values and statuses, lists and sources, attribute names.
 */
export async function bumpDataVersion(db: Kysely<DB> | Transaction<DB>, teamId: number): Promise<void> {
  await db
    .updateTable('teams')
    .set((eb) => ({ data_version: eb('data_version', '+', 1) }))
    .where('id', '=', teamId)
    .execute();
}
