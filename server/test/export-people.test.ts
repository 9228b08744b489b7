/**
 * The xlsx export in people's words (issue 34 point 10; docs/exports.md): with `Export-Language`, the header row is
 * the columns' names in that language and frozen, the columns have widths, and `created` is a real date cell;
 * without it, the contract's sheet (API names, ISO text). Read back with exceljs.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_EXPORT_COLUMNS, XLSX_MEDIA_TYPE } from '../../src/api/contacts';
import { exportLanguage } from '../export/export-headers';
import { type TestServer, call, startServer } from './harness';

let server: TestServer;
let created = '';

beforeAll(async () => {
  server = await startServer();
  const response = await call(server, 'POST', '/contacts', { key: server.a.key, body: { name: 'Kari Nordmann', email: 'kari@example.no', city: 'Oslo', postalCode: '0150', addDirectly: true } });
  expect(response.status, response.text).toBe(201);
  const list = await call(server, 'GET', '/contacts', { key: server.a.key });
  created = (list.body as { items: { created: string }[] }).items[0]!.created;
});
afterAll(() => server?.close());

/** The first sheet of the xlsx `GET /contacts` answers with `headers`. */
async function sheetOf(headers: Record<string, string>): Promise<ExcelJS.Worksheet> {
  const response = await fetch(`${server.baseUrl}/contacts`, { headers: { 'x-api-key': server.a.key, accept: XLSX_MEDIA_TYPE, ...headers } });
  expect(response.status).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as never);
  return workbook.worksheets[0]!;
}

const rowValues = (sheet: ExcelJS.Worksheet, number: number) => (sheet.getRow(number).values as unknown[]).slice(1);

describe('the xlsx export for people', () => {
  it('in bokmål: the header row in words, frozen, widths on every column, and the created date a real date', async () => {
    const sheet = await sheetOf({ 'export-language': 'nb' });
    expect(rowValues(sheet, 1)).toEqual(['ID', 'Navn', 'E-post', 'Telefon', 'Status', 'Stikkord', 'Kilde', 'Adresse', 'Sted', 'Postnummer', 'Region', 'Opprettet', 'Endret']);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    for (let column = 1; column <= CONTACT_EXPORT_COLUMNS.length; column++) expect(sheet.getColumn(column).width, `column ${column}`).toBeGreaterThanOrEqual(8);
    expect(sheet.getColumn(3).width).toBeGreaterThan(sheet.getColumn(5).width!);
    const cell = sheet.getRow(2).getCell(CONTACT_EXPORT_COLUMNS.indexOf('created') + 1);
    expect(cell.type).toBe(ExcelJS.ValueType.Date);
    expect((cell.value as Date).toISOString()).toBe(new Date(created).toISOString());
    expect(cell.numFmt).toMatch(/yyyy/);
    expect(sheet.getRow(2).getCell(2).value).toBe('Kari Nordmann');
    expect(sheet.getRow(2).getCell(CONTACT_EXPORT_COLUMNS.indexOf('postalCode') + 1).value).toBe('0150');
  });

  it('in English: the header row in English words', async () => {
    const sheet = await sheetOf({ 'export-language': 'en-US' });
    expect(rowValues(sheet, 1).slice(0, 4)).toEqual(['ID', 'Name', 'Email', 'Phone']);
    expect(rowValues(sheet, 1)).toContain('Postal code');
  });

  it('a client that does not ask gets the contract\'s sheet: API names, dates as ISO text', async () => {
    const sheet = await sheetOf({ 'accept-language': 'nb-NO' });
    expect(rowValues(sheet, 1)).toEqual([...CONTACT_EXPORT_COLUMNS]);
    expect(sheet.getRow(2).getCell(CONTACT_EXPORT_COLUMNS.indexOf('created') + 1).value).toBe(created);
  });

  it('reads the language from the header: the first tag with words, Norwegian as bokmål, else none', () => {
    expect(exportLanguage('nb')).toBe('nb');
    expect(exportLanguage('nb-NO')).toBe('nb');
    expect(exportLanguage('no')).toBe('nb');
    expect(exportLanguage('de, en;q=0.8')).toBe('en');
    expect(exportLanguage('de')).toBeNull();
    expect(exportLanguage(undefined)).toBeNull();
  });
});
