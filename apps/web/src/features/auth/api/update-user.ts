import type { TUser } from '@herald/shared/auth/auth.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface UpdateUserInput {
  id: number;
  name: string;
  phone: string | null;
}

export function updateUser({ id, ...body }: UpdateUserInput): Promise<TUser> {
  return api.put<TUser>(`/user/${id}`, body);
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: (user) => {
      if (user && typeof user === 'object' && 'id' in user) queryClient.setQueryData(['user'], user);
      return queryClient.invalidateQueries({ queryKey: ['user'] });
    },
  });
}
