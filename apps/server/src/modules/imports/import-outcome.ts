import { ImportFailure } from './import-failure.ts';

/** A finished parse's counts, as the import's row holds them. */
export interface ParseOutcomeCounts {
  /** Data rows read. */
  parsed: number;
  /** Rows refused, and among their reasons, phones no reading made valid. */
  failed: number;
  invalidPhones: number;
  /** Rows staged to become leads. */
  staged: number;
}

/**
 * How a run that read its whole file ends: a file of which rows were read and every one was refused
 * imported nothing and ends Failed, with why; anything else ends Completed, its failed rows
 * counted beside it. Rows skipped on purpose (only ignored phones) are not failures.
 */
export function outcomeOf(counts: ParseOutcomeCounts): ImportFailure | null {
  if (counts.staged > 0 || counts.failed === 0) return null;
  return counts.invalidPhones > 0
    ? new ImportFailure('import_no_valid_phone', 'Nothing could be imported: no row had a valid phone.')
    : new ImportFailure('import_nothing_imported', 'Nothing could be imported: every row failed.');
}
