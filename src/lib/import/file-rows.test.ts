/**
 * The imports' shared reader (file-rows.ts, issue 38 point 4) on real files: a CSV saved as Windows-1252 (what Excel
 * on Windows writes) read with its letters, a UTF-8 one with a BOM, and an xlsx workbook built with exceljs, as the
 * browser tests build them (e2e/contact-import.spec.ts), its chosen sheet read with dates as ISO dates.
 *
 * Node has `File` but no `FileReader`, which Papa Parse reads a `File` with in the browser: the test gives it the
 * browser's behaviour for what Papa Parse calls (`readAsText(blob, encoding)`, then `onload` with the text), decoded
 * by Node's own `TextDecoder`. Nothing of ours is replaced.
 */
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type DataRow, type FileMeta, readFileRows } from './file-rows';

beforeAll(() => {
  if (typeof globalThis.FileReader !== 'undefined') return;
  class NodeFileReader {
    result: string | null = null;
    error: unknown = null;
    onload: ((event: { target: NodeFileReader }) => void) | null = null;
    onerror: ((event: unknown) => void) | null = null;
    readAsText(blob: Blob, encoding = 'utf-8') {
      blob.arrayBuffer().then(
        (buffer) => {
          this.result = new TextDecoder(encoding).decode(buffer);
          this.onload?.({ target: this });
        },
        (error: unknown) => {
          this.error = error;
          this.onerror?.(error);
        },
      );
    }
  }
  (globalThis as { FileReader?: unknown }).FileReader = NodeFileReader;
});

/** Reads `file` through `readFileRows` in chunks of `chunkBytes`; what the handlers were given. */
async function read(file: File, sheet?: string, chunkBytes = 64) {
  let headers: string[] = [];
  let meta: FileMeta = {};
  const rows: DataRow[] = [];
  const problems = await readFileRows(file, sheet, chunkBytes, { meta: (m) => (meta = m), headers: (h) => (headers = h), rows: (chunk) => rows.push(...chunk) });
  return { headers, meta, rows, problems };
}

describe('readFileRows', () => {
  it('reads a CSV saved as Windows-1252 with its letters, its delimiter guessed, in chunks, blank rows skipped with their numbers kept', async () => {
    const text = 'Navn;By;Merknad\nBjørn Ærø;Tromsø;"Sæter, «gammel»"\n;;\nÅse Ødegård;Bodø;Pris 12½\n';
    // Windows-1252: each of these letters one byte (0xF8 for ø, 0xC6 for Æ...), which is not valid UTF-8.
    const bytes = Uint8Array.from([...text].map((char) => char.charCodeAt(0)));
    const { headers, meta, rows, problems } = await read(new File([bytes], 'kunder.csv', { type: 'text/csv' }), undefined, 16);
    expect(meta).toEqual({ encoding: 'windows-1252' });
    expect(headers).toEqual(['Navn', 'By', 'Merknad']);
    expect(rows).toEqual([
      { row: 2, cells: ['Bjørn Ærø', 'Tromsø', 'Sæter, «gammel»'] },
      { row: 4, cells: ['Åse Ødegård', 'Bodø', 'Pris 12½'] },
    ]);
    expect(problems).toEqual([]);
  });

  it('reads valid UTF-8 as UTF-8, a BOM left off the first header', async () => {
    const file = new File(['\uFEFFExternal ID,Title\nsku-1,Ullgenser «Bø»\n'], 'produkter.csv', { type: 'text/csv' });
    const { headers, meta, rows } = await read(file);
    expect(meta).toEqual({ encoding: 'utf-8' });
    expect(headers).toEqual(['External ID', 'Title']);
    expect(rows).toEqual([{ row: 2, cells: ['sku-1', 'Ullgenser «Bø»'] }]);
  });

  it('reads an xlsx workbook: its sheets listed, the chosen one read as text, dates as ISO dates, blank rows skipped', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Notes').addRows([['Nothing here'], ['at all']]);
    const sheet = workbook.addWorksheet('Products');
    sheet.addRow(['External ID', 'Title', 'Price', 'Launched']);
    sheet.addRow(['sku-1', 'Ullgenser', 899.5, new Date(Date.UTC(2026, 10, 2))]);
    sheet.addRow([]);
    sheet.addRow(['sku-2', 'Lue', 249, null]);
    const buffer = await workbook.xlsx.writeBuffer();
    const file = new File([buffer as ArrayBuffer], 'katalog.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });

    const { headers, meta, rows } = await read(file, 'Products');
    expect(meta).toEqual({ sheets: [{ name: 'Notes', rows: 2 }, { name: 'Products', rows: expect.any(Number) }] });
    expect(headers).toEqual(['External ID', 'Title', 'Price', 'Launched']);
    expect(rows).toEqual([
      { row: 2, cells: ['sku-1', 'Ullgenser', '899.5', '2026-11-02'] },
      { row: 4, cells: ['sku-2', 'Lue', '249', ''] },
    ]);
    // Without a sheet named, the first is read.
    expect((await read(file)).headers).toEqual(['Nothing here']);
  });
});
