/**
 * Reads an import file off the main thread (issue 20 point 1): starts read-worker.ts, receives its rows in chunks
 * and builds the table as they arrive (the header row, then data rows with their row number in the file, blank rows
 * skipped: src/lib/csv-table.ts `toTable`'s rules), so the main thread only copies rows, a chunk at a time.
 * Resolves to the table, the encoding (CSV), the sheets (xlsx: names and row counts) and up to three parse warnings;
 * rejects with the worker's error message, or with the AbortError when `signal` aborts (the worker is stopped).
 */
import type { CsvTable } from '@/lib/csv-table';
import type { ParseProblem, ReadMessage, SheetInfo } from './read-worker';
import { t } from '@/i18n/i18n';
import { runWorker } from '@/lib/worker-task';

export type ReadResult = { table: CsvTable; encoding?: string; sheets?: SheetInfo[]; warnings: string[] };

/** True for the files the import reads: CSV and text (any delimiter) and xlsx. */
export function isReadable(file: File): boolean {
  return /\.(csv|tsv|txt|xlsx)$/i.test(file.name);
}

export function readImportFile(file: File, options: { sheet?: string; signal?: AbortSignal; onRows?: (rows: number) => void } = {}): Promise<ReadResult> {
  const { sheet, signal, onRows } = options;
  const worker = new Worker(new URL('./read-worker.ts', import.meta.url), { type: 'module', name: 'import-reader' });
  const table: CsvTable = { headers: [], rows: [] };
  let seen = 0;
  let header = true;
  const result: Omit<ReadResult, 'table' | 'warnings'> = {};
  const reading = runWorker<ReadMessage, ReadResult>(worker, {
    signal,
    stopped: () => t('contacts-import.readerStopped'),
    onMessage(message, settle) {
      switch (message.type) {
        case 'meta':
          Object.assign(result, message.encoding ? { encoding: message.encoding } : {}, message.sheets ? { sheets: message.sheets } : {});
          break;
        case 'rows':
          for (const cells of message.rows) {
            seen++;
            if (header) {
              table.headers = cells.map((cell, index) => (index === 0 ? cell.replace(/^\uFEFF/, '') : cell).trim());
              header = false;
            } else if (cells.some((cell) => cell.trim() !== '')) table.rows.push({ row: seen, cells });
          }
          onRows?.(table.rows.length);
          break;
        case 'done':
          settle.resolve({ ...result, table, warnings: message.problems.map(problemText) });
          break;
        case 'error':
          settle.reject(new Error(t(message.format === 'xlsx' ? 'contacts-import.notWorkbook' : 'contacts-import.fileUnreadable', { detail: message.detail })));
          break;
      }
    },
  });
  worker.postMessage(sheet === undefined ? { file } : { file, sheet });
  return reading;
}

/** A Papa Parse problem in words (the codes of Papa Parse 5's `ParseError`); an unknown code gets a general sentence. */
function problemText({ code, row }: ParseProblem): string {
  return t('contacts-import.parseProblem', { code, row: row ?? 0, hasRow: row === null ? 'no' : 'yes' });
}
