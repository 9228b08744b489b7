/**
 * Property (issue 12 point 1): any body the service accepts (201/200) can be read back, listed, filtered and
 * exported (CSV and xlsx), with no 5xx, for contacts, products, collections and post requests. Bodies come from
 * fast-check arbitraries that stress depth (up to past SQLite's 1,000 levels), unicode (any code point, lone
 * surrogates, combining marks, line separators), long strings (up to each field's cap) and numbers at the edges
 * (0, -0, 1e12, the smallest double, past the caps). Scheduled posts must stay out of the lists until due.
 * Real server on SQLite or PostgreSQL (harness); a fixed seed (`FUZZ_SEED` another), `FUZZ_RUNS` more runs.
 */
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XLSX_MEDIA_TYPE } from '../../src/api/contacts';
import { collectionBody, contactBody, postBody, productBody } from './arbitraries';
import { type CallResult, type TestServer, call, query, startServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

/** Bodies per resource: 40, or a fiftieth of `FUZZ_RUNS` (README: the long fuzz run). */
const RUNS = Math.max(40, Math.ceil(Number(process.env.FUZZ_RUNS ?? 0) / 50));
const SEED = Number(process.env.FUZZ_SEED) || 20261123;

/** No answer of the service may be a 5xx; the error body where it is an error. */
function expectNo5xx(response: CallResult, what: string) {
  expect(response.status, `${what}: ${response.text.slice(0, 300)}`).toBeLessThan(500);
}

const get = async (path: string, key = server.a.key) => {
  const response = await call(server, 'GET', path, { key });
  expectNo5xx(response, `GET ${path}`);
  expect(response.status, `GET ${path}: ${response.text.slice(0, 300)}`).toBe(200);
  return response;
};

/** Downloads the export of `path` in both formats and returns the data rows of each. */
async function exportRows(path: string): Promise<{ csv: string[][]; xlsx: unknown[][] }> {
  const csvAnswer = await fetch(`${server.baseUrl}${path}`, { headers: { 'x-api-key': server.a.key, accept: 'text/csv' } });
  expect(csvAnswer.status).toBe(200);
  const csv = (parse(Buffer.from(await csvAnswer.arrayBuffer()), { bom: true, relax_quotes: false }) as string[][]).slice(1);
  const xlsxAnswer = await fetch(`${server.baseUrl}${path}`, { headers: { 'x-api-key': server.a.key, accept: XLSX_MEDIA_TYPE } });
  expect(xlsxAnswer.status).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await xlsxAnswer.arrayBuffer()) as never);
  const xlsx: unknown[][] = [];
  workbook.getWorksheet('Contacts')!.eachRow((row, n) => void (n > 1 && xlsx.push(row.values as unknown[])));
  return { csv, xlsx };
}

// ---------------------------------------------------------------------------------------------------------------
// Properties

const idFilter = (id: string) => query({ $filter: `id eq '${id}'` });
/** What was sent is the JSON text: -0 goes as 0, and so on. */
const sent = (value: unknown) => (value === undefined ? null : JSON.parse(JSON.stringify(value)));

/**
 * Sends `RUNS` bodies of `bodies` to `POST path`; none may answer 5xx, and each accepted (201) is checked by
 * `check` with the body and the answer. At least a tenth must be accepted, or the property proves little.
 */
async function everyAccepted<Body>(bodies: fc.Arbitrary<Body>, path: string, check: (body: Body, created: CallResult) => Promise<void>) {
  let accepted = 0;
  await fc.assert(
    fc.asyncProperty(bodies, async (body) => {
      const created = await call(server, 'POST', path, { key: server.a.key, body });
      expectNo5xx(created, `POST ${path}`);
      if (created.status !== 201) return;
      accepted++;
      await check(body, created);
    }),
    { numRuns: RUNS, seed: SEED },
  );
  expect(accepted).toBeGreaterThan(RUNS / 10);
}

describe('any body the service accepts can be read back, listed, filtered and exported', () => {
  it('contacts', () =>
    everyAccepted(contactBody, '/contacts', async (body, created) => {
      const id = created.body.id as string;
      const [item] = (await get(`/contacts${idFilter(id)}`)).body.items;
      expect(item.id).toBe(id);
      for (const field of ['name', 'city', 'region', 'bio'] as const) expect(item[field], field).toBe(body[field] ?? null);
      expect(item.follows).toEqual(sent(body.follows));
      expect(item.statusTags).toEqual(sent(body.statusTags));
      for (const listedTag of item.tags as string[]) {
        const byTag = await get(`/contacts${query({ $filter: `tags eq '${listedTag.replaceAll("'", "''")}' and id eq '${id}'` })}`);
        expect(byTag.body.items).toHaveLength(1);
      }
      await get('/contacts?%24limit=100&%24orderBy=name%20desc');
      await get('/contacts/contacts-tags');
      const { csv, xlsx } = await exportRows(`/contacts${idFilter(id)}`);
      expect(csv).toHaveLength(1);
      expect(xlsx).toHaveLength(1);
      expect(csv[0]![0]).toBe(id);
    }), 120_000);

  it('products', () =>
    everyAccepted(productBody, '/products', async (body, created) => {
      const id = created.body.id as string;
      const [item] = (await get(`/products${idFilter(id)}`)).body.items;
      expect(item.title).toBe((body.title as string).trim());
      expect(item.price).toBe(sent(body.price));
      expect(item.customProperties).toEqual(sent(body.customProperties));
      if (typeof body.price === 'number') {
        const byPrice = await get(`/products${query({ $filter: `price eq ${body.price} and id eq '${id}'` })}`);
        expect(byPrice.body.items).toHaveLength(1);
      }
      await get('/products?%24limit=100');
    }), 120_000);

  it('collections', () =>
    everyAccepted(collectionBody, '/collections', async (body, created) => {
      const [item] = (await get(`/collections${idFilter(created.body.id)}`)).body.items;
      expect(item.title).toBe((body.title as string).trim());
      expect(item.bodyHtml).toBe(body.bodyHtml ?? null);
      await get('/collections?%24limit=100');
    }), 120_000);

  it('post requests: published ones listed with a four-digit-year date, scheduled and suggested ones not yet', () =>
    everyAccepted(postBody, '/post-requests', async (_body, created) => {
      const id = created.body.body.requestId as string;
      const lists = [
        await get(`/posts${idFilter(id)}`),
        await call(server, 'GET', `/${server.a.id}/posts${idFilter(id)}`),
        await get('/public-posts?limit=30'),
      ];
      expect(lists[1]!.status).toBe(200);
      const listed = lists.map((list) => list.text.includes(id));
      expect(listed).toEqual(created.body.state === 'published' ? [true, true, true] : [false, false, false]);
      for (const list of lists) expect(list.text).not.toMatch(/"[+-]\d{6}-/);
      if (created.body.state === 'published') expect(lists[0]!.body.items[0].publishedDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }), 120_000);
});
