import type { TSubscriptionsResponse } from '@herald/shared/plans/plans.schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** `GET /subscriptions`: the plans on offer, the team's active subscriptions and the price list. */
export function useSubscriptions(options: { enabled?: boolean } = {}) {
  return useQuery({
    enabled: options.enabled ?? true,
    queryKey: ['billing', 'subscriptions'],
    queryFn: ({ signal }) => api.get<TSubscriptionsResponse>('/subscriptions', undefined, signal),
  });
}
