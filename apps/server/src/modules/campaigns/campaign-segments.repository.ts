import type { Kysely } from 'kysely';
import type { TCampaignStatus } from '@herald/shared/campaigns/campaign-moves';
import type { DB } from '../../db/schema.ts';
import { escapeLike } from '../../db/sql-text.ts';

/** The campaigns the results filters offer and create-segment starts from (decision 039). */
export function createCampaignSegmentsRepository(db: Kysely<DB>) {
  return {
    async findStatus(teamId: number, id: number): Promise<TCampaignStatus | undefined> {
      const row = await db
        .selectFrom('campaigns')
        .select('status')
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row?.status;
    },

    /** The team's campaigns in these statuses, newest finish first; a page and the total. */
    async findPageByStatus(
      teamId: number,
      statuses: readonly TCampaignStatus[],
      args: { offset: number; limit: number; search?: string },
    ) {
      let q = db.selectFrom('campaigns').where('team_id', '=', teamId).where('status', 'in', statuses);
      if (args.search) q = q.where('name', 'ilike', `%${escapeLike(args.search)}%`);
      const [rows, total] = await Promise.all([
        q
          .select(['id', 'name', 'status', 'completed_at'])
          .orderBy('completed_at', (o) => o.desc().nullsLast())
          .orderBy('id', 'desc')
          .offset(args.offset)
          .limit(args.limit)
          .execute(),
        q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.n) };
    },
  };
}

export type CampaignSegmentsRepository = ReturnType<typeof createCampaignSegmentsRepository>;
