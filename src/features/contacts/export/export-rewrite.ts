/**
 * The browser's part of an export that is not the service's file as it is (issue 23 point 10; export-plan.ts):
 * the files of several requests read, joined, cut to the selected rows and the chosen columns, and written again
 * as one file in the same format. Loaded only when such an export runs (papaparse, read-excel-file and
 * write-excel-file stay out of the first screens).
 *
 * - `readTable(blob, format)`: a CSV (papaparse; the BOM dropped) or xlsx (read-excel-file, the first sheet) file as
 *   rows of cells, the header row first.
 * - `combineTables(tables, { keepIds, columns })`: one table: the first file's header, every file's data rows in
 *   order, only rows whose `id` cell is in `keepIds` (when given), only the `columns` named (when given, in that
 *   order). Also the ids seen. @throws Error when a file has no header or lacks a column asked for.
 * - `writeTable(rows, format)`: CSV as the service writes it (UTF-8 with a BOM, CRLF, RFC 4180 quoting; the cells
 *   are the service's, already guarded against formulas, so nothing is added) or xlsx (one sheet `Contacts`, every
 *   cell a text, date or number value, never a formula), as a Blob.
 */
import Papa from 'papaparse';
import type { DownloadFormat } from '@/api/download';
import { CSV_MEDIA_TYPE, XLSX_MEDIA_TYPE } from '@/api/contacts';
import { t } from '@/i18n/i18n';

/** A cell as read: text from CSV; text, number, boolean or date from xlsx; null when empty. */
export type Cell = string | number | boolean | Date | null;

/** The file's rows of cells, its header row first. */
export async function readTable(blob: Blob, format: DownloadFormat): Promise<Cell[][]> {
  if (format === 'csv') {
    const text = (await blob.text()).replace(/^\uFEFF/, '');
    const parsed = Papa.parse<string[]>(text, { skipEmptyLines: true });
    return parsed.data;
  }
  const { default: readXlsxFile } = await import('read-excel-file/universal');
  const sheets = await readXlsxFile(blob);
  return (sheets[0]?.data ?? []).map((row) => row.map((cell) => (cell === undefined ? null : (cell as Cell))));
}

/** The tables joined, filtered to `keepIds` and projected on `columns` (see the module comment). */
export function combineTables(tables: readonly Cell[][][], options: { keepIds: ReadonlySet<string> | null; columns: readonly string[] | null }): { rows: Cell[][]; ids: Set<string> } {
  const ids = new Set<string>();
  const [first] = tables;
  const header = first?.[0]?.map((cell) => String(cell ?? ''));
  if (!header) throw new Error(t('contacts-export.noHeader'));
  const wanted = options.columns ?? header;
  const rows: Cell[][] = [[...wanted]];
  for (const table of tables) {
    const [own = [], ...data] = table;
    const names = own.map((cell) => String(cell ?? ''));
    const picks = wanted.map((column) => {
      const index = names.indexOf(column);
      if (index < 0) throw new Error(t('contacts-export.noColumn', { column }));
      return index;
    });
    const idIndex = names.indexOf('id');
    for (const row of data) {
      const id = idIndex >= 0 ? String(row[idIndex] ?? '') : '';
      if (id) ids.add(id);
      if (options.keepIds && !options.keepIds.has(id)) continue;
      rows.push(picks.map((index) => row[index] ?? null));
    }
  }
  return { rows, ids };
}

/** The rows as a file of `format` (see the module comment). */
export async function writeTable(rows: readonly Cell[][], format: DownloadFormat): Promise<Blob> {
  if (format === 'csv') {
    const text = Papa.unparse(
      rows.map((row) => row.map((cell) => (cell instanceof Date ? cell.toISOString() : cell === null ? '' : String(cell)))),
      { newline: '\r\n', quotes: false, escapeFormulae: false },
    );
    return new Blob(['\uFEFF', text, '\r\n'], { type: `${CSV_MEDIA_TYPE}; charset=utf-8` });
  }
  const { default: writeXlsxFile } = await import('write-excel-file/universal');
  const data = rows.map((row) =>
    row.map((cell) => {
      if (cell === null || cell === '') return null;
      if (cell instanceof Date) return { value: cell, type: Date, format: 'yyyy-mm-dd hh:mm:ss' };
      if (typeof cell === 'number') return { value: cell, type: Number };
      if (typeof cell === 'boolean') return { value: cell, type: Boolean };
      return { value: cell, type: String };
    }),
  );
  const blob = await writeXlsxFile(data, { sheet: 'Contacts' }).toBlob();
  return new Blob([blob], { type: XLSX_MEDIA_TYPE });
}
