import type { TInvitation } from '@herald/shared/team/team.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { TInvitableRole } from '../invitable-roles.ts';

/** Only the role changes; the e-mail of an invitation is locked. */
export function updateInvitation({ id, role }: { id: number; role: TInvitableRole }): Promise<TInvitation> {
  return api.put<TInvitation>(`/invitations/${id}`, { role });
}

export function useUpdateInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['team', 'invitations'] }),
  });
}
