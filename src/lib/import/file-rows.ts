/**
 * An import file's rows, streamed chunk by chunk, for the imports' workers (issue 20 points 1 and 6; shared by the
 * contacts and the products imports, issue 38 point 4, docs/import.md section 1): read-worker.ts reads the file once
 * for its headers, first rows and row count; the contacts' plan worker
 * (src/features/contacts/import/plan-worker.ts) reads it again to clean it as it streams, so no table of a whole
 * contacts file is kept anywhere (a 100,000-row file held 33 MB on the page).
 * - CSV: the encoding is decided first (valid UTF-8, with or without BOM, is UTF-8; anything else is read as
 *   Windows-1252, the encoding spreadsheet programs on Windows write), then Papa Parse streams the file in chunks,
 *   its delimiter guessed from the first chunk (`,` `;` tab `|` ...), quoted fields per RFC 4180.
 *   Papa Parse's own worker mode starts its worker from a `blob:` URL, which the console's Content-Security-Policy
 *   (`script-src 'self'`, server/plugins/security-headers.ts) forbids; Papa runs in our same-origin workers instead,
 *   to the same effect.
 * - xlsx: read-excel-file's Web Worker build (16 KB of gzip, loaded only when an xlsx file is read) reads every
 *   sheet; the chosen sheet's rows (the first by default) are handed on, cells as text (dates as ISO dates).
 * Rows follow src/lib/csv-table.ts `toTable`'s rules: the first row is the header (`headerCells`), data rows carry
 * their 1-based row number in the file, blank rows are skipped (`isBlankRow`, their numbers kept). Browser only
 * (Papa Parse reads a `File` with `FileReader`).
 */
import Papa from 'papaparse';
import { headerCells, isBlankRow } from '@/lib/csv-table';

/** A data row: its 1-based number in the file (the header is row 1) and its cells. */
export type DataRow = { row: number; cells: string[] };
export type SheetInfo = { name: string; rows: number };
/** What is known of a file before its rows: the encoding a CSV was read in, or a workbook's sheets (names and row counts). */
export type FileMeta = { encoding?: string; sheets?: SheetInfo[] };
/** A Papa Parse error (`MissingQuotes`, `InvalidQuotes`, `UndetectableDelimiter`, ...) and its 1-based row, if any. */
export type ParseProblem = { code: string; row: number | null };
/** What a reader is handed as the file streams: `meta` once, `headers` once, then `rows` per chunk (maybe empty). */
export type RowHandlers = { meta?(meta: FileMeta): void; headers(headers: string[]): void; rows(rows: DataRow[]): void };

/** `csv` or `xlsx`, by the file's name. */
export function fileFormat(file: File): 'csv' | 'xlsx' {
  return /\.xlsx$/i.test(file.name) ? 'xlsx' : 'csv';
}

/**
 * Streams `file`'s rows to `handlers` (module docstring), a CSV in chunks of `chunkBytes`; resolves to the first three parse problems (CSV) once the
 * whole file is read. Rejects with the parser's error (an unreadable file, a workbook read-excel-file refuses).
 */
export async function readFileRows(file: File, sheet: string | undefined, chunkBytes: number, handlers: RowHandlers): Promise<ParseProblem[]> {
  let seen = 0;
  let header = true;
  const take = (chunk: readonly string[][]) => {
    const rows: DataRow[] = [];
    for (const cells of chunk) {
      seen++;
      if (header) {
        handlers.headers(headerCells(cells));
        header = false;
      } else if (!isBlankRow(cells)) rows.push({ row: seen, cells });
    }
    handlers.rows(rows);
  };
  if (fileFormat(file) === 'xlsx') {
    const { default: readXlsxFile } = await import('read-excel-file/web-worker');
    const sheets = await readXlsxFile(file);
    handlers.meta?.({ sheets: sheets.map(({ sheet: name, data }) => ({ name, rows: data.length })) });
    const chosen = sheets.find(({ sheet: name }) => name === sheet) ?? sheets[0];
    take((chosen?.data ?? []).map((row) => row.map(cellText)));
    if (header) handlers.headers([]);
    return [];
  }
  const encoding = await detectEncoding(file);
  handlers.meta?.({ encoding });
  const problems: ParseProblem[] = [];
  await new Promise<void>((resolve, reject) => {
    Papa.parse<string[]>(file, {
      encoding,
      chunkSize: chunkBytes,
      skipEmptyLines: false,
      chunk(results) {
        for (const error of results.errors) if (problems.length < 3) problems.push({ code: error.code, row: error.row === undefined ? null : error.row + 1 });
        take(results.data);
      },
      complete: () => resolve(),
      error: (error) => reject(error),
    });
  });
  if (header) handlers.headers([]);
  return problems;
}

/** `utf-8` when the bytes are valid UTF-8, else `windows-1252`. */
async function detectEncoding(file: File): Promise<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const reader = file.stream().getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      decoder.decode(value, { stream: true });
    }
    decoder.decode();
    return 'utf-8';
  } catch {
    return 'windows-1252';
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}

/** A cell of read-excel-file as text: empty for null, a date as `YYYY-MM-DD` (with the time when it has one). */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  return String(value);
}
