import type { TGateway } from '@herald/shared/gateways/gateways.schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * The gateways a lookup step may use: the team's, active and allowed to look up. Same key as the
 * settings' list, so every screen shares one answer.
 */
export function useStepLookupGateways() {
  return useQuery({
    queryKey: ['gateways'],
    queryFn: ({ signal }) => api.get<{ data: TGateway[] }>('/config/gateway/messaging', undefined, signal),
    select: (r) => r.data.filter((g) => g.active && g.allow_lookup && g.capabilities.lookup),
  });
}
