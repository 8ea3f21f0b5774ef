import type { TSource } from '@herald/shared/sources/sources.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getSource(id: number, signal?: AbortSignal) {
  return api.get<TSource>(`/sources/${id}`, undefined, signal);
}

export const sourceQueryOptions = (id: number) =>
  queryOptions({ queryKey: ['sources', 'one', id], queryFn: ({ signal }) => getSource(id, signal) });

export function useSource(id: number) {
  // 0 is what a malformed address gives: nothing to ask the server.
  return useQuery({ ...sourceQueryOptions(id), enabled: id > 0 });
}
