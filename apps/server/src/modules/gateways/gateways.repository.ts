import type { Kysely, Selectable } from 'kysely';
import type { TGatewayType } from '@herald/shared/gateways/gateway-types';
import type { DB } from '../../db/schema.ts';
import type { GatewaysTable } from '../../db/tables/gateways.tables.ts';

export type GatewayRow = Selectable<GatewaysTable>;

export interface GatewayWrite {
  name: string;
  type: TGatewayType;
  active: boolean;
  is_default: boolean;
  allow_lookup: boolean;
  params: Record<string, string>;
  credentials: string;
}

/**
 * Two saves that both make a gateway default would each clear the other's flag before it exists and
 * then collide on the one-default index: the team's row is locked first, so they take turns.
 */
async function lockTeam(tx: Kysely<DB>, teamId: number) {
  await tx.selectFrom('teams').select('id').where('id', '=', teamId).forUpdate().execute();
}

/** SQL of the gateways table; every method but the webhook's `findAnyTeam` filters by team. */
export function createGatewaysRepository(db: Kysely<DB>) {
  return {
    findAll(teamId: number): Promise<GatewayRow[]> {
      return db.selectFrom('gateways').selectAll().where('team_id', '=', teamId).orderBy('id').execute();
    },

    findById(teamId: number, id: number): Promise<GatewayRow | undefined> {
      return db
        .selectFrom('gateways')
        .selectAll()
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** A provider's callback names only the gateway; its team follows from the row. */
    findAnyTeam(id: number): Promise<GatewayRow | undefined> {
      return db.selectFrom('gateways').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Inserts, clearing the team's other default in the same transaction when this one is default. */
    insert(teamId: number, row: GatewayWrite): Promise<GatewayRow> {
      return db.transaction().execute(async (tx) => {
        if (row.is_default) {
          await lockTeam(tx, teamId);
          await tx
            .updateTable('gateways')
            .set({ is_default: false })
            .where('team_id', '=', teamId)
            .where('is_default', '=', true)
            .execute();
        }
        return tx
          .insertInto('gateways')
          .values({ ...row, team_id: teamId, params: JSON.stringify(row.params) })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
    },

    update(teamId: number, id: number, row: GatewayWrite): Promise<GatewayRow | undefined> {
      return db.transaction().execute(async (tx) => {
        if (row.is_default) {
          await lockTeam(tx, teamId);
          await tx
            .updateTable('gateways')
            .set({ is_default: false })
            .where('team_id', '=', teamId)
            .where('is_default', '=', true)
            .where('id', '!=', id)
            .execute();
        }
        return tx
          .updateTable('gateways')
          .set({ ...row, params: JSON.stringify(row.params), updated_at: new Date() })
          .where('team_id', '=', teamId)
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirst();
      });
    },

    async delete(teamId: number, id: number): Promise<boolean> {
      const result = await db
        .deleteFrom('gateways')
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
export type GatewaysRepository = ReturnType<typeof createGatewaysRepository>;
