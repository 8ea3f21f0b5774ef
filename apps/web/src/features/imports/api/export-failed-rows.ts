import { apiText } from '../../../lib/api-client.ts';

/** Every failed row of an import, as the server's NDJSON (`ZFailedRowsHead`, then `ZFailedRowLine`s). */
export function exportFailedRows(importId: number): Promise<string> {
  return apiText(`/import-files/${importId}/leads-failed/export`);
}
