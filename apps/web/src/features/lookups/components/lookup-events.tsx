import { useQueryClient } from '@tanstack/react-query';
import { useServerEvent } from '../../../lib/live-events.tsx';
import { applyLookups, LOOKUPS_KEY } from '../api/get-lookups.ts';

/**
 * Mounted once in the shell: each `LookupStatus` event (at each move, and once a second at most
 * while a lookup runs) puts the lookup's status, percent, count and time left in the table without
 * a refetch. When one finishes or pauses, the figures that lookups change elsewhere are read again:
 * the summary, the sources' and lists' verified and looked-up bars, and the leads' phone results.
 */
export function LookupEvents() {
  const queryClient = useQueryClient();
  useServerEvent('LookupStatus', (lookup) => {
    applyLookups(queryClient, [lookup]);
    if (lookup.status === 1) return;
    void queryClient.invalidateQueries({ queryKey: [...LOOKUPS_KEY, 'status'] });
    void queryClient.invalidateQueries({ queryKey: ['sources'] });
    void queryClient.invalidateQueries({ queryKey: ['leads'] });
  });
  return null;
}
