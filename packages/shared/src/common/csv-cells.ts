/**
 * CSV for spreadsheets (RFC 4180, comma, CRLF), safe to open: a cell that starts with `=`, `+`,
 * `-`, `@`, tab or CR would run as a formula in Excel or LibreOffice, so it gets a leading `'`
 * (OWASP's advice). Validated E.164 phones (`+380…`, several joined by `; `) cannot run as
 * anything and are written as they are, so the file re-imports as is (XLSX keeps them text in a
 * spreadsheet). Exports render their rows in SQL with `csvCellSql` (segment-leads.repository.ts),
 * which applies this same rule; a test holds the two together.
 */
export const CSV_BOM = '\uFEFF';
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n;]/;
/** One or more E.164 numbers as the lead tables join them; the SQL side uses the same pattern. */
export const PHONES_CELL = '^\\+[1-9][0-9]{6,14}(; \\+[1-9][0-9]{6,14})*$';
const PHONES = new RegExp(PHONES_CELL);

export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) && !PHONES.test(value) ? `'${value}` : value;
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
