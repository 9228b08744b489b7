/**
 * What the service refuses at the door (issue 12 points 1, 3 and 4), on every endpoint that takes it:
 * - JSON bodies deeper than 32 levels, with more than 1,000 members in one array or object, or more than 50,000
 *   values, on every write endpoint, with a 400 naming the field (server/plugins/json-body.ts);
 * - numeric `$filter` literals a field cannot hold (`claps gt 1.5`, `2147483648`, `1e308` answered 500 on
 *   PostgreSQL), with a 400 naming the field, on every list with a numeric field; the same range on writes;
 * - dates outside 1970-9999 UTC, on `publishDate` and on every list's `$filter` date literals (a post scheduled
 *   at `9999-12-31T23:59:59-23:59` was listed at once as `+010000-...`).
 * Real server on SQLite or PostgreSQL (harness).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostStore } from '../db/posts';
import { type CallResult, type TestServer, call, query, startServer } from './harness';

let server: TestServer;
let contactId: string;

beforeAll(async () => {
  server = await startServer();
  const created = await call(server, 'POST', '/contacts', { key: server.a.key, body: { name: 'Target', email: 'target@example.com', phone: '+4712345678' } });
  expect(created.status, created.text).toBe(201);
  contactId = created.body.id;
});
afterAll(() => server?.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function expect400(response: CallResult, message: string | RegExp) {
  expect(response.status, response.text).toBe(400);
  expect(response.body).toEqual({ traceId: response.headers.get('x-trace-id'), message: expect.any(String), path: expect.any(String), timestamp: expect.stringMatching(ISO), statusCode: 400 });
  if (typeof message === 'string') expect(response.body.message).toBe(message);
  else expect(response.body.message).toMatch(message);
}

/** `levels` nested arrays around `inner`: `nest(2, '0')` is `[[0]]`. */
const nest = (levels: number, inner = '0') => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;
const items = (count: number, item = '0') => `[${Array.from({ length: count }, () => item).join(',')}]`;
const members = (count: number) => `{${Array.from({ length: count }, (_, i) => `"k${i}":0`).join(',')}}`;
const DEEPER = 'is nested deeper than 32 levels (the body counts as level 1)';

type Write = { method: string; path: () => string; headers: () => Record<string, string>; body: (field: string) => string };
const keyed = () => ({ 'x-api-key': server.a.key, 'content-type': 'application/json' });
/** Each write endpoint, with a body whose one field holds `value` (raw JSON text) and is otherwise valid. */
const WRITES: Record<string, Write> = {
  'POST /contacts (follows)': { method: 'POST', path: () => '/contacts', headers: keyed, body: (v) => `{"name":"n","follows":${v}}` },
  'POST /contacts (statusTags)': { method: 'POST', path: () => '/contacts', headers: keyed, body: (v) => `{"name":"n","statusTags":{"a":${v}}}` },
  'PATCH /contacts/{id}/tags': { method: 'PATCH', path: () => `/contacts/${contactId}/tags`, headers: keyed, body: (v) => `{"tagsToAdd":${v}}` },
  'PATCH /contacts/{id}/notification-settings': {
    method: 'PATCH',
    path: () => `/contacts/${contactId}/notification-settings`,
    headers: () => ({ authorization: server.a.basic, 'content-type': 'application/json' }),
    body: (v) => `{"email":${v}}`,
  },
  'POST /products': { method: 'POST', path: () => '/products', headers: keyed, body: (v) => `{"title":"p","customProperties":{"a":${v}}}` },
  'POST /collections': { method: 'POST', path: () => '/collections', headers: keyed, body: (v) => `{"title":"c","customProperties":{"a":${v}}}` },
  'POST /post-requests': { method: 'POST', path: () => '/post-requests', headers: keyed, body: (v) => `{"action":"suggest","text":"t","recipients":${v}}` },
};
/** The name the 400 gives the field of WRITES' body. */
const FIELD: Record<string, string> = {
  'POST /contacts (follows)': 'follows',
  'POST /contacts (statusTags)': 'statusTags',
  'PATCH /contacts/{id}/tags': 'tagsToAdd',
  'PATCH /contacts/{id}/notification-settings': 'email',
  'POST /products': 'customProperties',
  'POST /collections': 'customProperties',
  'POST /post-requests': 'recipients',
};
const send = (name: string, value: string) => {
  const write = WRITES[name]!;
  return call(server, write.method, write.path(), { rawBody: write.body(value), headers: write.headers() });
};

