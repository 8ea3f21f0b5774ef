import type { TShareAnswer, TShareRequest } from '@herald/shared/billing/billing.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { balanceQueryKey } from './get-balance.ts';

/** `POST /balance/share`: money from the signed-in owner or admin to a member. */
export function shareBalance(body: TShareRequest): Promise<TShareAnswer> {
  return api.post<TShareAnswer>('/balance/share', body, { toast: false });
}

export function useShareBalance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: shareBalance,
    meta: { handlesErrors: true },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: balanceQueryKey });
      void queryClient.invalidateQueries({ queryKey: ['team', 'members'] });
      void queryClient.invalidateQueries({ queryKey: ['billing'] });
    },
  });
}
