import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../schema.ts';
import { type LeadWrite, withLeadWrite } from './lead-write.ts';

/** The leads of some lists or of some sources of a team. */
export interface LeadOwners {
  column: 'list_id' | 'source_id';
  ids: number[];
}

const ofOwners = (teamId: number, owners: LeadOwners) =>
  sql`l.team_id = ${teamId} and ${sql.ref(`l.${owners.column}`)} = any(${owners.ids}::bigint[])`;

/** The phones of `leads` (a condition on `l`) that other leads may share: only a duplicate's. */
const sharedPhones = (leads: RawBuilder<unknown>) => sql`
  select distinct v.value from leads l join lead_values v on v.lead_id = l.id and v.type = 'phone'
  where ${leads} and l.duplicates > 0`;

/**
 * Deletes the owners' leads `batch` a transaction, until none is left: on the embedded database,
 * one connection, a 200,000-lead list was one transaction of 6 s that every other query of the app
 * waited behind (a million-lead one ~30 s); in batches of 5,000 the leads page answers within half
 * a second meanwhile, for ~60% more time in all (`npm run list-delete -w @herald/bench`). A delete
 * cut short by a crash leaves the list with fewer leads; deleting it again ends the job.
 */
export async function deleteLeadsInBatches(db: Kysely<DB>, teamId: number, owners: LeadOwners, batch: number) {
  for (let deleted = batch; deleted === batch; ) {
    deleted = await withLeadWrite(db, teamId, { phones: true }, async (w) => {
      const found = await sql<{ id: string }>`
        select l.id from leads l where ${ofOwners(teamId, owners)} limit ${batch}`.execute(w.tx);
      const leadIds = found.rows.map((r) => Number(r.id));
      if (leadIds.length === 0) {
        w.unchanged();
        return 0;
      }
      const these = sql`l.id = any(${leadIds}::bigint[])`;
      await w.removingPhones(sharedPhones(these), () =>
        sql`delete from leads l where l.team_id = ${teamId} and ${these}`.execute(w.tx),
      );
      return leadIds.length;
    });
  }
}

/**
 * Runs `remove`, the delete of the owners themselves, whose cascades (migration 0006) take their
 * leads, and recounts the duplicates of the team's other leads that shared a phone with them:
 * emptying a list imported twice by mistake leaves the first one without duplicates.
 */
export function removingLeadsOf<T>(w: LeadWrite, owners: LeadOwners, remove: () => Promise<T>): Promise<T> {
  return w.removingPhones(sharedPhones(ofOwners(w.teamId, owners)), remove);
}
