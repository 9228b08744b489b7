/**
 * The spreadsheet export of `GET /contacts` (docs/decisions.md section 7): CSV and xlsx carry exactly the rows the
 * JSON list walks to, in the same order, with the documented columns, headers, quoting and formula guard.
 * Real server over a temp SQLite file, ~600 faker contacts plus a few hostile ones made through the API.
 */
import { request as httpRequest } from 'node:http';
import { faker } from '@faker-js/faker';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_EXPORT_COLUMNS, XLSX_MEDIA_TYPE } from '../../src/api/contacts';
import { SCOPES } from '../../src/api/scopes';
import { createApiKey } from '../db/credentials';
import { fakeContacts, insertContacts } from '../db/seed';
import { createWorkspace } from '../db/workspaces';
import { type TestServer, call, query, startServer } from './harness';

const CSV_TYPE = 'text/csv; charset=utf-8';
const SEEDED = 600;

let server: TestServer;

/** Contacts created through the API whose values a spreadsheet would mistake for formulas or split wrongly. */
const HOSTILE_CONTACTS = [
  {
    name: '=HYPERLINK("http://evil.example/?a=1,b=2","click me")',
    email: 'formula.one@example.com',
    phone: '+47 400 00 001',
    address: 'Storgata 1, "Bakgården"\r\n2. etasje',
    city: 'Tromsø',
    region: '@SUM(A1:A9)',
    postalCode: '-9008',
    source: 'naïve café ☕, 日本語 "quoted"',
    tags: ['vip', '=cmd|/c calc', 'comma, inside', 'ÆØÅ'],
    addDirectly: true,
  },
  {
    name: '+Anna "Plus", Sr.',
    email: 'plus.anna@example.com',
    address: 'line one\nline two\rline three',
    city: '-Oslo',
    source: '@import',
    tags: ['@mention'],
  },
  {
    name: '-Dana Minus',
    phone: '+1 (718) 555-0199',
    region: 'Île-de-France',
    tags: ['vip', 'Ünïcödé 🎉'],
  },
  { name: '@Handle Andersen', city: 'Zürich', postalCode: '8001', tags: ['+plus-tag'] },
];

beforeAll(async () => {
  server = await startServer();
  faker.seed(20260701);
  await insertContacts(server.database.db, fakeContacts(server.a.id, SEEDED, { now: new Date('2026-06-30T12:00:00.000Z') }));
  // Workspace B has contacts too; none of them may leak into A's export.
  await insertContacts(server.database.db, fakeContacts(server.b.id, 25, { now: new Date('2026-06-30T12:00:00.000Z'), idPrefix: 10_000 }));
  for (const body of HOSTILE_CONTACTS) {
    const response = await call(server, 'POST', '/contacts', { key: server.a.key, body });
    expect(response.status, response.text).toBe(201);
  }
});
afterAll(() => server?.close());

type Item = Record<string, unknown> & { tags: string[] };
type Cell = string | null;

/** A JSON list item as an export row: the columns of section 7, tags joined, nulls kept, nothing guarded (xlsx). */
function exportRowOf(item: Item): Cell[] {
  return CONTACT_EXPORT_COLUMNS.map((column) => {
    const value = column === 'tags' ? item.tags.join(', ') : (item[column] as string | null);
    return value === null || value === '' ? null : value;
  });
}

/**
 * The CSV formula guard as docs/decisions.md section 7 (revised) states it: `'` before a cell starting with `=`, `+`,
 * `-`, `@`, a tab or a carriage return, except a phone number in international form in the phone column.
 */
const csvGuard = (cell: Cell, column: string): Cell =>
  cell === null || !/^[=+\-@\t\r]/.test(cell) || (column === 'phone' && /^\+[\d ()./-]*\d[\d ()./-]*$/.test(cell)) ? cell : `'${cell}`;
/** A JSON list item as a CSV export row: `exportRowOf` with the CSV formula guard. */
const csvRowOf = (item: Item): Cell[] => exportRowOf(item).map((cell, i) => csvGuard(cell, CONTACT_EXPORT_COLUMNS[i]!));

