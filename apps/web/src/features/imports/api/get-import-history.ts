import type { ZImportHistoryPage } from '@herald/shared/imports/imports.schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, type RequestOptions } from '../../../lib/api-client.ts';

export type ImportHistoryPage = z.infer<typeof ZImportHistoryPage>;
export type ImportHistoryItem = ImportHistoryPage['data'][number];

export function getImportHistory(query: RequestOptions['query'], signal?: AbortSignal) {
  return api.get<ImportHistoryPage>('/imports', query, signal);
}

export const importHistoryQueryOptions = (query: RequestOptions['query']) =>
  queryOptions({
    queryKey: ['imports', 'history', query],
    queryFn: ({ signal }) => getImportHistory(query, signal),
  });

/** `/settings/import-history`: the team's imports, newest first by default. */
export function useImportHistory(query: RequestOptions['query']) {
  return useQuery({ ...importHistoryQueryOptions(query), placeholderData: keepPreviousData });
}
