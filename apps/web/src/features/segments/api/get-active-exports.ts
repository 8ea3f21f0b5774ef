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

/** `ExportStatus` events keep it current (see `ExportsList`). */
export function useActiveExports() {
  return useQuery(activeExportsQueryOptions());
}
