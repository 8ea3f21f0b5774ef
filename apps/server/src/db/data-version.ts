import type { Kysely, Transaction } from 'kysely';
import type { DB } from './schema.ts';

/** Marks the team's lead data changed, so cached counts (counts-cache.ts) are recomputed. */
export async function bumpDataVersion(db: Kysely<DB> | Transaction<DB>, teamId: number): Promise<void> {
  await db
    .updateTable('teams')
    .set((eb) => ({ data_version: eb('data_version', '+', 1) }))
    .where('id', '=', teamId)
    .execute();
}
