/**
 * CSV for spreadsheets (RFC 4180, comma, CRLF), safe to open: a cell that starts with `=`, `+`,
 * `-`, `@`, tab or CR would run as a formula in Excel or LibreOffice, so it gets a leading `'`
 * (OWASP's advice). Phones (`+380…`) are caught by the same rule, which is also what keeps them
 * text rather than numbers in scientific notation. Exports render their rows in SQL with
 * `herald_csv_cell` (migration 0005), which applies this same rule; a test holds the two together.
 */
export const CSV_BOM = '\uFEFF';
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n;]/;

export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) || /^ | $/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/**
 * A cell as it was before `csvCell` guarded it: the `'` that keeps a leading = + - @ tab or CR
 * from running as a formula is dropped. Imports read every cell through it, so a file exported
 * here (or by any tool that follows the same advice), opened and saved in a spreadsheet, imports
 * as it was: `'+380501234567` is the phone +380501234567 again, not an invalid one.
 */
export function unguardCell(cell: string): string {
  return cell.length > 1 && cell[0] === "'" && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}

/** Several values of one attribute share a cell, joined as the lead tables show them. */
export function joinValues(values: readonly string[]): string {
  return values.join('; ');
}