/** Every item of `GET /contacts` for `params`, walking pages of 100 with `$offset`. */
async function walk(params: Record<string, string | undefined>): Promise<Item[]> {
  const items: Item[] = [];
  let maxResults = Infinity;
  for (let offset = 0; offset < maxResults; offset += 100) {
    const response = await call(server, 'GET', `/contacts${query({ ...params, $offset: offset, $limit: 100 })}`, { key: server.a.key });
    expect(response.status, response.text).toBe(200);
    maxResults = response.body.meta.maxResults;
    items.push(...(response.body.items as Item[]));
    if (response.body.items.length === 0) break;
  }
  expect(items).toHaveLength(maxResults === Infinity ? 0 : maxResults);
  return items;
}

type Download = { status: number; headers: Headers; bytes: Buffer; before: Date; after: Date };

async function download(path: string, accept: string, key = server.a.key): Promise<Download> {
  const before = new Date();
  const response = await fetch(`${server.baseUrl}${path}`, { headers: { 'x-api-key': key, accept } });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, before, after: new Date() };
}

const utcDay = (date: Date) => date.toISOString().slice(0, 10);

function expectAttachment(result: Download, extension: 'csv' | 'xlsx') {
  const allowed = new Set([utcDay(result.before), utcDay(result.after)].map((day) => `attachment; filename="contacts-${day}.${extension}"`));
  expect(allowed).toContain(result.headers.get('content-disposition'));
}

/** Parses a CSV export strictly: BOM first, CRLF between records, RFC 4180 quoting. */
function csvRows(bytes: Buffer): string[][] {
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.toString('utf8');
  expect(text.endsWith('\r\n')).toBe(true);
  expect(text.slice(1, text.indexOf('\r\n'))).toBe(CONTACT_EXPORT_COLUMNS.join(','));
  return parse(bytes, { bom: true, record_delimiter: '\r\n', relax_quotes: false, relax_column_count: false }) as string[][];
}

/** Reads an xlsx export back: the sheet names and every row's 13 cells (empty cells as null). */
async function xlsxRows(bytes: Buffer): Promise<{ sheets: string[]; rows: Cell[][] }> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as never);
  const sheet = workbook.worksheets[0];
  const rows: Cell[][] = [];
  if (sheet) {
    for (let r = 1; r <= sheet.rowCount; r++) {
      const row = sheet.getRow(r);
      rows.push(
        CONTACT_EXPORT_COLUMNS.map((_, c) => {
          const value = row.getCell(c + 1).value;
          if (value === null || value === undefined) return null;
          if (typeof value !== 'string') throw new Error(`cell ${r}:${c + 1} read back as ${JSON.stringify(value)}, not a string`);
          return value;
        }),
      );
    }
  }
  return { sheets: workbook.worksheets.map((worksheet) => worksheet.name), rows };
}

const csvCells = (rows: Cell[][]) => rows.map((row) => row.map((cell) => cell ?? ''));

/**
 * Rows as an xlsx reader sees them: XML parsers normalise a CRLF or a lone CR in text to LF (exceljs writes the
 * CR raw), so line breaks read back as LF; every other character is kept.
 */
const xlsxCells = (rows: Cell[][]) => rows.map((row) => row.map((cell) => cell?.replace(/\r\n?/g, '\n') ?? null));

