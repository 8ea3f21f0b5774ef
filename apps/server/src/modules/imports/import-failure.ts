import { isImportFailure, type TImportFailure } from '@herald/shared/imports/imports.schemas';
import type { ImportFileRow } from './imports.repository.ts';

/** An error that says why an import failed in a code the web translates (`import_files.error_code`). */
export class ImportFailure extends Error {
  readonly code: TImportFailure;
  constructor(code: TImportFailure, message: string) {
    super(message);
    this.code = code;
  }
}

/** An import whose list (or source, or team) was deleted under it. */
export const listDeleted = () => new ImportFailure('import_list_deleted', 'The list of this import was deleted.');

/** The failure code an error carries (also across the parser thread, as `code`), or `fallback`. */
export function failureCodeOf(error: unknown, fallback: TImportFailure): TImportFailure {
  const code = (error as { code?: unknown } | null)?.code;
  return isImportFailure(code) ? code : fallback;
}

/**
 * Whether a failed import can go on from what it published: it kept its staging, and what stopped
 * it may have passed (not a list or an attribute it writes to, which stay deleted).
 */
export function isResumable(row: Pick<ImportFileRow, 'status' | 'staging_table' | 'error_code'>): boolean {
  return (
    row.status === 'failed' &&
    row.staging_table !== null &&
    row.error_code !== 'import_list_deleted' &&
    row.error_code !== 'import_attribute_deleted' &&
    row.error_code !== 'import_no_valid_phone' &&
    row.error_code !== 'import_nothing_imported'
  );
}
