import { type Kysely, sql } from 'kysely';
import { GATEWAY_TYPE_INFO, type TGatewayType } from '@herald/shared/gateways/gateway-types';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';

const lookupTypes = () =>
  (Object.keys(GATEWAY_TYPE_INFO) as TGatewayType[]).filter((t) => GATEWAY_TYPE_INFO[t].capabilities.lookup);

/**
 * A lookup step's gateway: the one asked for when it is the team's, active and allows lookups, or
 * the team's default lookup gateway (lowest id, as the lookups module picks it) when none is asked.
 * Another team's gateway is refused like one that does not allow lookups: nothing tells it exists.
 */
export async function lookupStepGateway(q: Kysely<DB>, teamId: number, asked: number | null): Promise<number> {
  const r = await sql<{ id: string }>`select id from gateways where team_id = ${teamId} and active and allow_lookup
    and type = any(${lookupTypes()}::text[]) ${asked === null ? sql`` : sql`and id = ${asked}`} order by id limit 1`.execute(
    q,
  );
  const id = r.rows[0]?.id;
  if (id === undefined)
    throw AppError.field('gateway_id', asked === null ? 'lookup_gateway_missing' : 'lookup_gateway_unusable');
  return Number(id);
}
