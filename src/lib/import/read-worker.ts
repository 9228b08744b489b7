/**
 * An import's first look at a file, a module Web Worker (issue 20 point 1; the contacts' and the products' imports,
 * issue 38 point 4): the file never meets the main thread's parser, and the page gets only the rows it asks for
 * (`preview`: the contacts import five, its plan reading the file again in its own worker, issue 20 point 6; the
 * products import every row). Reading: file-rows.ts.
 * Request: `{ file, sheet?, preview }`. Messages out: `{ type: 'meta', encoding?, sheets? }`, `{ type: 'progress',
 * rows }` (data rows so far) per chunk, then `{ type: 'done', headers, preview, rows, problems }` (the first
 * `preview` data rows, the count of data rows, and per column up to 100 cells that look like phone numbers, for the
 * phones' default country: issue 34 point 2) or `{ type: 'error', format, detail }`. No text here is for people:
 * problems are Papa Parse's codes with a 1-based row, and read-file.ts words them and the error in the language shown
 * with the caller's texts (issue 23; this worker has no catalogs). The phone-like cells are a cheap sample the
 * contacts import guesses its phones' country from; other imports ignore them.
 */
import { type DataRow, type FileMeta, type ParseProblem, fileFormat, readFileRows } from './file-rows';

export type ReadRequest = { file: File; sheet?: string; preview: number };
export type ReadMessage =
  | ({ type: 'meta' } & FileMeta)
  | { type: 'progress'; rows: number }
  | { type: 'done'; headers: string[]; preview: DataRow[]; rows: number; problems: ParseProblem[]; phoneLike: string[][] }
  | { type: 'error'; format: 'csv' | 'xlsx'; detail: string };

const scope = self as unknown as { postMessage(message: ReadMessage): void; onmessage: ((event: MessageEvent<ReadRequest>) => void) | null };
const post = (message: ReadMessage) => scope.postMessage(message);

scope.onmessage = (event) => {
  const { file, sheet, preview } = event.data;
  let headers: string[] = [];
  const first: DataRow[] = [];
  let rows = 0;
  // Cells of 6 to 24 characters of digits, spaces, `+ ( ) . / -` with 6 digits at least: what may be a phone number.
  const phoneLike: string[][] = [];
  const PHONE_LIKE = /^[\d\s+()./-]{6,24}$/;
  readFileRows(file, sheet, 1024 * 1024, {
    meta: (meta) => post({ type: 'meta', ...meta }),
    headers: (cells) => (headers = cells),
    rows(chunk) {
      for (const row of chunk) {
        if (first.length < preview) first.push(row);
        row.cells.forEach((cell, column) => {
          const kept = (phoneLike[column] ??= []);
          if (kept.length < 100 && PHONE_LIKE.test(cell.trim()) && (cell.match(/\d/g)?.length ?? 0) >= 6) kept.push(cell.trim());
        });
      }
      rows += chunk.length;
      post({ type: 'progress', rows });
    },
  }).then(
    (problems) => post({ type: 'done', headers, preview: first, rows, problems, phoneLike }),
    (error: unknown) => post({ type: 'error', format: fileFormat(file), detail: error instanceof Error ? error.message : String(error) }),
  );
};
