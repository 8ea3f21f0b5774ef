import type { TCampaignTestRequest, TCampaignTestResponse } from '@herald/shared/campaigns/campaign-test.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * `POST /campaigns/{id}/test`: every step at once to one phone. The key is made once per press of
 * "Send test" and resent with a retry of that request, so a retry sends and charges nothing more.
 */
export function useTestCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body, key }: { id: number; body: TCampaignTestRequest; key: string }) =>
      apiRequest<TCampaignTestResponse>(`/campaigns/${id}/test`, {
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': key },
        toast: false,
      }),
    // The dialog says each refusal once, under the phone or above the form: no toast as well.
    meta: { handlesErrors: true },
    // The campaign's log has the test now (the balance is announced by the server, as for any SMS).
    onSuccess: (_, { id }) => queryClient.invalidateQueries({ queryKey: ['campaigns', 'logs', id] }),
  });
}
