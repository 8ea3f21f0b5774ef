import type { TInvitation } from '@herald/shared/team/team.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getInvitations(signal?: AbortSignal): Promise<{ data: TInvitation[] }> {
  return api.get<{ data: TInvitation[] }>('/invitations', undefined, signal);
}

export const invitationsQueryOptions = () =>
  queryOptions({ queryKey: ['team', 'invitations'], queryFn: ({ signal }) => getInvitations(signal) });

/** Invitations are not paginated (spec section 9). */
export function useInvitations() {
  return useQuery(invitationsQueryOptions());
}
