/**
 * Streams contacts as a spreadsheet (docs/decisions.md section 7): CSV (UTF-8 with a BOM, CRLF, RFC 4180 quoting) or
 * xlsx (one sheet `Contacts`, exceljs's streaming writer). Rows arrive in batches and are written with
 * backpressure, so memory stays bounded whatever the row count.
 *
 * CSV records are built by the small quoter below (`csvRecord`), one string per batch of rows, not by
 * csv-stringify: the library was the measured limit of the export (issue 16: it quoted 1,000,000 contacts in
 * about 3.3 s of CPU, a record at a time through a Transform stream and a cast hook, against 1.8 s here, on an
 * export whose floor is about 7 s). The quoting is RFC 4180's, as csv-stringify does it with
 * `quote_record_delimiter: true`: a field holding `"`, `,`, CR or LF is quoted, inner quotes doubled; an empty
 * field is written empty; a property test compares the two (server/test/export-encoding.test.ts). Decision
 * (issue 16): a field holding a bare CR or LF is quoted too; the csv-stringify call before left it bare (its
 * default once a record delimiter is set), which a spreadsheet reads as the end of a row.
 *
 * xlsx rows are written as the sheet XML exceljs would make of them (`xlsxRowXml`), exceljs writing the rest of
 * the workbook: its row and cell objects were the measured limit of the xlsx export (issue 16).
 *
 * Formula injection (docs/decisions.md section 7, revised; issue 12 point 6): in CSV a cell starting with `=`, `+`,
 * `-`, `@`, a tab or a carriage return is prefixed with `'` (`guardCsvCell`), except a phone number in
 * international form in the phone column; in xlsx every cell is written as a text value, never a formula, so
 * nothing is prefixed. papaparse's `escapeFormulae` does the same job but only for whole in-memory unparses
 * (the dashboard's import report uses it), not for a stream, and has no phone exception.
 */
import { finished } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { CONTACT_EXPORT_COLUMNS, CSV_MEDIA_TYPE, XLSX_MEDIA_TYPE } from '../../src/api/contacts';
import { type ContactRow, storedTags } from '../db/contacts';
import { EXPORT_COLUMN_WIDTHS, EXPORT_DATE_COLUMNS, EXPORT_DATE_FORMAT, type ExportLanguage, exportHeaderWords } from './export-headers';

export type ExportFormat = 'csv' | 'xlsx';