describe('the contact export matches the JSON list', () => {
  const cases: { name: string; params: Record<string, string | undefined>; expectRows: (n: number) => boolean }[] = [
    { name: 'no filter: every contact of the workspace', params: {}, expectRows: (n) => n === SEEDED + HOSTILE_CONTACTS.length },
    { name: "state eq 'active'", params: { $filter: "state eq 'active'" }, expectRows: (n) => n > 100 && n < SEEDED },
    { name: "tags eq 'vip' (a tag that exists)", params: { $filter: "tags eq 'vip'" }, expectRows: (n) => n > 2 && n < SEEDED },
    { name: "name like 'an' ordered by name desc", params: { $filter: "name like 'an'", $orderBy: 'name desc' }, expectRows: (n) => n > 20 && n < SEEDED },
    { name: 'a filter matching nothing', params: { $filter: "email eq 'nobody@nowhere.invalid'" }, expectRows: (n) => n === 0 },
  ];

  it.each(cases)('$name: CSV rows equal the walked JSON items, in order', async ({ params, expectRows }) => {
    const items = await walk(params);
    expect(expectRows(items.length), `${items.length} rows`).toBe(true);
    const result = await download(`/contacts${query(params)}`, 'text/csv');
    expect(result.status, result.bytes.toString()).toBe(200);
    expect(result.headers.get('content-type')).toBe(CSV_TYPE);
    expectAttachment(result, 'csv');
    const [header, ...rows] = csvRows(result.bytes);
    expect(header).toEqual([...CONTACT_EXPORT_COLUMNS]);
    expect(rows).toEqual(csvCells(items.map(csvRowOf)));
  });

  it.each(cases)('$name: the xlsx sheet Contacts holds the same header and rows', async ({ params }) => {
    const items = await walk(params);
    const result = await download(`/contacts${query(params)}`, XLSX_MEDIA_TYPE);
    expect(result.status, result.bytes.toString()).toBe(200);
    expect(result.headers.get('content-type')).toBe(XLSX_MEDIA_TYPE);
    expectAttachment(result, 'xlsx');
    const { sheets, rows: [header, ...rows] } = await xlsxRows(result.bytes);
    expect(sheets).toEqual(['Contacts']);
    expect(header).toEqual([...CONTACT_EXPORT_COLUMNS]);
    expect(rows).toEqual(xlsxCells(items.map(exportRowOf)));
  });

  it('guards every hostile CSV cell with a quote and keeps commas, quotes, line breaks and non-ASCII intact', async () => {
    const result = await download(`/contacts${query({ $filter: `email eq 'formula.one@example.com'` })}`, 'text/csv');
    const [, row] = csvRows(result.bytes);
    expect(row).toEqual([
      expect.any(String),
      `'${HOSTILE_CONTACTS[0]!.name}`,
      'formula.one@example.com',
      '+4740000001',
      'active',
      "vip, =cmd|/c calc, comma, inside, ÆØÅ",
      'naïve café ☕, 日本語 "quoted"',
      'Storgata 1, "Bakgården"\r\n2. etasje',
      'Tromsø',
      "'-9008",
      "'@SUM(A1:A9)",
      expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    ]);
  });

  it('leaves every phone of the export as it is (they start with + and are international numbers)', async () => {
    const all = csvRows((await download('/contacts', 'text/csv')).bytes).slice(1);
    const phones = all.map((cells) => cells[3]!).filter(Boolean);
    expect(phones.length).toBeGreaterThan(300);
    expect(phones.every((phone) => /^\+\d+$/.test(phone))).toBe(true);
    const otherCells = all.flatMap((cells) => cells.filter((_, i) => i !== 3));
    expect(otherCells.every((cell) => !/^[=+\-@\t\r]/.test(cell))).toBe(true);
  });
});

