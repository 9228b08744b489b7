/**
 * The import's file reader, a module Web Worker (issue 20 point 1): the file never meets the main thread's parser.
 * - CSV: the encoding is decided first (valid UTF-8, with or without BOM, is UTF-8; anything else is read as
 *   Windows-1252, the encoding spreadsheet programs on Windows write), then Papa Parse streams the file in 1 MiB
 *   chunks, its delimiter guessed from the first chunk (`,` `;` tab `|` ...), quoted fields per RFC 4180.
 *   Papa Parse's own worker mode starts its worker from a `blob:` URL, which the console's Content-Security-Policy
 *   (`script-src 'self'`, server/plugins/security-headers.ts) forbids; Papa runs here instead, in a same-origin
 *   worker built by Vite, to the same effect.
 * - xlsx: read-excel-file's Web Worker build (16 KB of gzip, loaded only when an xlsx file is read) reads every
 *   sheet; the chosen sheet's rows (the first by default) are sent, cells as text (dates as ISO dates).
 * Messages out: `{ type: 'meta', encoding?, sheets? }`, then `{ type: 'rows', rows }` per chunk (at most
 * ROWS_PER_MESSAGE rows, so no message takes long to receive), then `{ type: 'done', problems }` or
 * `{ type: 'error', format, detail }`. No text here is for people: problems are Papa Parse's codes with a 1-based row,
 * and read-file.ts words them and the error in the language shown (issue 23; the worker has no catalogs).
 */
import Papa from 'papaparse';

export type ReadRequest = { file: File; sheet?: string };
export type SheetInfo = { name: string; rows: number };
export type ReadMessage =
  | { type: 'meta'; encoding?: string; sheets?: SheetInfo[] }
  | { type: 'rows'; rows: string[][] }
  | { type: 'done'; problems: ParseProblem[] }
  | { type: 'error'; format: 'csv' | 'xlsx'; detail: string };
/** A Papa Parse error (`MissingQuotes`, `InvalidQuotes`, `UndetectableDelimiter`, ...) and its 1-based row, if any. */
export type ParseProblem = { code: string; row: number | null };

const ROWS_PER_MESSAGE = 2000;
const scope = self as unknown as { postMessage(message: ReadMessage): void; onmessage: ((event: MessageEvent<ReadRequest>) => void) | null };
const post = (message: ReadMessage) => scope.postMessage(message);

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

/** Sends rows in messages of at most ROWS_PER_MESSAGE rows. */
function sendRows(rows: string[][]) {
  for (let start = 0; start < rows.length; start += ROWS_PER_MESSAGE) post({ type: 'rows', rows: rows.slice(start, start + ROWS_PER_MESSAGE) });
}

async function readCsv(file: File) {
  const encoding = await detectEncoding(file);
  post({ type: 'meta', encoding });
  const problems: ParseProblem[] = [];
  await new Promise<void>((resolve, reject) => {
    Papa.parse<string[]>(file, {
      encoding,
      chunkSize: 1024 * 1024,
      skipEmptyLines: false,
      chunk(results) {
        for (const error of results.errors) if (problems.length < 3) problems.push({ code: error.code, row: error.row === undefined ? null : error.row + 1 });
        sendRows(results.data);
      },
      complete: () => resolve(),
      error: (error) => reject(error),
    });
  });
  post({ type: 'done', problems });
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

async function readXlsx(file: File, sheet?: string) {
  const { default: readXlsxFile } = await import('read-excel-file/web-worker');
  const sheets = await readXlsxFile(file);
  post({ type: 'meta', sheets: sheets.map(({ sheet: name, data }) => ({ name, rows: data.length })) });
  const chosen = sheets.find(({ sheet: name }) => name === sheet) ?? sheets[0];
  sendRows((chosen?.data ?? []).map((row) => row.map(cellText)));
  post({ type: 'done', problems: [] });
}

scope.onmessage = (event) => {
  const { file, sheet } = event.data;
  const format = /\.xlsx$/i.test(file.name) ? 'xlsx' : 'csv';
  const read = format === 'xlsx' ? readXlsx(file, sheet) : readCsv(file);
  read.catch((error: unknown) => post({ type: 'error', format, detail: error instanceof Error ? error.message : String(error) }));
};