/** The export format `accept` asks for, by q-value then order; null for JSON (or anything else). */
export function negotiateExport(accept: string | undefined): ExportFormat | null {
  if (!accept) return null;
  const ranked = accept
    .split(',')
    .map((part, index) => {
      const [type = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { type: type.trim(), q: q ? Number(q.slice(2)) || 0 : 1, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { type } of ranked) {
    if (type === CSV_MEDIA_TYPE) return 'csv';
    if (type === XLSX_MEDIA_TYPE) return 'xlsx';
    if (type === 'application/json' || type === '*/*' || type === 'application/*') return null;
  }
  return null;
}

/** Cell starts a spreadsheet may read as a formula (docs/decisions.md section 7, revised). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A phone number in international form: `+`, then only digits, spaces and `( ) . / -`, with a digit. */
const INTERNATIONAL_PHONE = /^\+(?=[^\d]*\d)[\d ()./-]+$/;

/**
 * A CSV cell of `column` (an export column name) as written: with `'` in front when it starts with `=`, `+`,
 * `-`, `@`, a tab or a carriage return, unless it is the phone column holding a number in international form
 * (`+47 912 34 567`, `+1 (718) 555-0199`), which is left as it is (docs/decisions.md section 7, revised).
 */
export function guardCsvCell(value: string, column: string): string {
  if (!FORMULA_START.test(value)) return value;
  if (column === 'phone' && INTERNATIONAL_PHONE.test(value)) return value;
  return `'${value}`;
}

/** The stored column behind each export column, in CONTACT_EXPORT_COLUMNS order: what an export selects. */
export const EXPORT_SOURCE_COLUMNS = [
  'id', 'name', 'email', 'phone', 'state', 'tags', 'source', 'address', 'city', 'postal_code', 'region', 'created', 'updated',
] as const satisfies readonly (keyof ContactRow)[];
const TAGS = EXPORT_SOURCE_COLUMNS.indexOf('tags');

/** The text of stored value `value` of export column `index`: tags joined, absent values empty. Never throws. */
function cellText(value: unknown, index: number): string {
  if (index === TAGS) return (storedTags(value) ?? []).join(', ');
  return value === null || value === undefined ? '' : String(value);
}

/**
 * One export row from the stored values of EXPORT_SOURCE_COLUMNS (the tags as their JSON text), in
 * CONTACT_EXPORT_COLUMNS order: tags joined by `, `, absent or empty values null, everything else as text. Never
 * throws, whatever a row holds (issue 12: stored values are not trusted to be what the API writes).
 * Unguarded: what xlsx writes (it needs no guard); CSV uses `csvRecord`.
 */
export function exportRow(values: readonly unknown[]): (string | null)[] {
  return values.map((value, index) => cellText(value, index) || null);
}

/** A field that must be quoted (RFC 4180: a delimiter, a quote or a line break, CR or LF alone included). */
const NEEDS_QUOTES = /[",\r\n]/;

/** `text` as one CSV field: in double quotes, inner quotes doubled, when it holds `"`, `,`, CR or LF. */
export function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * One CSV record, CRLF-terminated, of the stored values of EXPORT_SOURCE_COLUMNS: each cell as `exportRow` makes
 * it (empty for null), guarded (`guardCsvCell`) and quoted (`csvField`). Never throws.
 */
export function csvRecord(values: readonly unknown[]): string {
  let record = '';
  for (let index = 0; index < values.length; index++) {
    const text = cellText(values[index], index);
    if (index > 0) record += ',';
    if (text !== '') record += csvField(guardCsvCell(text, CONTACT_EXPORT_COLUMNS[index] ?? ''));
  }
  return `${record}\r\n`;
}

/** What a CSV export starts with: the UTF-8 BOM and the header record. */
const CSV_HEAD = `\uFEFF${CONTACT_EXPORT_COLUMNS.map(csvField).join(',')}\r\n`;

/** `contacts-YYYY-MM-DD.<format>` for today (UTC). */
export function exportFilename(format: ExportFormat, now = new Date()): string {
  return `contacts-${now.toISOString().slice(0, 10)}.${format}`;
}

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: `${CSV_MEDIA_TYPE}; charset=utf-8`,
  xlsx: XLSX_MEDIA_TYPE,
};

/** Resolves on `stream`'s next 'drain', or when it closes or `signal` aborts (so an abandoned export never hangs). */
function drainOrStop(stream: Writable, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('close', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Opens the export's read (stored values of EXPORT_SOURCE_COLUMNS, a chunk of rows at a time, in order) with `map`
 * applied to each chunk as it is read: `ServiceDatabase.streamRows` with its `map`. The CSV writer maps each chunk to
 * its records' text, so a read spooled to a temporary file holds that text, not the rows: a CSV export of 10,000,000
 * contacts took 120.7 s with its rows spooled, 89.6 s now, against a floor of 82.7 s (docs/benchmarks.md, "Ten
 * million contacts on SQLite, a second run"). The xlsx writers read rows (see there why).
 */
export type ExportRead = <T>(map: (rows: unknown[][]) => T) => AsyncIterable<T>;

/** The CSV records of `rows`, one string. */
function csvRecords(rows: unknown[][]): string {
  let text = '';
  for (const row of rows) text += csvRecord(row);
  return text;
}

const sameRows = (rows: unknown[][]) => rows;

/**
 * Writes every row `read` gives to `out` as `format`, then ends `out`. Stops early when `signal` aborts.
 * Rejects with the first read or write error (the caller destroys `out`). `language` (xlsx only; issue 34 point 10):
 * the spreadsheet for people, see `writePeoplesXlsx`; null or absent, the contract's.
 */
export async function writeContactsExport(format: ExportFormat, read: ExportRead, out: Writable, signal: AbortSignal, language: ExportLanguage | null = null): Promise<void> {
  if (format === 'xlsx' && language) return writePeoplesXlsx(language, read(sameRows), out, signal);
  if (format === 'csv') {
    // One write a chunk (about 230 KB for 1,000 rows): few, large chunks through the response's streams.
    let head = CSV_HEAD;
    for await (const records of read(csvRecords)) {
      if (signal.aborted) break;
      const more = out.write(head + records);
      head = '';
      if (!more) await drainOrStop(out, signal);
    }
    // A client that went away gets nothing more; waiting for 'finish' on its stream would never end.
    if (signal.aborted) return;
    out.end(head);
    await finished(out);
    return;
  }
  // Loaded on the first xlsx export only: exceljs is large and most processes never need it.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Contacts');
  sheet.addRow([...CONTACT_EXPORT_COLUMNS]).commit(); // exceljs writes the sheet's start and the header row
  const sheetXml = sheetStream(sheet);
  let number = 1;
  // The rows themselves are read (and spooled): their sheet XML, two to three times the CSV's size, spooled instead
  // took a 10,000,000-contact export's peak RSS from 233 to 297 MB in the same 200 s.
  for await (const batch of read(sameRows)) {
    if (signal.aborted) break;
    if (sheetXml) {
      let xml = '';
      for (const row of batch) xml += xlsxRowXml(exportRow(row), ++number);
      sheetXml.write(xml);
    } else for (const row of batch) sheet.addRow(exportRow(row)).commit();
    await sheetDrained(sheet, signal);
    if (out.writableNeedDrain) await drainOrStop(out, signal);
  }
  if (signal.aborted) return;
  sheet.commit();
  await workbook.commit();
}

/** Export column letters, A to M. */
const COLUMN_LETTERS = CONTACT_EXPORT_COLUMNS.map((_, index) => String.fromCharCode(65 + index));
/** What exceljs's `xmlEncode` replaces: the five XML specials, and the control characters XML 1.0 forbids (dropped). */
// eslint-disable-next-line no-control-regex -- the control characters XML 1.0 cannot hold
const XML_SPECIAL = /[<>&'"\x7F\x00-\x08\x0B\x0C\x0E-\x1F]/;
const XML_SPECIALS = new RegExp(XML_SPECIAL.source, 'g');
const XML_ENTITIES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' };
const xmlText = (text: string) => (XML_SPECIAL.test(text) ? text.replace(XML_SPECIALS, (c) => XML_ENTITIES[c] ?? '') : text);

/**
 * Row `number` (1-based) of the sheet as the XML exceljs 4.4's streaming worksheet writer makes of
 * `sheet.addRow(cells).commit()` with neither shared strings nor styles, byte for byte: each non-null cell a
 * `t="str"` text cell (never a formula), `spans` over every column (exceljs counts the null cells too); '' for
 * a row without one (exceljs writes none). Issue 16: building this text directly instead of exceljs's row and cell objects and its
 * per-row XML stream is what brings the xlsx export within reach of its goal (the exceljs row path cost about
 * 13 µs a row, twice the whole CSV floor); server/test/export-encoding.test.ts compares the two.
 */
export function xlsxRowXml(cells: readonly (string | null)[], number: number): string {
  let xml = '';
  for (let index = 0; index < cells.length; index++) {
    const text = cells[index];
    if (text !== null && text !== undefined) xml += `<c r="${COLUMN_LETTERS[index]}${number}" t="str"><v>${xmlText(text)}</v></c>`;
  }
  return xml ? `<row r="${number}" spans="1:${cells.length}" x14ac:dyDescent="0.25">${xml}</row>` : '';
}

/**
 * The text stream behind an exceljs streaming worksheet (its sheet XML, written into the zip entry), once exceljs
 * has written the sheet's start; null when exceljs's internals are not as expected (the export then adds rows
 * through exceljs, slower but the same file).
 */
function sheetStream(sheet: unknown): { write(text: string): unknown } | null {
  const writer = sheet as { stream?: { write?: unknown }; startedData?: unknown; useSharedStrings?: unknown };
  if (writer.startedData !== true || writer.useSharedStrings !== false || typeof writer.stream?.write !== 'function') return null;
  return writer.stream as { write(text: string): unknown };
}

/**
 * Sheet XML the zip entry may hold ahead of the deflater before the writer waits (bytes). Issue 16: waiting for
 * an empty entry after every batch left the process idle while the last batch was deflated (on libuv's thread
 * pool): about a quarter of an xlsx export's time. With a few batches in hand the deflater works while the next
 * rows are read and turned into XML.
 */
const SHEET_PENDING_BYTES = 4 * 1024 * 1024;

/**
 * Waits, when the zip entry stream behind an exceljs worksheet holds more than SHEET_PENDING_BYTES of sheet XML,
 * until it has taken in what was written to it (or `signal` aborts). exceljs's sheet buffer writes into that
 * stream ignoring backpressure, so without this wait a large export piles up in memory ahead of the deflater.
 * Resolves at once when exceljs's internals are not as expected.
 */
async function sheetDrained(sheet: unknown, signal: AbortSignal) {
  const pipes = (sheet as { stream?: { pipes?: unknown[] } }).stream?.pipes;
  const entry = Array.isArray(pipes) ? (pipes[0] as Partial<Writable> & { _writableState?: { needDrain?: boolean } }) : undefined;
  if (!entry || typeof entry.once !== 'function' || signal.aborted) return;
  const pending = entry.writableLength ?? (entry._writableState as { length?: number } | undefined)?.length ?? 0;
  if (pending > SHEET_PENDING_BYTES && (entry.writableNeedDrain ?? entry._writableState?.needDrain)) await drainOrStop(entry as Writable, signal);
}

const DATE_INDEXES = new Set(EXPORT_DATE_COLUMNS.map((column) => CONTACT_EXPORT_COLUMNS.indexOf(column)));

/** An export row for people: as `exportRow`, with the instants of the date columns as Dates (unreadable ones as text). */
function peoplesRow(values: readonly unknown[]): (string | Date | null)[] {
  return exportRow(values).map((text, index) => {
    if (text === null || !DATE_INDEXES.has(index)) return text;
    const date = new Date(text);
    return Number.isNaN(date.getTime()) ? text : date;
  });
}

/**
 * The xlsx for people (issue 34 point 10; docs/exports.md): the header row in `language`, frozen; each column its
 * width; `created` and `updated` real date cells (`EXPORT_DATE_FORMAT`, UTC), every other cell text as in the
 * contract's. Rows go through exceljs's own row objects (styles are needed for the dates), slower than the
 * contract's path (`xlsxRowXml`): the console's downloads are this one, a few thousand rows at a time.
 */
async function writePeoplesXlsx(language: ExportLanguage, rows: AsyncIterable<unknown[][]>, out: Writable, signal: AbortSignal): Promise<void> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(language === 'nb' ? 'Kontakter' : 'Contacts', { views: [{ state: 'frozen', ySplit: 1, xSplit: 0 }] });
  sheet.columns = CONTACT_EXPORT_COLUMNS.map((column) => ({
    key: column,
    width: EXPORT_COLUMN_WIDTHS[column],
    ...(EXPORT_DATE_COLUMNS.includes(column) ? { style: { numFmt: EXPORT_DATE_FORMAT } } : {}),
  }));
  const header = sheet.addRow(exportHeaderWords(language));
  header.font = { bold: true };
  header.commit();
  for await (const batch of rows) {
    if (signal.aborted) break;
    for (const row of batch) sheet.addRow(peoplesRow(row)).commit();
    await sheetDrained(sheet, signal);
    if (out.writableNeedDrain) await drainOrStop(out, signal);
  }
  if (signal.aborted) return;
  sheet.commit();
  await workbook.commit();
}
