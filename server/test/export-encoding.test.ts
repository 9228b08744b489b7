/**
 * The CSV export's own quoter (server/export/contacts-export.ts, issue 16) writes exactly what csv-stringify writes
 * with the export's options (BOM, header, CRLF, the formula guard of docs/decisions.md section 7 revised as its cast
 * hook) and `quote_record_delimiter: true`, so a field holding a bare CR or LF is quoted as RFC 4180 asks (the
 * export's csv-stringify call before issue 16 left such a field bare, which a spreadsheet splits into two rows):
 * a fast-check property over rows of hostile stored values, and a table of the cases that matter most. And the
 * xlsx export's own sheet rows (`xlsxRowXml`) are byte for byte the sheet XML exceljs writes for the same rows.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONTACT_EXPORT_COLUMNS } from '../../src/api/contacts';
import { readZipEntryText } from '../../bench/xlsx-rows';
import { csvField, csvRecord, exportRow, guardCsvCell, writeContactsExport, xlsxRowXml } from '../export/contacts-export';

/** What csv-stringify made of `rows` (stored values) with the options the export used to give it. */
function byCsvStringify(rows: unknown[][], head = false): string {
  return stringify(
    rows.map((row) => exportRow(row).map((value) => value ?? '')),
    {
      bom: head,
      header: head,
      columns: [...CONTACT_EXPORT_COLUMNS],
      record_delimiter: 'windows',
      quote_record_delimiter: true,
      cast: { string: (value, { column, header }) => (header ? value : guardCsvCell(value, CONTACT_EXPORT_COLUMNS[Number(column)] ?? '')) },
    },
  );
}

/** The bytes `writeContactsExport(format, ...)` writes for `batches`. */
async function exportedBytes(format: 'csv' | 'xlsx', batches: unknown[][][]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  async function* read<T>(map: (rows: unknown[][]) => T) {
    for (const batch of batches) yield map(batch);
  }
  await writeContactsExport(format, read, out, new AbortController().signal);
  return Buffer.concat(chunks);
}
const exported = async (batches: unknown[][][]) => (await exportedBytes('csv', batches)).toString('utf8');

/** The sheet XML of an xlsx workbook (bytes). */
async function sheetXml(bytes: Buffer): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'wsa-xlsx-'));
  try {
    writeFileSync(join(dir, 'book.xlsx'), bytes);
    return await readZipEntryText(join(dir, 'book.xlsx'), 'xl/worksheets/sheet1.xml');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The workbook exceljs's streaming writer makes of `rows` (stored values) added one by one: the reference. */
async function byExcelJs(rows: unknown[][]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Contacts');
  sheet.addRow([...CONTACT_EXPORT_COLUMNS]).commit();
  for (const values of rows) sheet.addRow(exportRow(values)).commit();
  sheet.commit();
  await workbook.commit();
  return Buffer.concat(chunks);
}

const text = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', ' ', ',', '"', '\r', '\n', '\t', '=', '+', '-', '@', "'", '1', '(', 'é', '😀') }),
  fc.string(),
  fc.constantFrom('+47 912 34 567', '+1 (718) 555-0199', '+', '=1+2', '', 'a,b', '"x"'),
);
const stored = fc.oneof(text, fc.constant(null), fc.integer(), fc.double({ noNaN: true }));
const tags = fc.oneof(fc.array(text, { maxLength: 4 }).map((list) => JSON.stringify(list)), stored, fc.constant('not json ['), fc.constant('{"a":1}'));
const row = fc.tuple(stored, stored, stored, stored, stored, tags, stored, stored, stored, stored, stored, stored, stored);

describe('the CSV export quoter', () => {
  it('writes every record exactly as csv-stringify did, for any stored values', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 5 }), (rows) => {
        expect(rows.map((values) => csvRecord(values)).join('')).toBe(byCsvStringify(rows));
      }),
      { numRuns: 400 },
    );
  });

  it('writes a whole export (BOM, header, batches) exactly as csv-stringify did', async () => {
    const rows = fc.sample(row, { numRuns: 250, seed: 16 });
    const batches = [rows.slice(0, 100), rows.slice(100, 101), rows.slice(101)];
    expect(await exported(batches)).toBe(byCsvStringify(rows, true));
    expect(await exported([])).toBe(byCsvStringify([], true));
  });

  it.each([
    ['plain', 'plain'],
    ['', ''],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['one\r\ntwo', '"one\r\ntwo"'],
    ['cr\r', '"cr\r"'],
    ['lf\n', '"lf\n"'],
    ['a\rb', '"a\rb"'],
  ])('quotes %j as %j', (field, expected) => {
    expect(csvField(field)).toBe(expected);
  });

  it('guards formulas but leaves an international phone number in the phone column as it is', () => {
    const values = ['c1', '=SUM(A1)', '@x', '+47 912 34 567', 'active', '["-vip","a,b"]', '\tx', '+1', null, '', 'r', '2026-01-01', '2026-01-02'];
    expect(csvRecord(values)).toBe(`c1,'=SUM(A1),'@x,+47 912 34 567,active,"'-vip, a,b",'\tx,'+1,,,r,2026-01-01,2026-01-02\r\n`);
  });
});

describe('the xlsx export sheet rows', () => {
  it('are byte for byte the sheet XML exceljs writes for the same rows, whatever they hold', async () => {
    const xmlText = fc.string({ unit: fc.constantFrom('a', '<', '>', '&', "'", '"', '\u0000', '\u0008', '\t', '\n', '\r', '\u000b', '\u001f', '\u007f', 'é', '😀', ' ') });
    const cell = fc.oneof(xmlText, fc.string(), fc.constant(null), fc.constant(''), fc.integer());
    const rows = fc.sample(fc.array(cell, { minLength: 13, maxLength: 13 }), { numRuns: 300, seed: 1616 });
    rows.push(Array(13).fill(null), [null, 'only B', ...Array(11).fill(null)]); // no cell at all; one cell, not in A
    const ours = await exportedBytes('xlsx', [rows.slice(0, 150), rows.slice(150)]);
    expect(await sheetXml(ours)).toBe(await sheetXml(await byExcelJs(rows)));
  });

  it('writes a row of text cells with spans, escaped, and nothing for a row without values', () => {
    expect(xlsxRowXml(['a<b', null, 'x&"y\u0001'], 7)).toBe(
      '<row r="7" spans="1:3" x14ac:dyDescent="0.25"><c r="A7" t="str"><v>a&lt;b</v></c><c r="C7" t="str"><v>x&amp;&quot;y</v></c></row>',
    );
    expect(xlsxRowXml([null, null], 3)).toBe('');
  });
});
