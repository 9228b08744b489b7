/**
 * A spreadsheet read into rows of text cells, shared by the products import (issue 6) and the contacts import
 * (issue 20): the header row and the data rows with their row number in the file, the header names reduced for
 * matching, and the formula guard for CSV cells written back out (refused-row files). Framework-free.
 */

/** A parsed file: the header cells, and data rows with their 1-based row number in the file (the header is row 1). */
export type CsvTable = { headers: string[]; rows: { row: number; cells: string[] }[] };

/** The header row's cells as headers: a BOM before the first dropped, each trimmed. */
export function headerCells(cells: readonly string[]): string[] {
  return cells.map((cell, index) => (index === 0 ? cell.replace(/^\uFEFF/, '') : cell).trim());
}

/** True for a row whose cells are all empty or blank: skipped, its number kept. */
export function isBlankRow(cells: readonly string[]): boolean {
  return cells.every((cell) => cell.trim() === '');
}

/** The header and data rows of rows of cells (papaparse's `data`, a sheet's rows): `headerCells`, blank rows skipped (their numbers kept). */
export function toTable(data: readonly (readonly string[])[]): CsvTable {
  const [first = [], ...rest] = data;
  const rows = rest.map((cells, index) => ({ row: index + 2, cells: [...cells] })).filter(({ cells }) => !isBlankRow(cells));
  return { headers: headerCells(first), rows };
}

/** A header or field name reduced for matching: lower case, without spaces, underscores, dashes or dots (`Image URL` -> `imageurl`). */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[\s_.-]+/g, '');
}

/** Cell starts a spreadsheet may read as a formula (docs/decisions.md section 7, revised; OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A phone number in international form: `+`, then only digits, spaces and `( ) . / -`, with a digit. */
const INTERNATIONAL_PHONE = /^\+(?=[^\d]*\d)[\d ()./-]+$/;

/**
 * A CSV cell as written: `'` in front when it starts with `=`, `+`, `-`, `@`, a tab or a carriage return,
 * unless `phone` is true (the cell is in a phone column) and it holds a number in international form
 * (`+47 912 34 567`), which is left as it is: the rule of the service's CSV export (docs/decisions.md section 7,
 * revised; server/export/contacts-export.ts `guardCsvCell`).
 */
export function guardCsvCell(value: string, phone = false): string {
  if (!FORMULA_START.test(value)) return value;
  if (phone && INTERNATIONAL_PHONE.test(value)) return value;
  return `'${value}`;
}

/** One RFC 4180 field: quoted when it holds a comma, a quote, CR or LF (quotes doubled). */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * CSV text (RFC 4180, CRLF after every record, no BOM) of a header and rows, every cell guarded by
 * `guardCsvCell` (`phoneColumns`: the 0-based columns holding phone numbers).
 */
export function csvText(headers: readonly string[], rows: readonly (readonly string[])[], phoneColumns: ReadonlySet<number> = new Set()): string {
  const line = (cells: readonly string[]) => `${cells.map((cell, index) => csvField(guardCsvCell(cell, phoneColumns.has(index)))).join(',')}\r\n`;
  return line(headers) + rows.map(line).join('');
}
