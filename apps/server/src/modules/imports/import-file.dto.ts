import { CANCELLABLE_RUNS, type TImportFile, type TSyncImport } from '@herald/shared/imports/imports.schemas';
import { recogniseLayout } from './contact-layouts.ts';
import { isResumable } from './import-failure.ts';
import type { ImportFileRow } from './imports.repository.ts';

type Column = { id: number; name: string; col_position: number; lead_attribute_id: number | null; ignored: boolean };

/** The duplicate-resolution half's status, as the spec's sync-import endpoints name it. */
function syncStatusOf(row: ImportFileRow): TSyncImport['status'] {
  switch (row.status) {
    case 'completed':
    case 'failed':
    case 'cancelled':
      return row.status;
    case 'resolving':
    case 'cancel_queued':
    case 'cancelling':
      return 'processing';
    default:
      return row.parsed_at ? 'pending' : 'waiting';
  }
}

export function syncImportOf(row: ImportFileRow): TSyncImport {
  const status = syncStatusOf(row);
  return {
    id: row.id,
    status,
    progress: row.status === 'completed' ? 100 : row.sync_progress,
    duplicates_resolved: row.status === 'completed',
    duplicates_resolved_count: row.duplicates_resolved_count,
    leads_processed: row.leads_processed,
  };
}

/**
 * Whether the repository's `cancel` takes this import: one never run, one queued or running, or one
 * failed with its staging kept (the same rule, so the web offers Cancel only where it works).
 */
export function isCancellable(row: Pick<ImportFileRow, 'status' | 'staging_table'>): boolean {
  return (
    row.status === 'uploaded' ||
    (CANCELLABLE_RUNS as readonly string[]).includes(row.status) ||
    (row.status === 'failed' && row.staging_table !== null)
  );
}

/** The API's view of an import file; without columns and preview for history rows. */
export function historyItemOf(row: ImportFileRow): Omit<TImportFile, 'attributes' | 'preview'> {
  return {
    id: row.id,
    name: row.name,
    client_original_name: row.name,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
    source_id: row.source_id,
    list_id: row.list_id,
    black_list: row.black_list,
    format: row.format,
    encoding: row.encoding,
    delimiter: row.delimiter,
    size_bytes: Number(row.size_bytes),
    status: row.status,
    stage: row.stage,
    progress: row.progress,
    processed: row.status === 'completed' || row.status === 'failed' || row.status === 'cancelled',
    mapped: row.mapped_at !== null,
    check_mobile_status: row.check_mobile_status,
    parsed_leads_count: row.parsed_leads_count,
    leads_processed: row.leads_processed,
    leads_total: row.leads_total,
    duplicates_resolved: row.status === 'completed',
    duplicates_resolved_count: row.duplicates_resolved_count,
    leads_failed: row.leads_failed,
    ignored_phones_count: row.ignored_phones_count,
    invalid_format_phones_count: row.invalid_format_phones_count,
    leads_without_phone: row.leads_without_phone,
    error: row.error,
    error_code: row.error_code,
    resumable: isResumable(row),
    cancellable: isCancellable(row),
    process_id: row.process_id,
    sync_import: syncImportOf(row),
  };
}

export function importFileOf(row: ImportFileRow, columns: Column[]): TImportFile {
  // The contact app layout the headers are in, if any: its bookkeeping columns are not proposed.
  const byPosition = [...columns].sort((a, b) => a.col_position - b.col_position);
  const layout = recogniseLayout(byPosition.map((c) => c.name));
  return {
    ...historyItemOf(row),
    attributes: columns.map((c) => ({
      id: c.id,
      name: c.name,
      col_position: c.col_position,
      lead_attribute_id: c.lead_attribute_id,
      ignored: c.ignored,
      new_proposed: c.lead_attribute_id === null && layout?.roles[c.col_position]?.kind !== 'skip',
    })),
    preview: row.preview,
  };
}
