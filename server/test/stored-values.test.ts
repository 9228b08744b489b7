/**
 * Stored poison (issue 12 point 1): whatever a contact row holds, written by an older version or straight into the
 * table, no contact page, export or tag list fails. A value the database cannot read as JSON (malformed, or
 * nested past SQLite's 1,000 levels or PostgreSQL's parser stack) is listed as null (tags as `[]`); valid JSON
 * is listed as stored. Real server on SQLite or PostgreSQL (harness), bad rows inserted with plain SQL.
 */
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XLSX_MEDIA_TYPE } from '../../src/api/contacts';
import { fakeContacts, insertContacts } from '../db/seed';
import { type TestServer, call, query, startServer } from './harness';

let server: TestServer;

const nest = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** Stored values, by the contact name that carries them, and what the page must list for them. */
const BAD_ROWS: { name: string; column: 'follows' | 'status_tags' | 'tags'; stored: string; listed: (value: unknown) => boolean }[] = [
  { name: 'follows 1,100 deep', column: 'follows', stored: nest(1100), listed: (v) => v === null || JSON.stringify(v) === nest(1100) },
  { name: 'follows 20,000 deep', column: 'follows', stored: nest(20_000), listed: (v) => v === null || JSON.stringify(v) === nest(20_000) },
  { name: 'follows 1,000 deep', column: 'follows', stored: nest(1000), listed: (v) => JSON.stringify(v) === nest(1000) },
  { name: 'follows malformed', column: 'follows', stored: '{bad', listed: (v) => v === null },
  { name: 'follows empty text', column: 'follows', stored: '', listed: (v) => v === null },
  { name: 'statusTags malformed', column: 'status_tags', stored: '[', listed: (v) => v === null },
  { name: 'statusTags trailing text', column: 'status_tags', stored: '{"a":1} x', listed: (v) => v === null },
  { name: 'tags not JSON', column: 'tags', stored: 'vip, gold', listed: (v) => JSON.stringify(v) === '[]' },
  { name: 'tags an object', column: 'tags', stored: '{"a":1}', listed: (v) => JSON.stringify(v) === '{"a":1}' },
  { name: 'tags with a number', column: 'tags', stored: '["ok",5]', listed: (v) => JSON.stringify(v) === '["ok",5]' },
];

beforeAll(async () => {
  server = await startServer();
  const rows = fakeContacts(server.a.id, BAD_ROWS.length + 5, { now: new Date('2026-06-30T12:00:00.000Z') });
  BAD_ROWS.forEach((bad, i) => Object.assign(rows[i]!, { name: bad.name, created: '2026-07-01T00:00:00.000Z' }));
  await insertContacts(server.database.db, rows);
  for (const [i, bad] of BAD_ROWS.entries()) {
    await server.database.db.updateTable('contacts').set({ [bad.column]: bad.stored }).where('id', '=', rows[i]!.id).execute();
  }
});
afterAll(() => server?.close());

type Listed = { name: string; tags: unknown; follows: unknown; statusTags: unknown };

describe('contact rows holding what the database cannot read as JSON', () => {
  it('the default first page answers 200, listing each unreadable value as null (tags as [])', async () => {
    const response = await call(server, 'GET', '/contacts?%24limit=100', { key: server.a.key });
    expect(response.status, response.text.slice(0, 300)).toBe(200);
    expect(response.body.meta.maxResults).toBe(BAD_ROWS.length + 5);
    for (const bad of BAD_ROWS) {
      const item = (response.body.items as Listed[]).find((listed) => listed.name === bad.name)!;
      const value = bad.column === 'follows' ? item.follows : bad.column === 'tags' ? item.tags : item.statusTags;
      expect(bad.listed(value), `${bad.name}: ${JSON.stringify(value)?.slice(0, 80)}`).toBe(true);
    }
  });

  it.each([
    { name: 'a page past the first (ids picked first)', params: { $offset: 1, $limit: 50 } },
    { name: 'one bad row by id', params: { $filter: "name eq 'follows malformed'" } },
    { name: 'sorted by name', params: { $orderBy: 'name desc', $limit: 100 } },
    { name: 'a tag filter', params: { $filter: "tags eq 'ok' or name like 'deep'" } },
  ])('$name answers 200', async ({ params }) => {
    const response = await call(server, 'GET', `/contacts${query(params)}`, { key: server.a.key });
    expect(response.status, response.text.slice(0, 300)).toBe(200);
  });

  it('HEAD of the first page answers 200 without a body (issue 12 point 5: it answered 500)', async () => {
    const response = await fetch(`${server.baseUrl}/contacts`, { method: 'HEAD', headers: { 'x-api-key': server.a.key } });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(1000);
    expect(await response.text()).toBe('');
  });

  it('the CSV export answers every row, bad tags as an empty cell', async () => {
    const response = await fetch(`${server.baseUrl}/contacts`, { headers: { 'x-api-key': server.a.key, accept: 'text/csv' } });
    expect(response.status).toBe(200);
    const rows = parse(Buffer.from(await response.arrayBuffer()), { bom: true }) as string[][];
    expect(rows).toHaveLength(1 + BAD_ROWS.length + 5);
    const tagsOf = (name: string) => rows.find((row) => row[1] === name)![5];
    expect([tagsOf('tags not JSON'), tagsOf('tags an object'), tagsOf('tags with a number')]).toEqual(['', '', 'ok']);
  });

  it('the xlsx export answers every row', async () => {
    const response = await fetch(`${server.baseUrl}/contacts`, { headers: { 'x-api-key': server.a.key, accept: XLSX_MEDIA_TYPE } });
    expect(response.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as never);
    expect(workbook.getWorksheet('Contacts')!.rowCount).toBe(1 + BAD_ROWS.length + 5);
  });

  it.each(BAD_ROWS.filter((bad) => bad.column === 'tags'))('a tag edit of "$name" answers 204 and stores a readable tag list', async ({ name }) => {
    const found = await call(server, 'GET', `/contacts${query({ $filter: `name eq '${name}'` })}`, { key: server.a.key });
    const id = (found.body.items as { id: string }[])[0]!.id;
    const response = await call(server, 'PATCH', `/contacts/${id}/tags`, { key: server.a.key, body: { tagsToAdd: ['mended'] } });
    expect(response.status, response.text.slice(0, 300)).toBe(204);
    const after = await call(server, 'GET', `/contacts${query({ $filter: `name eq '${name}'` })}`, { key: server.a.key });
    const tags = (after.body.items as Listed[])[0]!.tags as unknown[];
    expect(tags).toContain('mended');
    expect(tags.every((tag) => typeof tag === 'string')).toBe(true);
    const tagged = await call(server, 'GET', `/contacts${query({ $filter: "tags eq 'mended'" })}`, { key: server.a.key });
    expect((tagged.body.items as Listed[]).map((item) => item.name)).toContain(name);
  });

  it('the tag list answers 200', async () => {
    const response = await call(server, 'GET', '/contacts/contacts-tags', { key: server.a.key });
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
  });
});
