import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function blockUser({ id, blocked }: { id: number; blocked: boolean }) {
  return api.post<{ id: number; blocked: boolean }>(`/user/${id}/block`, { blocked });
}

export function useBlockUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: blockUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['team', 'members'] }),
  });
}
