import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getInvite(token: string, signal?: AbortSignal): Promise<{ email: string }> {
  return api.get<{ email: string }>(`/auth/invite/${encodeURIComponent(token)}`, undefined, signal);
}

export const inviteQueryOptions = (token: string) =>
  queryOptions({ queryKey: ['invite', token], queryFn: ({ signal }) => getInvite(token, signal), retry: false });

export function useInvite(token: string) {
  return useQuery(inviteQueryOptions(token));
}
