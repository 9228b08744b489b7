/**
 * Streams contacts as a spreadsheet (decisions.md section 7): CSV (UTF-8 with a BOM, CRLF, RFC 4180 quoting,
 * by csv-stringify) or xlsx (one sheet `Contacts`, exceljs's streaming writer). Rows arrive in batches and are
 * written with backpressure, so memory stays bounded whatever the row count. Cells starting with `=`, `+`, `-`
 * or `@` are prefixed with `'` against formula injection.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';
import { CONTACT_EXPORT_COLUMNS, CSV_MEDIA_TYPE, XLSX_MEDIA_TYPE } from '../../src/api/contacts';
import type { ContactRow } from '../db/contacts';

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

/** `'` before a value that a spreadsheet would read as a formula. */
export function guardCell(value: string): string {
  return /^[=+\-@]/.test(value) ? `'${value}` : value;
}

/** One export row, in CONTACT_EXPORT_COLUMNS order; absent values are null. */
export function exportRow(row: ContactRow): (string | null)[] {
  const tags = (JSON.parse(row.tags) as string[]).join(', ');
  const values = [row.id, row.name, row.email, row.phone, row.state, tags, row.source, row.address, row.city, row.postal_code, row.region, row.created, row.updated];
  return values.map((value) => (value === null || value === '' ? null : guardCell(value)));
}

/** `contacts-YYYY-MM-DD.<format>` for today (UTC). */
export function exportFilename(format: ExportFormat, now = new Date()): string {
  return `contacts-${now.toISOString().slice(0, 10)}.${format}`;
}

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: `${CSV_MEDIA_TYPE}; charset=utf-8`,
  xlsx: XLSX_MEDIA_TYPE,
};

async function drained(out: Writable) {
  if (out.writableNeedDrain) await once(out, 'drain');
}

/**
 * Writes every batch of `rows` to `out` as `format`, then ends `out`. Stops early when `signal` aborts.
 * Rejects with the first read or write error (the caller destroys `out`).
 */
export async function writeContactsExport(format: ExportFormat, rows: AsyncIterable<ContactRow[]>, out: Writable, signal: AbortSignal): Promise<void> {
  if (format === 'csv') {
    const csv = stringify({ bom: true, record_delimiter: 'windows', header: true, columns: [...CONTACT_EXPORT_COLUMNS] });
    csv.pipe(out);
    for await (const batch of rows) {
      if (signal.aborted) break;
      for (const row of batch) csv.write(exportRow(row).map((value) => value ?? ''));
      await drained(csv);
    }
    csv.end();
    await once(out, 'finish');
    return;
  }
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Contacts');
  sheet.addRow([...CONTACT_EXPORT_COLUMNS]).commit();
  for await (const batch of rows) {
    if (signal.aborted) break;
    for (const row of batch) sheet.addRow(exportRow(row)).commit();
    await drained(out);
  }
  sheet.commit();
  await workbook.commit();
}

/** Groups a row stream into batches of `size`, yielding to the event loop between batches. */
export async function* batches<Row>(rows: AsyncIterable<Row>, size = 1000): AsyncGenerator<Row[]> {
  let batch: Row[] = [];
  for await (const row of rows) {
    batch.push(row);
    if (batch.length >= size) {
      yield batch;
      batch = [];
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  if (batch.length) yield batch;
}
