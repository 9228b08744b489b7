import fc from 'fast-check';
import Papa from 'papaparse';
import { beforeAll, describe, expect, it } from 'vitest';
import { productUpsertSchema } from '@/api/catalog';
import { normalizeName, toTable } from '@/lib/csv-table';
import {
  IMPORT_FIELDS, NOT_SENT, type ReportRow, REPORT_COLUMNS, autoMap, buildReport, convertRow, countOutcomes, describeStyle, detectNumberStyles, fieldLabel, kindHint, planImport, reportCsv,
} from './product-csv';
import { activateLocale } from '@/i18n/i18n';
import { loadErrorSentences } from '@/lib/error-sentence';

// The contract's refusals of a row are sentences from the `sentences` catalog (convertRow).
beforeAll(() => loadErrorSentences());

const HEADERS = ['External ID', 'Title', 'Price', 'Is For Sale', 'Tags', 'Custom Properties', 'Image_URL', 'Notes'];
const mapping = autoMap(HEADERS);
const row = (values: Partial<Record<(typeof HEADERS)[number], string>>) => HEADERS.map((header) => values[header] ?? '');

describe('toTable', () => {
  it('drops a BOM from the first header and skips blank rows while keeping file row numbers', () => {
    const { data } = Papa.parse<string[]>('\uFEFFexternalId,title\r\na,A\r\n,\r\n\r\nb,B\r\n');
    const table = toTable(data);
    expect(table.headers).toEqual(['externalId', 'title']);
    expect(table.rows).toEqual([
      { row: 2, cells: ['a', 'A'] },
      { row: 5, cells: ['b', 'B'] },
    ]);
  });
});

describe('IMPORT_FIELDS', () => {
  it('offers every field of the upsert request but id, so a new contract field is not silently left out', () => {
    expect(IMPORT_FIELDS.map((field) => field.key).sort()).toEqual(Object.keys(productUpsertSchema.shape).filter((key) => key !== 'id').sort());
  });
});

describe('autoMap', () => {
  it.each([
    ['External ID', 'externalid'],
    ['image_url', 'imageurl'],
    ['  Is-For Sale ', 'isforsale'],
    ['bodyHtml', 'bodyhtml'],
  ])('normalizes %j to %j', (name, normalized) => {
    expect(normalizeName(name)).toBe(normalized);
  });

  it('maps headers to fields ignoring case, spaces, underscores and dashes, and leaves unknown columns out', () => {
    expect(mapping).toEqual({ externalId: 0, title: 1, price: 2, isForSale: 3, tags: 4, customProperties: 5, imageUrl: 6 });
  });

  it('takes the first of two columns with the same name', () => {
    expect(autoMap(['title', 'Title']).title).toBe(0);
  });
});

describe('convertRow', () => {
  it('turns cells into the body: trimmed text, numbers, yes/no, lists split on ; or |, a JSON object', () => {
    const converted = convertRow(
      row({ 'External ID': ' sku-1 ', Title: ' Linen shirt ', Price: '12.50', 'Is For Sale': 'Yes', Tags: 'summer; linen|summer', 'Custom Properties': '{"fit":"loose","size":2}', Image_URL: 'https://example.com/a.png' }),
      mapping,
    );
    expect(converted).toEqual({
      ok: true,
      externalId: 'sku-1',
      body: { externalId: 'sku-1', title: 'Linen shirt', price: 12.5, isForSale: true, tags: ['summer', 'linen'], customProperties: { fit: 'loose', size: 2 }, imageUrl: 'https://example.com/a.png' },
    });
  });

  it('leaves empty cells out of the body, so an update keeps the stored value', () => {
    expect(convertRow(row({ 'External ID': 'sku-2', Title: '  ' }), mapping)).toEqual({ ok: true, externalId: 'sku-2', body: { externalId: 'sku-2' } });
  });

  it.each([
    [{ Price: 'abc' }, 'Price: “abc” is not a number (this column uses a decimal point).'],
    [{ Price: '1,50' }, 'Price: “1,50” is not a number (this column uses a decimal point).'],
    [{ Price: '-1' }, "The price can't be less than 0."],
    [{ 'Is For Sale': 'maybe' }, 'For sale: “maybe” is not one of yes/no, true/false or 1/0.'],
    [{ 'Custom Properties': '[1]' }, 'Custom properties: the cell must be a JSON object.'],
    [{ 'Custom Properties': '{oops' }, 'Custom properties: the cell is not valid JSON.'],
    [{ Image_URL: 'ftp://example.com/a' }, 'The image URL must be a full web address starting with http:// or https://.'],
  ])('refuses %j before any request: %s', (cells, reason) => {
    expect(convertRow(row({ 'External ID': 'sku-3', Title: 'T', ...cells }), mapping)).toEqual({ ok: false, externalId: 'sku-3', reason });
  });

  it('requires an externalId and lists every problem of the row', () => {
    expect(convertRow(row({ Price: 'x', 'Is For Sale': '2' }), mapping)).toEqual({
      ok: false,
      externalId: null,
      reason: 'The row has no External ID. Price: “x” is not a number (this column uses a decimal point). For sale: “2” is not one of yes/no, true/false or 1/0.',
    });
  });

  it('never throws, whatever the cells', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: HEADERS.length }), (cells) => {
        const converted = convertRow(cells, mapping);
        expect(converted.ok || converted.reason.length > 0).toBe(true);
      }),
    );
  });
});

