import type { QueryClient } from '@tanstack/react-query';

/** A lead change moves the lead tables and the source and list counts: refresh both at once. */
export function invalidateLeads(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['leads'] }),
    queryClient.invalidateQueries({ queryKey: ['sources'] }),
  ]);
}
