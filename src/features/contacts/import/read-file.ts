/**
 * Reads an import file off the main thread (issue 20 point 1): starts read-worker.ts and gets back what the mapping
 * step shows: the headers, the first `preview` data rows (with their row numbers in the file), the count of data rows,
 * the encoding (CSV), the sheets (xlsx: names and row counts) and up to three parse warnings. The file's other rows
 * are not kept (issue 20 point 6): the plan reads the file again in a worker (plan-client.ts). `onRows` follows the
 * count as the file streams. Rejects with the worker's error in words, or with the AbortError when `signal` aborts
 * (the worker is stopped).
 */
import type { DataRow, ParseProblem, SheetInfo } from './file-rows';
import type { ReadMessage, ReadRequest } from './read-worker';
import { t } from '@/i18n/i18n';
import { runWorker } from '@/lib/worker-task';

/** `phoneLike`: per column, up to 100 of its cells that look like phone numbers (read-worker.ts), for the phones' default country. */
export type ReadResult = { headers: string[]; preview: DataRow[]; rows: number; encoding?: string; sheets?: SheetInfo[]; warnings: string[]; phoneLike: string[][] };

/** True for the files the import reads: CSV and text (any delimiter) and xlsx. */
export function isReadable(file: File): boolean {
  return /\.(csv|tsv|txt|xlsx)$/i.test(file.name);
}

export function readImportFile(file: File, options: { sheet?: string; preview: number; signal?: AbortSignal; onRows?: (rows: number) => void }): Promise<ReadResult> {
  const { sheet, preview, signal, onRows } = options;
  const worker = new Worker(new URL('./read-worker.ts', import.meta.url), { type: 'module', name: 'import-reader' });
  const meta: Pick<ReadResult, 'encoding' | 'sheets'> = {};
  const reading = runWorker<ReadMessage, ReadResult>(worker, {
    signal,
    stopped: () => t('contacts-import.readerStopped'),
    onMessage(message, settle) {
      switch (message.type) {
        case 'meta':
          Object.assign(meta, message.encoding ? { encoding: message.encoding } : {}, message.sheets ? { sheets: message.sheets } : {});
          break;
        case 'progress':
          onRows?.(message.rows);
          break;
        case 'done':
          settle.resolve({ ...meta, headers: message.headers, preview: message.preview, rows: message.rows, warnings: message.problems.map(problemText), phoneLike: message.phoneLike });
          break;
        case 'error':
          settle.reject(readFailure(message));
          break;
      }
    },
  });
  worker.postMessage({ file, preview, ...(sheet === undefined ? {} : { sheet }) } satisfies ReadRequest);
  return reading;
}

/** A worker's failure to read a file, in words in the language shown (read-worker.ts and plan-worker.ts send it). */
export function readFailure({ format, detail }: { format: 'csv' | 'xlsx'; detail: string }): Error {
  return new Error(t(format === 'xlsx' ? 'contacts-import.notWorkbook' : 'contacts-import.fileUnreadable', { detail }));
}

/** A Papa Parse problem in words (the codes of Papa Parse 5's `ParseError`); an unknown code gets a general sentence. */
function problemText({ code, row }: ParseProblem): string {
  return t('contacts-import.parseProblem', { code, row: row ?? 0, hasRow: row === null ? 'no' : 'yes' });
}
