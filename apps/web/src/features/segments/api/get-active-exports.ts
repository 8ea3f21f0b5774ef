import type { TExport } from '@herald/shared/segments/segments.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const activeExportsQueryKey = ['exports', 'active'] as const;

/** The user's recent exports (spec: active exports): `GET /exports/active`. */
export function getActiveExports(signal?: AbortSignal) {
  return api.get<{ data: TExport[] }>('/exports/active', undefined, signal);
}

export const activeExportsQueryOptions = () =>
  queryOptions({ queryKey: activeExportsQueryKey, queryFn: ({ signal }) => getActiveExports(signal) });

/** How often the list is read again while an export is pending. */
const PENDING_POLL_MS = 3000;

/**
 * `ExportStatus` events keep it current (see `ExportsList`); while an export is pending it is also
 * read every few seconds, so an event lost to a dropped connection does not leave it pending on screen.
 */
export function useActiveExports() {
  return useQuery({
    ...activeExportsQueryOptions(),
    refetchInterval: (query) =>
      query.state.data?.data.some((e) => e.type === 'export-pending') ? PENDING_POLL_MS : false,
  });
}
