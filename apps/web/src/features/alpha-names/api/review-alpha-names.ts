import type { TAlphaNameStatus } from '@herald/shared/alpha-names/alpha-names.schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface ReviewedAlphaName {
  id: number;
  name: string;
  status: TAlphaNameStatus;
  team_id: number;
  team_name: string;
  created_at: string;
}

/** The names of every team waiting on review (installation admins only). */
export function useReviewQueue(enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'alpha-names'],
    queryFn: ({ signal }) => api.get<{ data: ReviewedAlphaName[] }>('/admin/alpha-names', undefined, signal),
    enabled,
  });
}

export function useReviewAlphaName() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: number; decision: 'approve' | 'reject' }) =>
      api.post(`/admin/alpha-names/${id}/review`, { decision }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'alpha-names'] }),
  });
}
