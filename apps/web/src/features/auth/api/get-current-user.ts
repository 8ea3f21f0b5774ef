import type { TUser } from '@herald/shared/auth/auth.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getCurrentUser(signal?: AbortSignal): Promise<TUser> {
  return api.get<TUser>('/user', undefined, signal);
}

export const currentUserQueryOptions = () =>
  queryOptions({
    queryKey: ['user'],
    queryFn: ({ signal }) => getCurrentUser(signal),
    staleTime: 60_000,
  });

/** The signed-in user: name, role and what the role may do (`permissions`). */
export function useCurrentUser() {
  return useQuery(currentUserQueryOptions());
}
