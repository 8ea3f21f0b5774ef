import type { TList } from '@herald/shared/sources/sources.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function getList(id: number, signal?: AbortSignal) {
  return api.get<TList>(`/sources/lists/${id}`, undefined, signal);
}

export const listQueryOptions = (id: number) =>
  queryOptions({ queryKey: ['sources', 'list', id], queryFn: ({ signal }) => getList(id, signal) });

export function useList(id: number) {
  // 0 is what a malformed address gives: nothing to ask the server.
  return useQuery({ ...listQueryOptions(id), enabled: id > 0 });
}