describe('JSON bodies are refused at the door when deeper or wider than the stated limits', () => {
  it.each(Object.keys(WRITES))('%s: a field nested past 32 levels is a 400 naming the field', async (name) => {
    // The body is level 1 and its field level 2 (statusTags and customProperties hold the value one level lower).
    expect400(await send(name, nest(40)), `${FIELD[name]} ${DEEPER}`);
  });

  it.each(Object.keys(WRITES))('%s: 1,001 items in one array is a 400 naming the array', async (name) => {
    const path = FIELD[name] === 'statusTags' || FIELD[name] === 'customProperties' ? `${FIELD[name]}.a` : FIELD[name];
    expect400(await send(name, items(1001, '"x"')), `${path} has more than 1000 items`);
  });

  it.each(Object.keys(WRITES))('%s: 1,001 members in one object is a 400 naming the object', async (name) => {
    const path = FIELD[name] === 'statusTags' || FIELD[name] === 'customProperties' ? `${FIELD[name]}.a` : FIELD[name];
    expect400(await send(name, members(1001)), `${path} has more than 1000 members`);
  });

  it('a body of more than 50,000 values is a 400, however they are spread', async () => {
    expect400(await send('POST /contacts (follows)', items(51, items(999))), 'body holds more than 50000 values');
  });

  it('the exact limits pass the door: 32 levels, 1,000 items, and the value reads back', async () => {
    // The body, then 31 levels of arrays in follows (30 around a list of 3): 32 in all.
    const created = await send('POST /contacts (follows)', nest(30, items(3)));
    expect(created.status, created.text).toBe(201);
    const listed = await call(server, 'GET', `/contacts${query({ $filter: `id eq '${created.body.id}'` })}`, { key: server.a.key });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body.items[0].follows)).toBe(nest(30, items(3)));
    expect((await send('POST /contacts (follows)', nest(31, items(3)))).status).toBe(400);
    const wide = await call(server, 'POST', '/post-requests', {
      key: server.a.key,
      rawBody: `{"action":"suggest","text":"t","recipients":${items(1000, `"${contactId}"`)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(wide.status, wide.text).toBe(201);
  });

  it('brackets, commas and quotes inside strings are text, not structure', async () => {
    const text = `${'['.repeat(40)}${','.repeat(900)}\\"{{`;
    const response = await call(server, 'POST', '/contacts', {
      key: server.a.key,
      rawBody: `{"name":"${text}","bio":"${'{'.repeat(2000)}","address":"${','.repeat(999)}","follows":{"[[[":"]]]","\\"":[1,2]}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status, response.text).toBe(201);
  });

  it('malformed JSON, an empty body and a __proto__ key are still refused by the JSON parser', async () => {
    expect400(await send('POST /contacts (follows)', '[1,'), /^Malformed JSON/);
    expect400(await call(server, 'POST', '/contacts', { key: server.a.key, rawBody: '', headers: { 'content-type': 'application/json' } }), /empty/i);
    expect((await call(server, 'POST', '/contacts', { key: server.a.key, rawBody: '{"name":"p","statusTags":{"__proto__":{"x":1}}}', headers: { 'content-type': 'application/json' } })).status).toBe(400);
  });
});

describe('numeric $filter literals are checked against the field type and range', () => {
  const lists = () => [
    { name: 'GET /posts', path: '/posts', key: server.a.key },
    { name: 'GET /{workspaceId}/posts', path: `/${server.a.id}/posts`, key: undefined },
  ];
  it.each([
    ['claps gt 1.5', "field 'claps' expects an integer from -2147483648 to 2147483647, got 1.5"],
    ['claps gt 2147483648', "field 'claps' expects an integer from -2147483648 to 2147483647, got 2147483648"],
    ['claps lt -2147483649', "field 'claps' expects an integer from -2147483648 to 2147483647, got -2147483649"],
    ['claps gt 1e308', "field 'claps' expects an integer from -2147483648 to 2147483647, got 1e+308"],
    ['claps in (1, 2.5)', "field 'claps' expects an integer from -2147483648 to 2147483647, got 2.5"],
    ['claps between 0 and 1e10', "field 'claps' expects an integer from -2147483648 to 2147483647, got 10000000000"],
  ])('posts: %s is a 400 naming claps', async (filter, message) => {
    for (const list of lists()) expect400(await call(server, 'GET', `${list.path}${query({ $filter: filter })}`, { key: list.key }), `$filter: ${message}`);
  });

  it.each(['claps ge 0', 'claps le 2147483647', 'claps gt -2147483648', 'claps eq 0 or claps between -5 and 5'])('posts: %s is answered', async (filter) => {
    for (const list of lists()) {
      const response = await call(server, 'GET', `${list.path}${query({ $filter: filter })}`, { key: list.key });
      expect(response.status, response.text).toBe(200);
    }
  });

  it.each([
    ['price gt 1e308', "field 'price' expects a number from 0 to 1000000000000, got 1e+308"],
    ['price gt -1', "field 'price' expects a number from 0 to 1000000000000, got -1"],
    ['originalPrice le 1000000000001', "field 'originalPrice' expects a number from 0 to 1000000000000, got 1000000000001"],
    ['price in (1, 2e12)', "field 'price' expects a number from 0 to 1000000000000, got 2000000000000"],
  ])('products: %s is a 400 naming the field', async (filter, message) => {
    expect400(await call(server, 'GET', `/products${query({ $filter: filter })}`, { key: server.a.key }), `$filter: ${message}`);
  });

  it('a price that can be stored can be filtered for, and one that cannot be filtered for cannot be stored', async () => {
    const stored = await call(server, 'POST', '/products', { key: server.a.key, body: { title: 'Top price', price: 1e12, originalPrice: 0.000001 } });
    expect(stored.status, stored.text).toBe(201);
    const found = await call(server, 'GET', `/products${query({ $filter: 'price eq 1000000000000 and originalPrice eq 0.000001' })}`, { key: server.a.key });
    expect(found.status, found.text).toBe(200);
    expect(found.body.items.map((item: { id: string }) => item.id)).toEqual([stored.body.id]);
    expect400(await call(server, 'POST', '/products', { key: server.a.key, body: { title: 'Over', price: 1e12 + 1 } }), 'price must not be greater than 1000000000000');
    expect400(await call(server, 'POST', '/products', { key: server.a.key, body: { title: 'Under', originalPrice: -0.01 } }), 'originalPrice must not be less than 0');
  });
});

describe('dates are valid instants between 1970 and 9999 UTC', () => {
  it.each([
    ['9999-12-31T23:59:59-23:59', 'the last second of 9999 at -23:59 (year 10000 in UTC)'],
    ['9999-12-31T23:00:00-01:00', 'an hour past 9999 in UTC'],
    ['1970-01-01T00:30:00+01:00', 'before 1970 in UTC'],
    ['1969-12-31T23:59:59.999Z', 'the last millisecond of 1969'],
  ])('publishDate %s (%s) is a 400', async (publishDate) => {
    for (const action of ['schedule', 'suggest']) {
      const response = await call(server, 'POST', '/post-requests', { key: server.a.key, body: { action, text: 'Far away', publishDate } });
      expect400(response, 'publishDate must be between 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z (UTC, after its offset is applied)');
    }
  });

  it('a post scheduled in the last second of 9999 UTC is accepted and not listed before its time', async () => {
    const response = await call(server, 'POST', '/post-requests', { key: server.a.key, body: { action: 'schedule', text: 'Last second', publishDate: '9999-12-31T23:59:59.999Z' } });
    expect(response.status, response.text).toBe(201);
    await expectNeverListed(response.body.body.requestId);
  });

  it('a post stored before this check with a date past 9999 is never listed and never published', async () => {
    const post = await call(server, 'POST', '/post-requests', { key: server.a.key, body: { action: 'schedule', text: 'Stored far away', publishDate: '9999-01-01T00:00:00Z' } });
    const id = post.body.body.requestId as string;
    // As the service stored it before: `new Date('9999-12-31T23:59:59-23:59').toISOString()`.
    await server.database.db.updateTable('posts').set({ published_date: '+010000-01-01T23:58:59.000Z' }).where('id', '=', id).execute();
    const published = await new PostStore(server.database.db, server.database.dialect).publishDuePosts();
    expect(published).not.toContain(id);
    await expectNeverListed(id);
  });

  /** Not in any of the three post lists, and no list shows a date that is not four-digit-year ISO. */
  async function expectNeverListed(id: string) {
    const answers = [
      await call(server, 'GET', '/posts?%24limit=30', { key: server.a.key }),
      await call(server, 'GET', `/${server.a.id}/posts?%24limit=30`),
      await call(server, 'GET', '/public-posts?limit=30', { key: server.a.key }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.text).not.toContain(id);
      expect(answer.text).not.toMatch(/"[+-]\d{6}-/);
    }
  }

  it.each([
    ['/contacts', "created lt '9999-12-31T23:00-05:00'", 'created'],
    ['/contacts', "updated gt '1969-12-31'", 'updated'],
    ['/products', "created between '1960-01-01' and '2030-01-01'", 'created'],
    ['/collections', "updated in ('2026-01-01', '0001-01-01')", 'updated'],
    ['/workspaces', "created ge '1969-12-31T23:59:59Z'", 'created'],
    ['/posts', "publishedDate lt '9999-12-31T23:59:59-23:59'", 'publishedDate'],
  ])('%s?$filter=%s is a 400 naming the field', async (path, filter, field) => {
    const response = await call(server, 'GET', `${path}${query({ $filter: filter })}`, { key: server.a.key });
    expect400(response, new RegExp(`^\\$filter: field '${field}' expects a date between 1970-01-01T00:00:00\\.000Z and 9999-12-31T23:59:59\\.999Z \\(UTC\\), got '`));
  });

  it.each([
    ['/contacts', "created lt '9999-12-31T23:59:59.999Z' and created ge '1970-01-01'"],
    ['/posts', "publishedDate gt '1970-01-01T01:00:00+01:00'"],
    [`/{workspaceId}/posts`, "publishedDate le '9999-12-31'"],
  ])('%s?$filter=%s at the edges of the range is answered', async (path, filter) => {
    const response = await call(server, 'GET', `${path.replace('{workspaceId}', server.a.id)}${query({ $filter: filter })}`, { key: server.a.key });
    expect(response.status, response.text).toBe(200);
  });
});
