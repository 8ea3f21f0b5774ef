import type { TAccessTicket } from '@herald/shared/auth/tickets.schemas';
import type { TExport } from '@herald/shared/segments/segments.schemas';
import { api } from '../../../lib/api-client.ts';
import { followDownload } from '../../../lib/save-file.ts';

/**
 * Downloads a finished export: a single-use ticket for this one file (`POST /exports/{id}/tickets`),
 * then the browser saves `download?ticket=` itself, streaming to disk however large the file. The
 * session token never goes in the URL.
 */
export async function downloadExport(item: Pick<TExport, 'id' | 'url'>): Promise<void> {
  if (!item.url) return;
  const { ticket } = await api.post<TAccessTicket>(`/exports/${item.id}/tickets`);
  followDownload(`${item.url}?${new URLSearchParams({ ticket })}`);
}