describe('formula injection (docs/decisions.md section 7, revised)', () => {
  let key: string;
  /** Contacts of their own workspace, so the other tests' counts stay as they are. */
  beforeAll(async () => {
    const workspace = await createWorkspace(server.database.db, { organizationId: server.organizationId, name: 'Formulas' });
    key = await createApiKey(server.database.db, workspace.id, SCOPES);
    const rows = fakeContacts(workspace.id, 8, { now: new Date('2026-06-30T12:00:00.000Z'), idPrefix: 20_000 });
    // Stored as written straight into the table: the API keeps phones in E.164, other writers may not.
    const cells: Partial<(typeof rows)[number]>[] = [
      { name: '\t=1+1', phone: '+47 912 34 567', city: '\r=HYPERLINK("http://evil.example")' },
      { name: '\r@SUM(A1)', phone: '+1 (718) 555-0199', city: '-Oslo' },
      { name: '+plus text', phone: '+44.20/7946-0958', city: '@mention' },
      { name: '-minus text', phone: '+47=1+1', city: '+Bergen' },
      { name: '\tplain tab', phone: '-4712345678', city: '=1' },
      { name: 'safe', phone: '+', city: 'a=b' },
      { name: 'phone with tab', phone: '+47\t1', city: ' =1' },
      { name: 'phone with letters', phone: '+47 CALL', city: 'x' },
    ];
    await insertContacts(server.database.db, rows.map((row, i) => ({ ...row, email: null, email_key: null, ...cells[i] })));
  });

  const byName = (rows: Cell[][], name: string) => rows.find((row) => row[1]?.replace(/^'/, '') === name);

  it('CSV: a cell starting with =, +, -, @, a tab or a carriage return gets a quote; an international phone does not', async () => {
    const result = await fetch(`${server.baseUrl}/contacts`, { headers: { 'x-api-key': key, accept: 'text/csv' } });
    expect(result.status).toBe(200);
    const rows = csvRows(Buffer.from(await result.arrayBuffer())).slice(1);
    const pick = (name: string) => byName(rows, name)!.filter((_, i) => [1, 3, 8].includes(i));
    expect(pick('\t=1+1')).toEqual(["'\t=1+1", '+47 912 34 567', '\'\r=HYPERLINK("http://evil.example")']);
    expect(pick('\r@SUM(A1)')).toEqual(["'\r@SUM(A1)", '+1 (718) 555-0199', "'-Oslo"]);
    expect(pick('+plus text')).toEqual(["'+plus text", '+44.20/7946-0958', "'@mention"]);
    expect(pick('-minus text')).toEqual(["'-minus text", "'+47=1+1", "'+Bergen"]);
    expect(pick('\tplain tab')).toEqual(["'\tplain tab", "'-4712345678", "'=1"]);
    expect(pick('safe')).toEqual(['safe', "'+", 'a=b']);
    expect(pick('phone with tab')).toEqual(['phone with tab', "'+47\t1", ' =1']);
    expect(pick('phone with letters')).toEqual(['phone with letters', "'+47 CALL", 'x']);
  });

  it('xlsx: no cell is prefixed and none is a formula, whatever it starts with', async () => {
    const result = await fetch(`${server.baseUrl}/contacts`, { headers: { 'x-api-key': key, accept: XLSX_MEDIA_TYPE } });
    expect(result.status).toBe(200);
    const bytes = Buffer.from(await result.arrayBuffer());
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as never);
    const sheet = workbook.getWorksheet('Contacts')!;
    const cells: ExcelJS.Cell[] = [];
    sheet.eachRow((row) => row.eachCell((cell) => void cells.push(cell)));
    expect(cells.length).toBeGreaterThan(8 * 10);
    expect(cells.filter((cell) => cell.type === ExcelJS.ValueType.Formula || cell.formula)).toEqual([]);
    expect(cells.every((cell) => typeof cell.value === 'string' && !cell.value.startsWith("'"))).toBe(true);
    const { rows } = await xlsxRows(bytes);
    const pick = (name: string) => byName(rows, name)!.filter((_, i) => [1, 3, 8].includes(i));
    // XML readers turn a carriage return into a line feed (see xlsxCells).
    expect(pick('\t=1+1')).toEqual(['\t=1+1', '+47 912 34 567', '\n=HYPERLINK("http://evil.example")']);
    expect(pick('-minus text')).toEqual(['-minus text', '+47=1+1', '+Bergen']);
    expect(pick('\tplain tab')).toEqual(['\tplain tab', '-4712345678', '=1']);
  });
});

describe('paging an export', () => {
  it.each([
    { name: '$offset and $limit export only that slice', params: { $offset: '10', $limit: '25' }, slice: [10, 35] as const },
    { name: '$limit alone exports the first rows', params: { $limit: '7' }, slice: [0, 7] as const },
    { name: '$offset alone exports from there to the end', params: { $offset: '590' }, slice: [590, undefined] as const },
    { name: 'no paging exports everything, past the JSON default page of 20', params: {}, slice: [0, undefined] as const },
  ])('$name', async ({ params, slice }) => {
    const everything = (await walk({})).slice(slice[0], slice[1]);
    const csv = await download(`/contacts${query(params)}`, 'text/csv');
    expect(csv.status).toBe(200);
    expect(csvRows(csv.bytes).slice(1)).toEqual(csvCells(everything.map(csvRowOf)));
    const xlsx = await download(`/contacts${query(params)}`, XLSX_MEDIA_TYPE);
    expect(xlsx.status).toBe(200);
    expect((await xlsxRows(xlsx.bytes)).rows.slice(1)).toEqual(xlsxCells(everything.map(exportRowOf)));
  });

  it('still rejects an out-of-range $limit on an export', async () => {
    const response = await call(server, 'GET', `/contacts${query({ $limit: 101 })}`, { key: server.a.key, headers: { accept: 'text/csv' } });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('$limit must not be greater than 100');
  });
});

describe('export errors answer the JSON error body', () => {
  it.each([
    { name: 'a $filter syntax error on a CSV export', accept: 'text/csv', params: { $filter: "name eqq 'x'" }, message: "$filter: unexpected token 'eqq' at position 5" },
    { name: 'an unknown $filter field on an xlsx export', accept: XLSX_MEDIA_TYPE, params: { $filter: "bio eq 'x'" }, message: /^\$filter: unknown field 'bio'/ },
    { name: 'an unsortable $orderBy field on a CSV export', accept: 'text/csv', params: { $orderBy: 'bio desc' }, message: /^\$orderBy: cannot sort by 'bio'/ },
  ])('$name is a 400 with the JSON error body', async ({ accept, params, message }) => {
    const response = await call(server, 'GET', `/contacts${query(params)}`, { key: server.a.key, headers: { accept } });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('content-disposition')).toBeNull();
    expect(response.body).toMatchObject({ statusCode: 400, path: '/api/contacts', traceId: response.headers.get('x-trace-id') });
    expect(response.body.message).toMatch(message);
  });

  it.each([
    { scopes: ['feeds:read-write', 'products:read-write', 'posts:read-write'] as const, status: 403 },
    { scopes: ['contacts:read-only'] as const, status: 200 },
    { scopes: ['contacts:read-write'] as const, status: 200 },
  ])('a key holding $scopes exports with status $status', async ({ scopes, status }) => {
    const key = await server.keyWith(server.a, scopes);
    for (const accept of ['text/csv', XLSX_MEDIA_TYPE]) {
      const response = await call(server, 'GET', '/contacts?%24limit=1', { key, headers: { accept } });
      expect(response.status).toBe(status);
      if (status === 403) {
        expect(response.body.message).toBe('Missing scope contacts:read-only');
        expect(response.headers.get('content-disposition')).toBeNull();
      }
    }
  });

  it('exports nothing of another workspace', async () => {
    const b = csvRows((await download('/contacts', 'text/csv', server.b.key)).bytes).slice(1);
    expect(b).toHaveLength(25);
    const aIds = new Set((await walk({})).map((item) => item.id));
    expect(b.some((row) => aIds.has(row[0]!))).toBe(false);
  });
});

