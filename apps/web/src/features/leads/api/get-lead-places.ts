import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface LeadPlaces {
  sources: { id: number; name: string }[];
  lists: { id: number; name: string; source_id: number }[];
}

export function getLeadPlaces(id: number, signal?: AbortSignal) {
  return api.get<LeadPlaces>(`/leads/${id}/sources`, undefined, signal);
}

export const leadPlacesQueryOptions = (id: number) =>
  queryOptions({ queryKey: ['leads', 'one', id, 'places'], queryFn: ({ signal }) => getLeadPlaces(id, signal) });

/** The source and list chips of the lead page. */
export function useLeadPlaces(id: number) {
  // 0 is what a malformed address gives: nothing to ask the server.
  return useQuery({ ...leadPlacesQueryOptions(id), enabled: id > 0 });
}
