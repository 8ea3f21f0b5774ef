import type { TCreateCampaignSegmentRequest } from '@herald/shared/campaigns/campaign-segments.schemas';
import type { TSegment } from '@herald/shared/segments/segments.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** `POST campaigns/{id}/create-segment`: an audience (or a segment of one) of the campaign's leads by result. */
export function useCreateCampaignSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ campaignId, ...body }: TCreateCampaignSegmentRequest & { campaignId: number }) =>
      api.post<TSegment>(`/campaigns/${campaignId}/create-segment`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['segments'] }),
  });
}