describe('number columns', () => {
  const priced = (prices: string[][]) => ({
    headers: ['externalId', 'price', 'originalPrice'],
    rows: prices.map((cells, index) => ({ row: index + 2, cells: [`p${index}`, ...cells] })),
  });

  it('detects each column\'s decimal separator from its values and imports both 1,299.00 and 1.299,00', () => {
    const table = priced([
      ['1,299.00', '1.299,00'],
      ['12.5', '12,5'],
    ]);
    const columns = autoMap(table.headers);
    const styles = detectNumberStyles(table, columns, 'en-US');
    expect(styles).toEqual({ price: { decimal: '.', group: ',', from: 'values' }, originalPrice: { decimal: ',', group: '.', from: 'values' } });
    expect(planImport(table, columns, styles).map((planned) => planned.body)).toEqual([
      { externalId: 'p0', price: 1299, originalPrice: 1299 },
      { externalId: 'p1', price: 12.5, originalPrice: 12.5 },
    ]);
    expect(describeStyle(styles.price!)).toBe('decimal point (1,299.00)');
    expect(describeStyle(styles.originalPrice!)).toBe('decimal comma (1.299,00)');
  });

  it("follows the browser's language when no value decides, and says so", () => {
    const table = priced([['1,299', '7']]);
    const styles = detectNumberStyles(table, autoMap(table.headers), 'de-DE');
    expect(planImport(table, autoMap(table.headers), styles)[0]!.body).toMatchObject({ price: 1.299, originalPrice: 7 });
    expect(describeStyle(styles.price!)).toMatch(/^decimal comma \(1\.299,00\), as in your browser’s language/);
  });

  it('refuses a cell that does not fit its column, naming the separator', () => {
    const table = priced([['12,5', '1'], ['3,75', '2'], ['12.5', '3']]);
    expect(planImport(table, autoMap(table.headers))[2]!.reason).toBe('Price: “12.5” is not a number (this column uses a decimal comma).');
  });
});

describe('planImport', () => {
  it('fails a row that repeats an earlier externalId, naming the earlier row', () => {
    const table = { headers: HEADERS, rows: [2, 3, 4].map((n) => ({ row: n, cells: row({ 'External ID': n === 3 ? 'b' : 'a', Title: 'T' }) })) };
    expect(planImport(table, mapping).map(({ row: n, reason }) => [n, reason])).toEqual([
      [2, undefined],
      [3, undefined],
      [4, 'The External ID “a” is already on row 2.'],
    ]);
  });
});

/** What a guarded cell looks like: `'` before a leading `=`, `+`, `-`, `@`, tab or carriage return. */
const guardCell = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

