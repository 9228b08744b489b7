/**
 * Hostile input (docs/decisions.md section 3: "No input, however malformed, may produce a 500"): malformed query
 * strings, filters, bodies and paths each answer a 4xx with the documented error body and a message naming the
 * problem, and afterwards the service still answers and its tables are intact. Real server, temp SQLite file.
 */
import fc from 'fast-check';
import { faker } from '@faker-js/faker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeContacts, insertContacts } from '../db/seed';
import { type CallResult, type TestServer, call, query, startServer } from './harness';

const SEEDED = 40;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let server: TestServer;
let contactId: string;
/** Contacts the body table managed to create (a deeply nested `follows` may legitimately be accepted). */
let createdByTable = 0;

beforeAll(async () => {
  server = await startServer();
  faker.seed(7);
  await insertContacts(server.database.db, fakeContacts(server.a.id, SEEDED - 1));
  const created = await call(server, 'POST', '/contacts', { key: server.a.key, body: { name: 'Target', email: 'target@example.com', tags: ['keep'] } });
  expect(created.status).toBe(201);
  contactId = created.body.id;
});
afterAll(() => server?.close());

/** The documented error body with `status`, `path` (no query string) and a message matching `message`. */
function expectError(response: CallResult, status: number, path: string, message: RegExp | string) {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.body).toEqual({ traceId: expect.any(String), message: expect.any(String), path, timestamp: expect.stringMatching(ISO), statusCode: status });
  expect(response.headers.get('x-trace-id')).toBe(response.body.traceId);
  expect(response.body.traceId).not.toBe('');
  if (typeof message === 'string') expect(response.body.message).toBe(message);
  else expect(response.body.message).toMatch(message);
}

const nested = (depth: number, inner: string) => `${'('.repeat(depth)}${inner}${')'.repeat(depth)}`;

