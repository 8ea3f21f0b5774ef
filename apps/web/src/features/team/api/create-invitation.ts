import type { TInvitation } from '@herald/shared/team/team.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { TInvitableRole } from '../invitable-roles.ts';

export function createInvitation(body: { email: string; role: TInvitableRole }): Promise<TInvitation> {
  return api.post<TInvitation>('/invitations', body);
}

export function useCreateInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['team', 'invitations'] }),
  });
}