describe('reportCsv', () => {
  it.each([['=1+1'], ['+1'], ['-1'], ['@SUM(A1)'], ['\tx'], ['\rx']])('guards %j against formula injection', (value) => {
    const text = reportCsv([{ row: 2, externalId: value, outcome: 'failed', productId: '', reason: 'r' }]);
    const { data } = Papa.parse<string[]>(text, { delimiter: ',', newline: '\r\n' });
    expect(data[1]?.[1]).toBe(`'${value}`);
  });

  it('writes a header, one CRLF line per row, and quotes cells with commas and quotes', () => {
    const rows: ReportRow[] = [{ row: 2, externalId: 'a', outcome: 'failed', productId: '', reason: 'price: \'x\' is not a number; "y", z' }];
    expect(reportCsv(rows)).toBe(`row,externalId,outcome,productId,reason\r\n2,a,failed,,"price: 'x' is not a number; ""y"", z"\r\n`);
  });

  it('round-trips through papaparse, every cell guarded, and counts outcomes', () => {
    const reportRow = fc.record({
      row: fc.nat(),
      externalId: fc.string(),
      outcome: fc.constantFrom('created' as const, 'updated' as const, 'failed' as const),
      productId: fc.uuid(),
      reason: fc.string(),
    });
    fc.assert(
      fc.property(fc.array(reportRow, { maxLength: 20 }), (rows) => {
        const { data, errors } = Papa.parse<string[]>(reportCsv(rows), { delimiter: ',', newline: '\r\n' });
        expect(errors).toEqual([]);
        expect(data.slice(0, -1)).toEqual([[...REPORT_COLUMNS], ...rows.map((r) => REPORT_COLUMNS.map((c) => guardCell(String(r[c]))))]);
        for (const cells of data.slice(1)) for (const cell of cells) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
        const counts = countOutcomes(rows);
        expect(counts.created + counts.updated + counts.failed).toBe(rows.length);
      }),
    );
  });
});

describe('buildReport', () => {
  it('reports created and updated from the answer, and the reason of local, server and unsent failures', () => {
    const plan = [
      { row: 2, externalId: 'a', body: { externalId: 'a', title: 'A' } },
      { row: 3, externalId: 'b', body: { externalId: 'b' } },
      { row: 4, externalId: null, reason: 'externalId is required' },
      { row: 5, externalId: 'c', body: { externalId: 'c' } },
      { row: 6, externalId: 'd', body: { externalId: 'd' } },
    ];
    const sent = [{ id: 'p1', created: true }, { id: 'p2', created: false }, undefined, { reason: 'title is required to create a product' }, undefined];
    expect(buildReport(plan, sent)).toEqual([
      { row: 2, externalId: 'a', outcome: 'created', productId: 'p1', reason: '' },
      { row: 3, externalId: 'b', outcome: 'updated', productId: 'p2', reason: '' },
      { row: 4, externalId: '', outcome: 'failed', productId: '', reason: 'externalId is required' },
      { row: 5, externalId: 'c', outcome: 'failed', productId: '', reason: 'title is required to create a product' },
      { row: 6, externalId: 'd', outcome: 'failed', productId: '', reason: NOT_SENT },
    ]);
  });
});

describe('in bokmål (issue 23)', () => {
  const table = toTable([
    ['externalId', 'price', 'isForSale'],
    ['a', '12,5', 'ja'],
    ['b', '3,75', 'yes'],
    ['b', 'x', ''],
    ['', '1', ''],
  ]);
  it('gives the reasons a row is refused, the hints and the number formats in the language shown', async () => {
    await activateLocale('nb');
    try {
      const plan = planImport(table, autoMap(table.headers));
      expect(plan.map((planned) => planned.reason)).toEqual([
        'Til salgs: «ja» er ikke ett av yes/no, true/false eller 1/0.',
        undefined,
        'Pris: «x» er ikke et tall (denne kolonnen bruker desimalkomma).',
        'Raden har ingen ekstern ID.',
      ]);
      expect(describeStyle({ decimal: ',', group: '.', from: 'locale' })).toBe('desimalkomma (1.299,00), som i nettleserens språk: ingen verdi avgjør det');
      expect(fieldLabel('isForSale')).toBe('Til salgs');
      expect(kindHint('list')).toBe('verdier skilt med ; eller |');
      const repeated = toTable([['externalId'], ['k'], ['k']]);
      expect(planImport(repeated, autoMap(repeated.headers))[1]!.reason).toBe('Den eksterne ID-en «k» står allerede på rad 2.');
    } finally {
      await activateLocale('en');
    }
  });
});
