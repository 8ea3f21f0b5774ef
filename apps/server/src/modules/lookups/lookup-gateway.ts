import { type Kysely, sql } from 'kysely';
import { GATEWAY_TYPE_INFO, gatewayCapabilities, type TGatewayType } from '@herald/shared/gateways/gateway-types';
import type { DB } from '../../db/schema.ts';
import type { LookupResult } from './lookup-normalize.ts';

/** A gateway that may look phones up: its type, its rate (lookups a second; null: none), its call. */
export interface LookupGateway {
  id: number;
  type: TGatewayType;
  rate: number | null;
  lookup(phone: string): Promise<LookupResult>;
}

export type AdapterOf = (
  teamId: number,
  id: number,
) => Promise<{ adapter: { lookup?(phone: string): Promise<LookupResult> } }>;

const lookupTypes = () =>
  (Object.keys(GATEWAY_TYPE_INFO) as TGatewayType[]).filter((t) => GATEWAY_TYPE_INFO[t].capabilities.lookup);
/** A type with a lookup, or a generic HTTP gateway that declares its lookup URL (`gatewayCapabilities`). */
const looksUp = sql`(type = any(${lookupTypes()}::text[])
  or (type = 'generic_http' and coalesce(btrim(params->>'lookup_url'), '') <> ''))`;

/**
 * Gateways a lookup may use: the team's, active, `allow_lookup`, of a type with a lookup. The rate
 * is the gateway's `lookups_per_second` when set, else the provider's requests a second; the
 * installation may turn the limit off (`rateLimit: false`: the benchmark's "rate limit off").
 */
export function createLookupGateways(db: Kysely<DB>, adapterOf: AdapterOf, options: { rateLimit?: boolean } = {}) {
  const cache = new Map<string, { until: number; gateway: LookupGateway | null }>();
  return {
    /** The team's first usable gateway (lowest id), or null. */
    async defaultFor(teamId: number, on: Kysely<DB> = db): Promise<number | null> {
      const r = await sql<{ id: string }>`select id from gateways where team_id = ${teamId} and active
        and allow_lookup and ${looksUp} order by id limit 1`.execute(on);
      return r.rows[0] ? Number(r.rows[0].id) : null;
    },
    async usable(teamId: number, id: number, on: Kysely<DB> = db): Promise<boolean> {
      const r = await sql<{ id: string }>`select id from gateways where team_id = ${teamId} and id = ${id} and active
        and allow_lookup and ${looksUp}`.execute(on);
      return r.rows.length > 0;
    },
    /** For the engine; kept for five seconds, so a gateway switched off stops a lookup soon. */
    async gatewayOf(teamId: number, id: number | null): Promise<LookupGateway | null> {
      if (id === null) return null;
      const key = `${teamId}:${id}`;
      const hit = cache.get(key);
      if (hit && hit.until > Date.now()) return hit.gateway;
      const row = await db
        .selectFrom('gateways')
        .select(['id', 'type', 'active', 'allow_lookup', 'params'])
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .executeTakeFirst();
      let gateway: LookupGateway | null = null;
      const params = (typeof row?.params === 'string' ? JSON.parse(row.params) : row?.params) as Record<string, string>;
      if (row?.active && row.allow_lookup && gatewayCapabilities(row.type, params).lookup) {
        const { adapter } = await adapterOf(teamId, id);
        const own = Number(params?.lookups_per_second);
        const rate =
          options.rateLimit === false
            ? null
            : Number.isFinite(own) && own > 0
              ? own
              : GATEWAY_TYPE_INFO[row.type].capabilities.requestsPerSecond;
        const call = adapter.lookup?.bind(adapter);
        if (call) gateway = { id: Number(row.id), type: row.type, rate, lookup: call };
      }
      cache.set(key, { until: Date.now() + 5_000, gateway });
      return gateway;
    },
  };
}
export type LookupGateways = ReturnType<typeof createLookupGateways>;
