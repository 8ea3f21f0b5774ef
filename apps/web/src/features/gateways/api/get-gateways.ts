import type { TGateway } from '@herald/shared/gateways/gateways.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const GATEWAYS_KEY = ['gateways'] as const;

export function getGateways(signal?: AbortSignal) {
  return api.get<{ data: TGateway[] }>('/config/gateway/messaging', undefined, signal);
}

export const gatewaysQueryOptions = () =>
  queryOptions({ queryKey: GATEWAYS_KEY, queryFn: ({ signal }) => getGateways(signal), select: (r) => r.data });

/** The team's SMS gateways (settings; owners and admins). */
export function useGateways() {
  return useQuery(gatewaysQueryOptions());
}
