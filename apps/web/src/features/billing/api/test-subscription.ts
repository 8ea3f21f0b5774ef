import type { TSubscriptionTestRequest } from '@herald/shared/plans/plans.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** `POST /subscriptions/test`: spends 10 of a feature and says what it did, or why it could not. */
export function testSubscription(body: TSubscriptionTestRequest) {
  return api.post<{ message: string; code: string }>('/subscriptions/test', body, { toast: false });
}

export function useTestSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: testSubscription,
    meta: { handlesErrors: true },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['billing'] });
      void queryClient.invalidateQueries({ queryKey: ['user'] });
      void queryClient.invalidateQueries({ queryKey: ['balance'] });
    },
  });
}