describe('hostile query strings on GET /contacts answer 400', () => {
  const filterCases: [string, string, RegExp | string][] = [
    ['SQL injection with or 1=1 and a comment', "name eq 'x' or 1=1 --", "$filter: unexpected token '1' at position 15"],
    ['SQL injection closing the string and dropping a table', "name eq ''; DROP TABLE contacts; --'", "$filter: unexpected token ';' at position 10"],
    ['an unterminated string', "name eq 'abc", '$filter: unterminated string starting at position 8'],
    ['a stray closing quote', "name eq abc'", "$filter: unexpected token 'abc' at position 8"],
    ['an unclosed parenthesis', "(name eq 'a'", '$filter: unexpected end of input at position 12'],
    ['an unopened parenthesis', "name eq 'a')", "$filter: unexpected token ')' at position 11"],
    ['10,000 nested parentheses', '('.repeat(10_000), '$filter: filter is longer than 2000 characters'],
    ['nesting 11 levels deep', nested(11, "name eq 'a'"), '$filter: filter is nested deeper than 10 levels'],
    ['2,001 characters', `name eq '${'x'.repeat(2001 - 10)}'`, '$filter: filter is longer than 2000 characters'],
    ['51 comparisons', Array.from({ length: 51 }, (_, i) => `name eq '${i}'`).join(' or '), '$filter: filter has more than 50 comparisons'],
    ['101 values in one in', `name in (${Array.from({ length: 101 }, (_, i) => `'v${i}'`).join(', ')})`, /^\$filter: 'in' list has more than 100 values at position \d+$/],
    ['a number over the double range', 'name eq 1e400', "$filter: invalid number '1e400' at position 8"],
    ['a 400-digit number', `name eq ${'9'.repeat(400)}`, `$filter: invalid number '${'9'.repeat(400)}' at position 8`],
    ['an unknown field', "foo eq 'x'", /^\$filter: unknown field 'foo'; filterable fields are id, name, /],
    ['a field that is listed but not filterable', "bio eq 'x'", /^\$filter: unknown field 'bio'/],
    ['a field name in the wrong case', "Name eq 'x'", /^\$filter: unknown field 'Name'/],
    ['a word that is not a date against created', "created eq 'yesterday'", "$filter: field 'created' expects an ISO 8601 date, got 'yesterday'"],
    ['a number against a text field', 'state eq 5', "$filter: field 'state' expects a string, got 5"],
    ['a boolean against a text field', 'state eq true', /^\$filter: field 'state' expects a string, got true$/],
    ['like on the tags array', "tags like 'v'", "$filter: like applies to text fields, not 'tags'"],
    ['an ordering operator on the tags array', "tags gt 'v'", /^\$filter: operator 'gt' does not apply to string-array field 'tags'/],
    ['null with an ordering operator', 'name gt null', '$filter: null can only be compared with eq or ne'],
    ['an unknown operator', "name eqq 'x'", "$filter: unexpected token 'eqq' at position 5"],
    ['a lone keyword', 'and', "$filter: unexpected token 'and' at position 0"],
    ['nothing but spaces', '   ', '$filter: empty filter'],
    ['an empty value', '', '$filter: empty filter'],
  ];

  it.each(filterCases)('$filter with %s', async (_name, filter, message) => {
    expectError(await call(server, 'GET', `/contacts${query({ $filter: filter })}`, { key: server.a.key }), 400, '/api/contacts', message);
  });

  const rawCases: [string, string, RegExp | string][] = [
    ['a NUL byte as the filter', '$filter=%00', /^\$filter: unexpected token '\0' at position 0$/],
    ['a NUL byte between field and operator', "$filter=name%00eq%20'a'", /^\$filter: unexpected token '\0' at position 4$/],
    ['an invalid UTF-8 escape as the filter', '$filter=%FF', /^\$filter: unexpected token/],
    ['an invalid UTF-8 escape as the operator', "$filter=name%20%FF%FE%20'a'", /^\$filter: unexpected token/],
    ['an invalid UTF-8 escape as a parameter name', '%FF=1', 'property %FF should not exist'],
    ['an invalid UTF-8 escape as $limit', '$limit=%FF', '$limit must be a non-negative integer'],
    ['a NUL byte after $limit', '$limit=1%00', '$limit must be a non-negative integer'],
    ['a NUL byte inside a filter string', "$filter=name%20eq%20'a%00b'", /^\$filter: unexpected token '\0' at position 10$/],
    ['$limit given twice', '$limit=1&$limit=2', /^\$limit must be given once$/],
    ['$filter given twice', "$filter=name%20eq%20'a'&$filter=name%20eq%20'b'", /^\$filter must be given once$/],
    ['$limit of -1', '$limit=-1', '$limit must be a non-negative integer'],
    ['$limit of 0', '$limit=0', '$limit must not be less than 1'],
    ['$limit of 101', '$limit=101', '$limit must not be greater than 100'],
    ['$limit of 1.5', '$limit=1.5', '$limit must be a non-negative integer'],
    ['$limit of abc', '$limit=abc', '$limit must be a non-negative integer'],
    ['$limit of 20 digits', '$limit=99999999999999999999', '$limit must be a non-negative integer'],
    ['$limit empty', '$limit=', '$limit must be a non-negative integer'],
    ['$offset of -1', '$offset=-1', '$offset must be a non-negative integer'],
    ['$offset of 1e3', '$offset=1e3', '$offset must be a non-negative integer'],
    ['$orderBy of an unknown field', '$orderBy=foo', /^\$orderBy: cannot sort by 'foo'; sortable fields are name, email, phone, state, city, created, updated$/],
    ['$orderBy of a field that cannot be sorted', '$orderBy=tags%20desc', /^\$orderBy: cannot sort by 'tags'/],
    ['$orderBy with an unknown direction', '$orderBy=name%20up', "$orderBy: expected 'asc' or 'desc' after 'name' at position 5"],
    ['$orderBy empty', '$orderBy=', '$orderBy: empty $orderBy'],
    ['$orderBy with a trailing comma', '$orderBy=name,', '$orderBy: expected a field name at position 5'],
    ['$orderBy naming a field twice', '$orderBy=name,name%20desc', "$orderBy: field 'name' appears twice"],
    ['$orderBy with SQL in it', '$orderBy=name;DROP%20TABLE%20contacts', /^\$orderBy: invalid field name 'name;DROP' at position 0$/],
    ['an unknown parameter', '$select=name', 'property $select should not exist'],
  ];

  it.each(rawCases)('%s', async (_name, raw, message) => {
    expectError(await call(server, 'GET', `/contacts?${raw}`, { key: server.a.key }), 400, '/api/contacts', message);
  });

  it('treats a quote-escaped injection as a literal value: 200, nothing matches, nothing changes', async () => {
    const response = await call(server, 'GET', `/contacts${query({ $filter: "name eq 'x'' or ''1''=''1'" })}`, { key: server.a.key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ items: [], meta: { maxResults: 0 } });
  });

  it('finds a contact whose name really is the injection text, and only it', async () => {
    const name = "x' or '1'='1";
    expect((await call(server, 'POST', '/contacts', { key: server.b.key, body: { name } })).status).toBe(201);
    const response = await call(server, 'GET', `/contacts${query({ $filter: "name eq 'x'' or ''1''=''1'" })}`, { key: server.b.key });
    expect(response.body.meta.maxResults).toBe(1);
    expect(response.body.items[0].name).toBe(name);
  });
});

