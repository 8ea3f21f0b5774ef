import type { TExport } from '@herald/shared/segments/segments.schemas';
import { api } from '../../../lib/api-client.ts';

/** Starts the campaign audience's file: `POST campaigns/{id}/leads/csv` (or `/xlsx`), the table's search with it. */
export function exportCampaignAudience({
  id,
  format,
  ...body
}: {
  id: number;
  format: 'csv' | 'xlsx';
  name: string;
  search?: string;
}) {
  return api.post<TExport>(`/campaigns/${id}/leads/${format}`, body);
}
