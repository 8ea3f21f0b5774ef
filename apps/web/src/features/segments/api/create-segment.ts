import type { TSegment } from '@herald/shared/segments/segments.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type SegmentFields = { name: string; ignore_new_leads: boolean };

/** A new audience: `POST /segments`. */
export function createSegment(body: SegmentFields) {
  return api.post<TSegment>('/segments', body);
}

export function useCreateSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSegment,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['segments'] }),
  });
}
