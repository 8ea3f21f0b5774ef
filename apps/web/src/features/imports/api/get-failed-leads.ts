import type { ZFailedLeadsPage } from '@herald/shared/imports/imports.schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, type RequestOptions } from '../../../lib/api-client.ts';

export type FailedLeadsPage = z.infer<typeof ZFailedLeadsPage>;
export type FailedLead = FailedLeadsPage['data'][number];

export function getFailedLeads(fileId: number, query: RequestOptions['query'], signal?: AbortSignal) {
  return api.get<FailedLeadsPage>(`/import-files/${fileId}/leads-failed`, query, signal);
}

export const failedLeadsQueryOptions = (fileId: number, query: RequestOptions['query']) =>
  queryOptions({
    queryKey: ['imports', 'file', fileId, 'failed', query],
    queryFn: ({ signal }) => getFailedLeads(fileId, query, signal),
  });

/** The rows of one file that were not imported, with their reason. */
export function useFailedLeads(fileId: number, query: RequestOptions['query']) {
  return useQuery({
    ...failedLeadsQueryOptions(fileId, query),
    placeholderData: keepPreviousData,
    enabled: fileId > 0,
  });
}
