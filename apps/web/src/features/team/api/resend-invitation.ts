import type { TInvitation } from '@herald/shared/team/team.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function resendInvitation(id: number): Promise<TInvitation> {
  return api.post<TInvitation>(`/invitations/${id}/resend`);
}

export function useResendInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['team', 'invitations'] }),
  });
}