describe('hostile bodies answer 4xx, never 500', () => {
  let deep = '0';
  for (let i = 0; i < 100_000; i++) deep = `[${deep}]`;
  const deepObject = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;

  type BodyCase = {
    name: string;
    method?: 'POST' | 'PATCH';
    target?: 'contacts' | 'tags';
    raw?: string;
    body?: unknown;
    contentType?: string;
    status: number | number[];
    message?: RegExp | string;
  };
  const cases: BodyCase[] = [
    { name: 'malformed JSON', raw: '{"name":', status: 400, message: /^Malformed JSON/ },
    { name: 'malformed JSON with a trailing comma', raw: '{"name":"a",}', status: 400, message: /^Malformed JSON/ },
    { name: 'an empty JSON body', raw: '', status: 400, message: /Body cannot be empty/ },
    { name: 'a JSON array', raw: '[]', status: 400, message: 'body must be an object' },
    { name: 'a JSON string', raw: '"name"', status: 400, message: 'body must be an object' },
    { name: 'a JSON number', raw: '5', status: 400, message: 'body must be an object' },
    { name: 'JSON null', raw: 'null', status: 400, message: 'body must be an object' },
    { name: 'a 3 MB body', raw: JSON.stringify({ name: 'x'.repeat(3 * 1024 * 1024) }), status: 413, message: 'Request body is larger than 2 MB' },
    { name: 'text/plain', raw: '{"name":"a"}', contentType: 'text/plain', status: 415, message: /^Unsupported Media Type: text\/plain/ },
    { name: 'form encoding', raw: 'name=a', contentType: 'application/x-www-form-urlencoded', status: 415, message: /^Unsupported Media Type/ },
    { name: 'an unknown field', body: { name: 'a', foo: 1 }, status: 400, message: 'property foo should not exist' },
    { name: 'a number as name', body: { name: 5 }, status: 400, message: 'name must be a string' },
    { name: 'a NUL character in name', body: { name: 'a\u0000b' }, status: 400, message: 'name must not contain the NUL character (U+0000)' },
    { name: 'a NUL character deep in statusTags', body: { statusTags: { a: ['x', { b: '\u0000' }] } }, status: 400, message: 'statusTags.a.1.b must not contain the NUL character (U+0000)' },
    { name: 'a string as addDirectly', body: { addDirectly: 'yes' }, status: 400, message: 'addDirectly must be a boolean' },
    { name: 'a string as tags', body: { tags: 'vip' }, status: 400, message: 'tags must be an array' },
    { name: 'a number inside tags', body: { tags: [1] }, status: 400, message: 'tags.0 must be a string' },
    { name: 'an array as statusTags', body: { statusTags: ['a'] }, status: 400, message: /^statusTags must be an? (object|record)$/ },
    { name: 'a notificationSettings outside the list', body: { email: 'n@example.com', notificationSettings: 'pigeon' }, status: 400, message: 'notificationSettings must be one of email, sms, email,sms, none' },
    { name: '100,000 nested arrays in follows', raw: `{"name":"deep","follows":${deep}}`, status: 400, message: 'follows is nested deeper than 32 levels (the body counts as level 1)' },
    { name: '50,000 nested objects in statusTags', raw: `{"name":"deeper","statusTags":${deepObject}}`, status: 400, message: 'statusTags is nested deeper than 32 levels (the body counts as level 1)' },
    { name: 'a __proto__ key', raw: '{"name":"p","__proto__":{"polluted":true}}', status: 400 },
    { name: 'a nested __proto__ key', raw: '{"name":"p","statusTags":{"__proto__":{"polluted":true}}}', status: 400 },
    { name: 'a constructor.prototype key', raw: '{"name":"p","statusTags":{"constructor":{"prototype":{"polluted":true}}}}', status: 400 },
    { name: 'an invalid email', body: { email: 'not-an-email' }, status: 400, message: 'email must be a valid email address' },
    { name: 'an email with a header injection', body: { email: 'a@example.com\r\nBcc: b@example.com' }, status: 400, message: 'email must be a valid email address' },
    { name: 'a phone with letters', body: { phone: '+47 CALL ME' }, status: 400, message: 'phone must be an E.164 number such as +4712345678' },
    { name: 'a phone without +', body: { phone: '4712345678' }, status: 400, message: 'phone must be an E.164 number such as +4712345678' },
    { name: 'a javascript: URL as image', body: { image: 'javascript:alert(1)' }, status: 400, message: 'image must be an absolute http(s) URL' },
    { name: 'a relative URL as image', body: { image: '/img.png' }, status: 400, message: 'image must be an absolute http(s) URL' },
    { name: 'a tag over 64 characters', body: { tags: ['t'.repeat(65)] }, status: 400, message: 'tags.0 must be at most 64 characters long' },
    { name: 'a blank tag', body: { tags: ['   '] }, status: 400, message: 'tags.0 must not be empty' },
    { name: '101 tags', body: { tags: Array.from({ length: 101 }, (_, i) => `t${i}`) }, status: 400, message: 'tags must contain at most 100 items' },
    { name: 'a name over 1,000 characters', body: { name: 'n'.repeat(1001) }, status: 400, message: 'name must be at most 1000 characters long' },
    { name: 'a bio over 5,000 characters', body: { bio: 'b'.repeat(5001) }, status: 400, message: 'bio must be at most 5000 characters long' },
    { name: 'several problems at once', body: { name: 5, email: 'x', foo: 1 }, status: 400, message: /^(?=.*name must be a string)(?=.*email must be a valid email address)(?=.*property foo should not exist).*; .*; / },
    // PATCH /contacts/{id}/tags
    { name: 'tags: malformed JSON', method: 'PATCH', target: 'tags', raw: '{"tagsToAdd":[', status: 400, message: /^Malformed JSON/ },
    { name: 'tags: a JSON array', method: 'PATCH', target: 'tags', raw: '["vip"]', status: 400, message: 'body must be an object' },
    { name: 'tags: JSON null', method: 'PATCH', target: 'tags', raw: 'null', status: 400, message: 'body must be an object' },
    { name: 'tags: a 3 MB body', method: 'PATCH', target: 'tags', raw: JSON.stringify({ tagsToAdd: ['x'.repeat(3 * 1024 * 1024)] }), status: 413 },
    { name: 'tags: text/plain', method: 'PATCH', target: 'tags', raw: '{"tagsToAdd":["a"]}', contentType: 'text/plain', status: 415 },
    { name: 'tags: an unknown field', method: 'PATCH', target: 'tags', body: { tagsToAdd: ['a'], foo: true }, status: 400, message: 'property foo should not exist' },
    { name: 'tags: a string as tagsToAdd', method: 'PATCH', target: 'tags', body: { tagsToAdd: 'vip' }, status: 400, message: 'tagsToAdd must be an array' },
    { name: 'tags: an object inside tagsToRemove', method: 'PATCH', target: 'tags', body: { tagsToRemove: [{}] }, status: 400, message: 'tagsToRemove.0 must be a string' },
    { name: 'tags: a tag over 64 characters', method: 'PATCH', target: 'tags', body: { tagsToAdd: ['t'.repeat(65)] }, status: 400, message: 'tagsToAdd.0 must be at most 64 characters long' },
    { name: 'tags: 101 tags to add', method: 'PATCH', target: 'tags', body: { tagsToAdd: Array.from({ length: 101 }, (_, i) => `t${i}`) }, status: 400, message: 'tagsToAdd must contain at most 100 items' },
    { name: 'tags: a __proto__ key', method: 'PATCH', target: 'tags', raw: '{"tagsToAdd":["a"],"__proto__":{"polluted":true}}', status: 400 },
    { name: 'tags: 100,000 nested arrays', method: 'PATCH', target: 'tags', raw: `{"tagsToAdd":${deep}}`, status: 400, message: 'tagsToAdd is nested deeper than 32 levels (the body counts as level 1)' },
  ];

  it.each(cases)('$name', async ({ method = 'POST', target = 'contacts', raw, body, contentType = 'application/json', status, message }) => {
    const path = target === 'contacts' ? '/contacts' : `/contacts/${contactId}/tags`;
    const response = await call(server, method, path, { key: server.a.key, rawBody: raw ?? JSON.stringify(body), headers: { 'content-type': contentType } });
    const allowed = Array.isArray(status) ? status : [status];
    expect(allowed, response.text).toContain(response.status);
    if (response.status === 201) {
      createdByTable++;
      return;
    }
    expectError(response, response.status, `/api${path}`, message ?? /\S/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('leaves the target contact tags untouched after every rejected tag edit', async () => {
    const response = await call(server, 'GET', `/contacts${query({ $filter: `id eq '${contactId}'` })}`, { key: server.a.key });
    expect(response.body.items[0].tags).toEqual(['keep']);
  });
});

describe('hostile paths answer an error body, never 500', () => {
  it.each([
    { name: 'a contactId of 10,000 characters', id: 'c'.repeat(10_000), status: 400, message: /path parameter/i },
    { name: 'a contactId of 300 characters', id: 'c'.repeat(300), status: 400, message: 'contactId must be at most 200 characters long' },
    { name: 'a contactId with a NUL byte', id: '%00', status: 400, message: 'contactId must not contain the NUL character (U+0000)' },
    { name: 'a contactId with an invalid UTF-8 escape', id: 'abc%FF', status: 400, message: /not a valid URL/i },
    { name: 'a contactId of SQL', id: encodeURIComponent("' or 1=1 --"), status: 404, message: 'Contact not found' },
  ])('PATCH tags with $name', async ({ id, status, message }) => {
    const path = `/contacts/${id}/tags`;
    const response = await call(server, 'PATCH', path, { key: server.a.key, body: { tagsToAdd: ['x'] } });
    expectError(response, status, `/api${path}`, message);
  });

  it.each([
    { name: 'a contactId of 10,000 characters', id: 'c'.repeat(10_000), status: 400 },
    { name: 'a contactId with a NUL byte', id: '%00', status: 400 },
    { name: 'a contactId with an invalid UTF-8 escape', id: '%FF%FE', status: 400 },
  ])('PATCH notification-settings with $name', async ({ id, status }) => {
    const path = `/contacts/${id}/notification-settings`;
    const response = await call(server, 'PATCH', path, { body: { email: true }, headers: { authorization: server.a.basic } });
    expectError(response, status, `/api${path}`, /\S/);
  });
});

/** A UTF-16 half without its partner: not encodable in a URL, so replaced before sending. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

describe('any $filter string', () => {
  const tokens = ['name', 'tags', 'created', 'state', 'eq', 'ne', 'gt', 'like', 'in', 'between', 'and', 'or', 'not', '(', ')', ',', "'a'", "'vip'", "''", "'2026-01-01'", '1', '-2.5e3', 'null', 'true', '%', "'", '\\'];
  const literal = fc.oneof(
    fc.string({ maxLength: 12 }).map((text) => `'${text.replace(/'/g, "''")}'`),
    fc.constantFrom('null', '1', "'2026-01-01T00:00:00Z'", "'vip'"),
  );
  const comparison = fc
    .tuple(fc.constantFrom('name', 'email', 'state', 'city', 'tags', 'created'), fc.constantFrom('eq', 'ne', 'like', 'ge'), literal)
    .map((parts) => parts.join(' '));
  /** Mostly well-formed filters, so that both answers occur. */
  const filterLike = fc
    .tuple(fc.array(comparison, { minLength: 1, maxLength: 4 }), fc.constantFrom(' and ', ' or ', ' AND '), fc.boolean())
    .map(([parts, joiner, negate]) => `${negate ? 'not ' : ''}(${parts.join(joiner)})`);
  const filterArb = fc.oneof(
    fc.string({ maxLength: 120 }),
    fc.string({ unit: 'binary', maxLength: 60 }).map((text) => text.replace(LONE_SURROGATE, '\uFFFD')),
    fc.array(fc.constantFrom(...tokens), { maxLength: 14 }).map((parts) => parts.join(' ')),
    filterLike,
    // A well-formed filter with one character cut out or doubled.
    fc.tuple(filterLike, fc.nat(), fc.boolean()).map(([text, at, cut]) => {
      const i = at % text.length;
      return cut ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + text[i] + text.slice(i);
    }),
  );

  it('answers 200 or 400, never anything else (300 runs)', async () => {
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(filterArb, async (filter) => {
        const response = await call(server, 'GET', `/contacts${query({ $filter: filter, $limit: 5 })}`, { key: server.a.key });
        seen.add(response.status);
        if (response.status === 400) expect(response.body.message).toMatch(/^\$filter: /);
        return response.status === 200 || response.status === 400;
      }),
      { numRuns: 300, seed: 20260701 },
    );
    expect([...seen].sort()).toEqual([200, 400]);
  }, 60_000);
});

describe('after all of that', () => {
  it('still answers GET /authorization', async () => {
    const response = await call(server, 'GET', '/authorization', { key: server.a.key });
    expect(response.status).toBe(200);
    expect(response.body.feed).toEqual({ id: server.a.id, name: 'Workspace A' });
  });

  it('still counts every seeded contact and keeps its tables', async () => {
    const response = await call(server, 'GET', '/contacts?%24limit=1', { key: server.a.key });
    expect(response.status).toBe(200);
    expect(response.body.meta.maxResults).toBe(SEEDED + createdByTable);
    const tags = await call(server, 'GET', '/contacts/contacts-tags', { key: server.a.key });
    expect(tags.body).toContainEqual({ name: 'keep', count: 1 });
    const tables = await server.database.db.introspection.getTables();
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['contacts', 'contact_tags', 'workspaces', 'api_keys']));
  });
});
