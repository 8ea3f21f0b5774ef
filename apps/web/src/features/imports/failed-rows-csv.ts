import { CSV_BOM, csvLine } from '@herald/shared/common/csv-cells';
import type { TFailedRowLine, TFailedRowsHead } from '@herald/shared/imports/imports.schemas';

export interface FailedRowsLabels {
  row: string;
  reason: string;
  /** A row's reason (a message code and its params) in the user's language. */
  translate: (reason: TFailedRowLine['reason_message']) => string;
}

/**
 * The failed rows of an import (the export's NDJSON) as a CSV to fix in a spreadsheet and import
 * again: the mapped attributes under their own names, so that the new upload maps them back by
 * itself, then the row of the original file and the reason, in the user's language. Cells are
 * guarded as every CSV of the app is; the import reads them back unguarded.
 */
export function failedRowsCsv(ndjson: string, labels: FailedRowsLabels): string {
  const lines = ndjson.split('\n').filter((line) => line !== '');
  const head = JSON.parse(lines[0] ?? '{"attributes":[]}') as TFailedRowsHead;
  const out = [CSV_BOM, csvLine([...head.attributes.map((a) => a.name), labels.row, labels.reason])];
  for (let i = 1; i < lines.length; i++) {
    const row = JSON.parse(lines[i]) as TFailedRowLine;
    out.push(
      csvLine([...row.values, String(row.row_number), labels.translate(row.reason_message ?? { code: row.reason })]),
    );
  }
  return out.join('');
}

/** `leads.xlsx` → `leads-failed.csv`. */
export function failedRowsFileName(importName: string): string {
  const base = importName.replace(/\.[^.]+$/, '') || 'import';
  return `${base}-failed.csv`;
}
