/**
 * Reads an import file off the main thread (issue 20 point 1; one pipeline for the contacts and the products imports,
 * issue 38 point 4): starts read-worker.ts and gets back what a mapping step shows: the headers, the first `preview`
 * data rows (with their row numbers in the file), the count of data rows, the encoding (CSV: UTF-8 or
 * Windows-1252, file-rows.ts), the sheets (xlsx: names and row counts) and up to three parse warnings. Rows past
 * `preview` are not kept: the contacts import reads the file again in its plan worker (issue 20 point 6), while the
 * products import, whose files are a catalogue, asks for every row (`preview: Infinity`). `onRows` follows the count
 * as the file streams. The texts are the caller's (`ReadTexts`, from its own catalog area): this module words
 * nothing itself. Rejects with the worker's error in the caller's words, or with the AbortError when `signal` aborts
 * (the worker is stopped).
 */
import type { DataRow, ParseProblem, SheetInfo } from './file-rows';
import type { ReadMessage, ReadRequest } from './read-worker';
import { runWorker } from '@/lib/worker-task';

/** `phoneLike`: per column, up to 100 of its cells that look like phone numbers (read-worker.ts), for the contacts' phones' default country. */
export type ReadResult = { headers: string[]; preview: DataRow[]; rows: number; encoding?: string; sheets?: SheetInfo[]; warnings: string[]; phoneLike: string[][] };

/**
 * The sentences a reading may need, in the language shown, from the caller's catalog: `stopped` when the worker died
 * without a message, `failure` for a file the parser refused (a CSV the browser could not read, a workbook
 * read-excel-file refuses), `problem` for a Papa Parse problem (its code and 1-based row: `ParseProblem`).
 */
export type ReadTexts = { stopped(): string; failure(format: 'csv' | 'xlsx', detail: string): string; problem(problem: ParseProblem): string };

/** The file picker's `accept`: CSV and text (any delimiter) and xlsx. */
export const READABLE_FILES = '.csv,.tsv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** True for the files the import reads: CSV and text (any delimiter) and xlsx. */
export function isReadable(file: File): boolean {
  return /\.(csv|tsv|txt|xlsx)$/i.test(file.name);
}

export function readImportFile(file: File, options: { sheet?: string; preview: number; signal?: AbortSignal; onRows?: (rows: number) => void; texts: ReadTexts }): Promise<ReadResult> {
  const { sheet, preview, signal, onRows, texts } = options;
  const worker = new Worker(new URL('./read-worker.ts', import.meta.url), { type: 'module', name: 'import-reader' });
  const meta: Pick<ReadResult, 'encoding' | 'sheets'> = {};
  const reading = runWorker<ReadMessage, ReadResult>(worker, {
    signal,
    stopped: texts.stopped,
    onMessage(message, settle) {
      switch (message.type) {
        case 'meta':
          Object.assign(meta, message.encoding ? { encoding: message.encoding } : {}, message.sheets ? { sheets: message.sheets } : {});
          break;
        case 'progress':
          onRows?.(message.rows);
          break;
        case 'done':
          settle.resolve({ ...meta, headers: message.headers, preview: message.preview, rows: message.rows, warnings: message.problems.map(texts.problem), phoneLike: message.phoneLike });
          break;
        case 'error':
          settle.reject(new Error(texts.failure(message.format, message.detail)));
          break;
      }
    },
  });
  worker.postMessage({ file, preview, ...(sheet === undefined ? {} : { sheet }) } satisfies ReadRequest);
  return reading;
}
