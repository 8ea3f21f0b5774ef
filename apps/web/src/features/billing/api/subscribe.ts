import type { TSubscribeAnswer } from '@herald/shared/billing/billing.schemas';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * `POST /balance/subscribe`: paid from the balance at once (`subscribed`), or a checkout for the
 * price (`checkout`). Failures (a plan that cannot be bought) are toasted by the API client.
 */
export function subscribe(planId: number): Promise<TSubscribeAnswer> {
  return api.post<TSubscribeAnswer>('/balance/subscribe', { plan_id: planId });
}

export function useSubscribe() {
  return useMutation({ mutationFn: subscribe });
}
