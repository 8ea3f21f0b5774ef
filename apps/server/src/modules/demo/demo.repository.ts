import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

export interface NewDemoRequest {
  name: string;
  email: string;
  phone: string;
  message: string;
  language: string;
}

/** Demo requests: kept on arrival, marked once handed on. */
export function createDemoRepository(db: Kysely<DB>) {
  return {
    async insert(teamId: number, userId: number, request: NewDemoRequest): Promise<number> {
      const row = await db
        .insertInto('demo_requests')
        .values({ team_id: teamId, user_id: userId, ...request })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },
    /** A request by its id alone: the delivery job works for the installation, not for a team. */
    findUndelivered(id: number) {
      return db
        .selectFrom('demo_requests')
        .selectAll()
        .where('id', '=', id)
        .where('delivered_at', 'is', null)
        .executeTakeFirst();
    },
    async markDelivered(id: number, to: 'form' | 'mail') {
      await db
        .updateTable('demo_requests')
        .set({ delivered_to: to, delivered_at: new Date() })
        .where('id', '=', id)
        .where('delivered_at', 'is', null)
        .execute();
    },
  };
}
export type DemoRepository = ReturnType<typeof createDemoRepository>;
