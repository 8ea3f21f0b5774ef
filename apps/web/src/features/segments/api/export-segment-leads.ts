import type { TExport } from '@herald/shared/segments/segments.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withStartedExport } from '../active-exports.ts';
import { activeExportsQueryKey } from './get-active-exports.ts';

export type ExportBody = { name: string; attributes: number[]; search?: string; order?: string };
export type ExportFormat = 'csv' | 'xlsx';

/** Starts an export of a segment's leads: `POST /segments/{id}/leads/csv` (or `/xlsx`). */
export function exportSegmentLeads({
  id,
  format = 'csv',
  ...body
}: ExportBody & { id: number; format?: ExportFormat }) {
  return api.post<TExport>(`/segments/${id}/leads/${format}`, body);
}

export function useExportSegmentLeads() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: exportSegmentLeads,
    onSuccess: (started) =>
      queryClient.setQueryData<{ data: TExport[] }>(activeExportsQueryKey, (old) => withStartedExport(old, started)),
  });
}
