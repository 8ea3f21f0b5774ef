import type { TLookupsAnswer } from '@herald/shared/lookups/lookups.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { applyLookups, LOOKUPS_KEY } from './get-lookups.ts';
import type { LookupTarget } from './get-lookup-preview.ts';

export type LookupMove =
  | { kind: 'start' | 'stop'; ids: number[] }
  | { kind: 'status'; id: number; status: 1 | 2 }
  | { kind: 'create'; target: LookupTarget };

/**
 * Every call that moves lookups answers the same way (a message, the rows as they are now):
 * bulk start or stop, one lookup's start or stop, and new lookups of sources or lists.
 */
export function moveLookups(move: LookupMove) {
  switch (move.kind) {
    case 'start':
      return api.post<TLookupsAnswer>('/lookup-start', { ids: move.ids });
    case 'stop':
      return api.post<TLookupsAnswer>('/lookup-stop', { ids: move.ids });
    case 'status':
      return api.post<TLookupsAnswer>(`/lookup/${move.id}/status`, { status: move.status });
    case 'create':
      return api.post<TLookupsAnswer>(move.target.kind === 'sources' ? '/sources/lookup' : '/sources/lists/lookup', {
        ids: move.target.ids,
      });
  }
}

export function useMoveLookups() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: moveLookups,
    onSuccess: (answer) => applyLookups(queryClient, answer.lookups),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...LOOKUPS_KEY, 'status'] }),
  });
}