describe('content negotiation on GET /contacts', () => {
  /** A request with no Accept header at all (fetch always adds one). */
  function getWithoutAccept(path: string): Promise<{ status: number; type: string | undefined; body: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${server.baseUrl}${path}`, { headers: { 'x-api-key': server.a.key } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('answers JSON when there is no Accept header', async () => {
    const response = await getWithoutAccept('/contacts?%24limit=3');
    expect(response.status).toBe(200);
    expect(response.type).toMatch(/^application\/json/);
    expect(JSON.parse(response.body)).toMatchObject({ items: expect.any(Array), meta: { maxResults: SEEDED + HOSTILE_CONTACTS.length } });
  });

  it.each([
    { accept: 'application/json', answers: 'json' },
    { accept: '*/*', answers: 'json' },
    { accept: 'text/csv;q=0.5, application/json', answers: 'json' },
    { accept: 'application/json;q=0.1, text/csv', answers: 'csv' },
    { accept: 'text/csv;q=0', answers: 'json' },
    { accept: `${XLSX_MEDIA_TYPE};q=0.9, text/csv;q=0.8`, answers: 'xlsx' },
    { accept: `text/html, ${XLSX_MEDIA_TYPE}`, answers: 'xlsx' },
    { accept: 'TEXT/CSV', answers: 'csv' },
    { accept: 'text/html', answers: 'json' },
  ])('Accept: $accept answers $answers', async ({ accept, answers }) => {
    const result = await download('/contacts?%24limit=2', accept);
    expect(result.status).toBe(200);
    const type = result.headers.get('content-type') ?? '';
    if (answers === 'json') {
      expect(type).toMatch(/^application\/json/);
      expect(result.headers.get('content-disposition')).toBeNull();
      expect(JSON.parse(result.bytes.toString('utf8')).items).toHaveLength(2);
    } else if (answers === 'csv') {
      expect(type).toBe(CSV_TYPE);
      expect(csvRows(result.bytes)).toHaveLength(3);
    } else {
      expect(type).toBe(XLSX_MEDIA_TYPE);
      expect((await xlsxRows(result.bytes)).rows).toHaveLength(3);
    }
  });
});
