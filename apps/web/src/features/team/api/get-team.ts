import type { TTeamMember } from '@herald/shared/team/team.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getTeam(signal?: AbortSignal): Promise<{ data: TTeamMember[] }> {
  return api.get<{ data: TTeamMember[] }>('/team', undefined, signal);
}

export const teamQueryOptions = () =>
  queryOptions({ queryKey: ['team', 'members'], queryFn: ({ signal }) => getTeam(signal) });

export function useTeam() {
  return useQuery(teamQueryOptions());
}
