/**
 * Products and collections, endpoints 7 to 10 (docs/decisions.md sections 2, 6, 7): upsert precedence and codes,
 * every validation, concurrency, filters and listed shapes. Real server, temp SQLite file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionListSchema, productListSchema } from '../../src/api/catalog';
import { type TestServer, call, query, startServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const upsertProduct = (body: unknown, key = server.a.key) => call(server, 'POST', '/products', { key, body });
const upsertCollection = (body: unknown, key = server.a.key) => call(server, 'POST', '/collections', { key, body });
async function products(filter?: string, key = server.a.key) {
  const response = await call(server, 'GET', `/products${query({ $filter: filter, $limit: 100 })}`, { key });
  expect(response.status, response.text).toBe(200);
  return productListSchema.parse(response.body);
}
const product = async (id: string) => (await products(`id eq '${id}'`)).items[0]!;

describe('POST /collections', () => {
  it('creates with 201, updates by id or externalId with 200, and lists every field', async () => {
    const created = await upsertCollection({ title: 'Summer Sale', externalId: 'ext-summer', bodyHtml: '<p>Hot</p>', source: 'shopify', customProperties: { season: 'summer' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String) });
    const byExternal = await upsertCollection({ title: 'Summer Sale 2026', externalId: 'ext-summer' });
    expect(byExternal.status).toBe(200);
    expect(byExternal.body.id).toBe(created.body.id);
    const byId = await upsertCollection({ id: created.body.id, title: 'Summer', source: 'manual' });
    expect(byId.status).toBe(200);
    const list = collectionListSchema.parse((await call(server, 'GET', `/collections${query({ $filter: `id eq '${created.body.id}'` })}`, { key: server.a.key })).body);
    expect(list.items).toEqual([
      {
        id: created.body.id, feedId: server.a.id, externalId: 'ext-summer', title: 'Summer', handle: 'summer-sale', bodyHtml: '<p>Hot</p>',
        source: 'manual', customProperties: { season: 'summer' }, created: expect.any(String), updated: expect.any(String),
      },
    ]);
    expect(list.items[0]!.updated >= list.items[0]!.created).toBe(true);
  });

  it.each([
    ['no title', {}, 'title is required'],
    ['an empty title', { title: '  ' }, 'title must not be empty'],
    ['a title over 255 characters', { title: 'x'.repeat(256) }, 'title must be at most 255 characters long'],
    ['a handle that is not a slug', { title: 'x', handle: 'Not A Slug' }, 'handle must be a lower-case slug'],
    ['an unknown field', { title: 'x', price: 1 }, 'property price should not exist'],
    ['51 custom properties', { title: 'x', customProperties: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, 'customProperties must have at most 50 keys'],
  ])('answers 400 for %s', async (_name, body, message) => {
    const response = await upsertCollection(body);
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(message);
  });

  it('answers 404 for an id not in the workspace', async () => {
    const other = await upsertCollection({ title: 'B only' }, server.b.key);
    const response = await upsertCollection({ id: other.body.id, title: 'Hijack' });
    expect(response.status).toBe(404);
    expect(response.body.message).toBe('Collection not found');
  });
});

describe('POST /products', () => {
  let summer: string;
  let winter: string;
  beforeAll(async () => {
    summer = (await upsertCollection({ title: 'Summer Things', externalId: 'col-summer' })).body.id;
    winter = (await upsertCollection({ title: 'Winter Things', externalId: 'col-winter' })).body.id;
  });

  it('creates a product with every field and lists it with its collections', async () => {
    const body = {
      externalId: 'sku-1', title: 'Trail Jacket', bodyHtml: '<p>Warm</p>', type: 'jacket', status: 'draft', vendor: 'Nordic', source: 'import',
      url: 'https://shop.example.com/trail', imageUrl: 'https://img.example.com/trail.png', price: 1299.5, originalPrice: 1499, currency: 'NOK',
      isForSale: true, tags: ['outdoor', ' outdoor ', 'winter'], collectionIds: [summer], externalCollectionIds: ['col-winter'],
      customProperties: { weight: 1.2, colors: ['red'] },
    };
    const response = await upsertProduct(body);
    expect(response.status).toBe(201);
    expect(await product(response.body.id)).toEqual({
      id: response.body.id, externalId: 'sku-1', title: 'Trail Jacket', handle: 'trail-jacket', bodyHtml: '<p>Warm</p>', type: 'jacket', status: 'draft',
      vendor: 'Nordic', source: 'import', url: 'https://shop.example.com/trail', imageUrl: 'https://img.example.com/trail.png', price: 1299.5,
      originalPrice: 1499, currency: 'NOK', isForSale: true, tags: ['outdoor', 'winter'],
      collections: [{ id: summer, collectionTitle: 'Summer Things' }, { id: winter, collectionTitle: 'Winter Things' }],
      customProperties: { weight: 1.2, colors: ['red'] }, created: expect.any(String), updated: expect.any(String),
    });
  });

  it('defaults status to active and absent values to null', async () => {
    const response = await upsertProduct({ title: 'Plain' });
    expect(await product(response.body.id)).toMatchObject({ status: 'active', price: null, currency: null, isForSale: null, tags: [], collections: [], customProperties: null, externalId: null });
  });

  it('updates by id, leaves absent fields as they were and replaces tags, collections and customProperties whole', async () => {
    const { body } = await upsertProduct({ title: 'Boots', price: 10, tags: ['a', 'b'], collectionIds: [summer, winter], customProperties: { a: 1, b: 2 }, vendor: 'V' });
    const response = await upsertProduct({ id: body.id, price: 12, tags: ['c'], collectionIds: [winter], customProperties: { z: 0 } });
    expect(response.status).toBe(200);
    expect(await product(body.id)).toMatchObject({ title: 'Boots', vendor: 'V', price: 12, tags: ['c'], collections: [{ id: winter }], customProperties: { z: 0 } });
    const filtered = await products(`tags eq 'a'`);
    expect(filtered.items.map((p) => p.id)).not.toContain(body.id);
  });

  it('prefers id over externalId and then sets the externalId on the record found by id', async () => {
    const first = await upsertProduct({ title: 'First', externalId: 'p-first' });
    const second = await upsertProduct({ title: 'Second' });
    const response = await upsertProduct({ id: second.body.id, externalId: 'p-second', title: 'Second v2' });
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(second.body.id);
    expect(await product(second.body.id)).toMatchObject({ externalId: 'p-second', title: 'Second v2' });
    expect(await product(first.body.id)).toMatchObject({ externalId: 'p-first', title: 'First' });
  });

  it('answers 409 when an externalId given with an id belongs to another product', async () => {
    await upsertProduct({ title: 'Owner', externalId: 'p-owned' });
    const other = await upsertProduct({ title: 'Other' });
    const response = await upsertProduct({ id: other.body.id, externalId: 'p-owned' });
    expect(response.status).toBe(409);
    expect(response.body.message).toBe('A product with externalId p-owned already exists');
  });

  it('derives handles from titles, appending -2 and -3 on a clash, and answers 409 for a taken explicit handle', async () => {
    const handles = [];
    for (let i = 0; i < 3; i++) handles.push((await product((await upsertProduct({ title: 'Café Crème!' })).body.id)).handle);
    expect(handles).toEqual(['cafe-creme', 'cafe-creme-2', 'cafe-creme-3']);
    const taken = await upsertProduct({ title: 'Another', handle: 'cafe-creme' });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('A product with handle cafe-creme already exists');
    const own = (await products("handle eq 'cafe-creme'")).items[0]!;
    expect((await upsertProduct({ id: own.id, handle: 'cafe-creme' })).status).toBe(200);
  });

  it.each([
    ['no title on create', { price: 1 }, 'title is required to create a product'],
    ['an unknown status', { title: 'x', status: 'live' }, 'status must be one of active, draft, archived'],
    ['a relative url', { title: 'x', url: '/p/1' }, 'url must be an absolute http(s) URL'],
    ['a javascript imageUrl', { title: 'x', imageUrl: 'javascript:alert(1)' }, 'imageUrl must be an absolute http(s) URL'],
    ['a negative price', { title: 'x', price: -1 }, 'price must not be less than 0'],
    ['a string price', { title: 'x', price: '10' }, 'price must be a number'],
    ['a negative originalPrice', { title: 'x', originalPrice: -0.01 }, 'originalPrice must not be less than 0'],
    ['a lower-case currency', { title: 'x', currency: 'nok' }, 'currency must be an ISO 4217 code'],
    ['a four-letter currency', { title: 'x', currency: 'NOKK' }, 'currency must be an ISO 4217 code'],
    ['an unknown collection id', { title: 'x', collectionIds: ['nope'] }, 'collectionIds: unknown collection nope'],
    ['an unknown external collection id', { title: 'x', externalCollectionIds: ['nope-ext'] }, 'externalCollectionIds: unknown collection nope-ext'],
    ['customProperties over 16 KiB', { title: 'x', customProperties: { big: 'x'.repeat(17 * 1024) } }, 'customProperties must be at most 16 KiB as JSON'],
    ['an unknown field', { title: 'x', colour: 'red' }, 'property colour should not exist'],
  ])('answers 400 for %s and creates nothing', async (_name, body, message) => {
    const before = (await products()).meta.maxResults;
    const response = await upsertProduct(body);
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(message);
    expect((await products()).meta.maxResults).toBe(before);
  });

  it('answers 400 for a collection of another workspace', async () => {
    const foreign = await upsertCollection({ title: 'Foreign' }, server.b.key);
    const response = await upsertProduct({ title: 'x', collectionIds: [foreign.body.id] });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(`collectionIds: unknown collection ${foreign.body.id}`);
  });

  it('answers 404 for an id not in the workspace', async () => {
    const foreign = await upsertProduct({ title: 'B product' }, server.b.key);
    const response = await upsertProduct({ id: foreign.body.id, title: 'Hijack' });
    expect(response.status).toBe(404);
    expect(response.body.message).toBe('Product not found');
  });

  it('leaves exactly one product after 20 parallel upserts of one new externalId, each answering 200 or 201', async () => {
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => upsertProduct({ externalId: 'race-1', title: `Race ${i}` })));
    expect(responses.map((r) => r.status).filter((s) => s !== 200 && s !== 201)).toEqual([]);
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    expect((await products("externalId eq 'race-1'")).meta.maxResults).toBe(1);
  });
});

describe('GET /products', () => {
  let spring: string;
  beforeAll(async () => {
    spring = (await upsertCollection({ title: 'Spring' })).body.id;
    await upsertProduct({ title: 'Filter A', price: 5, isForSale: true, vendor: 'Acme', tags: ['x', 'y'], collectionIds: [spring], status: 'active' });
    await upsertProduct({ title: 'Filter B', price: 50, isForSale: false, vendor: 'Acme', tags: ['y'], status: 'archived' });
    await upsertProduct({ title: 'Filter C', price: 500, vendor: 'Other', tags: ['z'], collectionIds: [spring] });
  });

  it.each([
    ["collectionIds eq (in the collection)", () => `collectionIds eq '${spring}'`, ['Filter A', 'Filter C']],
    ['tags in (has any)', () => "title like 'Filter' and tags in ('x', 'z')", ['Filter A', 'Filter C']],
    ['price between', () => "title like 'Filter' and price between 5 and 50", ['Filter A', 'Filter B']],
    ['isForSale eq false', () => "title like 'Filter' and isForSale eq false", ['Filter B']],
    ['status and vendor', () => "vendor eq 'Acme' and status eq 'active' and title like 'Filter'", ['Filter A']],
    ['isForSale eq null', () => "title like 'Filter' and isForSale eq null", ['Filter C']],
  ])('filters by %s', async (_name, filter, titles) => {
    const { items, meta } = await products(filter());
    expect(items.map((p) => p.title).sort()).toEqual(titles);
    expect(meta.maxResults).toBe(titles.length);
  });

  it.each([
    [query({ $orderBy: 'title asc' }), 'property $orderBy should not exist'],
    [query({ $filter: "price eq 'cheap'" }), "field 'price' expects a number"],
    [query({ $filter: "bodyHtml like 'x'" }), "unknown field 'bodyHtml'"],
    [query({ $limit: 101 }), '$limit must not be greater than 100'],
  ])('answers 400 for %s', async (search, message) => {
    const response = await call(server, 'GET', `/products${search}`, { key: server.a.key });
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(message);
  });

  it('rejects $orderBy on GET /collections too', async () => {
    const response = await call(server, 'GET', `/collections${query({ $orderBy: 'title' })}`, { key: server.a.key });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('property $orderBy should not exist');
  });

  it('never lists another workspace products or collections', async () => {
    const b = await upsertProduct({ title: 'Only in B' }, server.b.key);
    expect((await products(`id eq '${b.body.id}'`)).items).toEqual([]);
    const collections = await call(server, 'GET', `/collections${query({ $limit: 100 })}`, { key: server.a.key });
    expect(collections.body.items.every((c: { feedId: string }) => c.feedId === server.a.id)).toBe(true);
  });
});
