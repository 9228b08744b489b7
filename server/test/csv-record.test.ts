/**
 * The CSV export's own quoter (server/export/contacts-export.ts, issue 16) writes exactly what csv-stringify writes
 * with the export's options (BOM, header, CRLF, the formula guard of decisions.md section 7 revised as its cast
 * hook) and `quote_record_delimiter: true`, so a field holding a bare CR or LF is quoted as RFC 4180 asks (the
 * export's csv-stringify call before issue 16 left such a field bare, which a spreadsheet splits into two rows):
 * a fast-check property over rows of hostile stored values, and a table of the cases that matter most.
 */
import { PassThrough } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONTACT_EXPORT_COLUMNS } from '../../src/api/contacts';
import { csvField, csvRecord, exportRow, guardCsvCell, writeContactsExport } from '../export/contacts-export';

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

/** The bytes `writeContactsExport('csv', ...)` writes for `batches`. */
async function exported(batches: unknown[][][]): Promise<string> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  async function* rows() {
    yield* batches;
  }
  await writeContactsExport('csv', rows(), out, new AbortController().signal);
  return Buffer.concat(chunks).toString('utf8');
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
