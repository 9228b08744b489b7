/**
 * Fuzz target (issue 12): generated requests over every route of the route table, every method it has (GET, HEAD,
 * POST, PATCH, OPTIONS) and two it has not (PUT, DELETE), with valid-ish and hostile parts: bodies (the endpoint's
 * own shape with stressed values, wrong types, deep nesting, huge numbers, odd unicode, text that is no JSON),
 * content types, keys and Basic credentials, `Accept` (JSON, CSV, xlsx, nonsense), `X-Api-Version`, odd header
 * values, and query strings (good and broken `$filter`s with edge numbers and dates, repeated and unknown
 * parameters, bad percent-encoding). Every answer must be below 500; every error answer the documented error body
 * (`traceId`, `message`, `path`, `timestamp`, `statusCode`, docs/decisions.md section 3) as JSON with `X-Trace-Id`
 * equal to `traceId`; every download readable to its end.
 *
 * The default run sends 2,400 requests, 8 in flight; `FUZZ_RUNS=100000` sends that many, `FUZZ_SEED` changes the
 * fixed seed (README, "Test it"). A failure names the request (method, path, query, headers, body) and the answer. URLs stay under
 * Node's 16 KB header limit and methods are ones HTTP clients send: what Node's own parser refuses before Fastify
 * sees it is issue 12 point 11, tested with raw sockets elsewhere.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XLSX_MEDIA_TYPE } from '../../src/api/contacts';
import { type FieldTable, collectionFilterFields, contactFilterFields, postFilterFields, productFilterFields, workspaceFilterFields } from '../../src/api/filter/fields';
import { collectionBody, contactBody, dateTime, hostileJsonText, notificationPatchBody, postBody, productBody, tagsPatchBody } from './arbitraries';
import { type TestServer, call, startServer } from './harness';

const REQUESTS = Number(process.env.FUZZ_RUNS) || 2400;
const SEED = Number(process.env.FUZZ_SEED) || 20260712;
const IN_FLIGHT = 8;

let server: TestServer;
let contactId: string;
/** Routes of the table as `METHOD /api/path`, and the paths. */
let routes: { method: string; url: string }[];

beforeAll(async () => {
  server = await startServer();
  const created = await call(server, 'POST', '/contacts', { key: server.a.key, body: { name: 'Fuzz', email: 'fuzz@example.com', phone: '+4712345678', tags: ['vip'] } });
  contactId = created.body.id;
  routes = server.app.apiRoutes.map((route) => {
    const [method, url] = route.split(' ') as [string, string];
    return { method, url };
  });
});
afterAll(() => server?.close());

type FuzzRequest = {
  route: { method: string; url: string };
  method: string;
  pathParam: string;
  search: string;
  headers: [string, string][];
  body: { kind: 'json'; value: unknown } | { kind: 'text'; text: string } | { kind: 'none' };
  contentType: string | null;
};

// ---------------------------------------------------------------------------------------------------------------
// Query strings: `$filter`s over the route's own fields (and a few it has not), with edge numbers and dates

/** Filterable fields by route path, from the shared tables; every other route gets all of them. */
const FIELDS_BY_PATH: Record<string, FieldTable> = {
  '/api/contacts': contactFilterFields,
  '/api/products': productFilterFields,
  '/api/collections': collectionFilterFields,
  '/api/posts': postFilterFields,
  '/api/:workspaceId/posts': postFilterFields,
  '/api/workspaces': workspaceFilterFields,
};
const ALL_FIELDS = [...new Set(Object.values(FIELDS_BY_PATH).flatMap((fields) => Object.keys(fields)))];

const filterValue = fc.oneof(
  fc.constantFrom('1.5', '2147483648', '-2147483649', '1e308', '1e400', '-0', '0', '1e12', '1000000000001', '9'.repeat(40), 'null', 'true', "'vip'", "''", "'it''s'"),
  dateTime.map((date) => `'${date}'`),
  fc.constantFrom("'2026-02-30'", "'+010000-01-01'", "'0000-01-01'", "'1969-12-31'", "'9999-12-31T23:59:59-23:59'", "'2026-07-01T10:00'"),
  fc.string({ maxLength: 10 }).map((text) => `'${text.replaceAll("'", "''")}'`),
);
const filterText = (fields: readonly string[]) => {
  const field = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...fields) }, { weight: 1, arbitrary: fc.constantFrom('nope', 'Name', 'bio', ...ALL_FIELDS) });
  const comparison = fc.oneof(
    fc.tuple(field, fc.constantFrom('eq', 'ne', 'gt', 'ge', 'lt', 'le', 'like'), filterValue).map((parts) => parts.join(' ')),
    fc.tuple(field, fc.array(filterValue, { minLength: 1, maxLength: 4 })).map(([name, values]) => `${name} in (${values.join(', ')})`),
    fc.tuple(field, filterValue, filterValue).map(([name, low, high]) => `${name} between ${low} and ${high}`),
  );
  return fc.oneof(
    { weight: 4, arbitrary: comparison },
    { weight: 2, arbitrary: fc.array(comparison, { minLength: 2, maxLength: 3 }).map((parts) => parts.join(' and ')) },
    { weight: 1, arbitrary: fc.tuple(comparison, comparison).map(([a, b]) => `not (${a} or ${b})`) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 30 }).map((n) => `${'('.repeat(n)}${fields[0]} eq 'x'${')'.repeat(n)}`) },
  );
};
const encode = (text: string) => encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
const searchFor = (url: string) => {
  const param = fc.oneof(
    { weight: 4, arbitrary: filterText(Object.keys(FIELDS_BY_PATH[url] ?? {}).length ? Object.keys(FIELDS_BY_PATH[url]!) : ALL_FIELDS).map((text) => `%24filter=${encode(text)}`) },
    {
      weight: 2,
      arbitrary: fc.constantFrom('$limit', '%24limit', '$offset', 'limit').chain((name) =>
        fc.oneof(fc.constantFrom('0', '1', '30', '31', '100', '101', '-1', '1.5', '1e3', 'abc', '', '99999999999999999999'), fc.nat().map(String)).map((value) => `${name}=${value}`),
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom('name', 'name desc', 'created asc, name desc', 'claps desc', 'publishedDate', 'bio', 'name up', 'name,name', '').map((order) => `%24orderBy=${encode(order)}`) },
    { weight: 1, arbitrary: fc.constantFrom('$select=name', 'foo=bar', '%FF=1', '$filter=%FF', '$filter=%00', 'a', '=', '&&', '$filter', '__proto__=1', 'constructor=1') },
  );
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constant('?') },
    { weight: 6, arbitrary: fc.array(param, { minLength: 1, maxLength: 3 }).map((params) => `?${params.join('&')}`) },
    // The same parameter twice.
    { weight: 1, arbitrary: param.map((one) => `?${one}&${one}`) },
  );
};

// ---------------------------------------------------------------------------------------------------------------
// Headers, path parameters, bodies

const header = fc.oneof(
  fc.constantFrom<[string, string]>(
    ['accept', 'text/csv'], ['accept', XLSX_MEDIA_TYPE], ['accept', 'application/json'], ['accept', '*/*'], ['accept', 'text/csv;q=0.5, application/json;q=0.9'],
    ['accept', 'text/csv;q=abc'], ['accept', ',,,;;;'], ['x-api-version', '2026-07'], ['x-api-version', '2025-01'], ['x-api-version', ''],
    ['x-forwarded-for', '1.2.3.4, 5.6.7.8'], ['origin', 'https://evil.example'], ['if-none-match', '*'], ['range', 'bytes=0-10'],
  ),
  fc.tuple(fc.constantFrom('accept', 'x-api-version', 'x-custom', 'accept-language', 'content-language'), fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)), maxLength: 200 })).map(([name, value]) => [name, value] as [string, string]),
  fc.integer({ min: 1, max: 4000 }).map((n) => ['x-long', 'a'.repeat(n)] as [string, string]),
);
const credential = fc.oneof(
  { weight: 6, arbitrary: fc.constant('key') },
  { weight: 1, arbitrary: fc.constantFrom('none', 'badKey', 'otherKey', 'weirdKey', 'basic', 'badBasic', 'garbageBasic') },
);
const pathParam = fc.oneof(
  { weight: 5, arbitrary: fc.constant('valid') },
  { weight: 1, arbitrary: fc.constantFrom('nope', encodeURIComponent("' or 1=1 --"), '%00', '%FF', 'a'.repeat(500), 'a'.repeat(501), '..%2F..%2Fetc', '%F0%9F%98%80', '%20') },
);
/** The route's own body shape, stressed (arbitraries.ts); any of them elsewhere. */
const BODIES_BY_ROUTE: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  'POST /api/contacts': contactBody,
  'POST /api/products': productBody,
  'POST /api/collections': collectionBody,
  'POST /api/post-requests': postBody,
  'PATCH /api/contacts/:contactId/tags': tagsPatchBody,
  'PATCH /api/contacts/:contactId/notification-settings': notificationPatchBody,
};
const anyBody = fc.oneof(...Object.values(BODIES_BY_ROUTE));
const bodyFor = (route: string) =>
  fc.oneof(
    { weight: 4, arbitrary: (BODIES_BY_ROUTE[route] ?? anyBody).map((value) => ({ kind: 'json' as const, value })) },
    { weight: 2, arbitrary: hostileJsonText.map((text) => ({ kind: 'text' as const, text })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  );
const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constantFrom(null, 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'APPLICATION/JSON', 'application/vnd.api+json', ';;', 'application/jsonx') },
);

/** A request to one route of the table (or that route's path with PUT or DELETE), every part generated. */
const requestFor = (route: { method: string; url: string }): fc.Arbitrary<FuzzRequest> =>
  fc.record({
    route: fc.constant(route),
    method: fc.oneof({ weight: 12, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom('PUT', 'DELETE') }),
    pathParam,
    search: searchFor(route.url),
    headers: fc.tuple(credential, fc.array(header, { maxLength: 3 })).map(([who, extra]) => [['x-credential', who] as [string, string], ...extra]),
    body: bodyFor(`${route.method} ${route.url}`),
    contentType,
  });

/** The headers to send for the `x-credential` placeholder. */
function credentialHeaders(who: string): Record<string, string> {
  const basic = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;
  switch (who) {
    case 'key': return { 'x-api-key': server.a.key, authorization: server.a.basic };
    case 'badKey': return { 'x-api-key': `wsk_${'x'.repeat(40)}` };
    case 'otherKey': return { 'x-api-key': server.b.key, authorization: server.b.basic };
    case 'weirdKey': return { 'x-api-key': 'ä\u00ff key with spaces ' };
    case 'basic': return { authorization: server.a.basic };
    case 'badBasic': return { authorization: basic(`wsa_${'x'.repeat(24)}:nope`) };
    case 'garbageBasic': return { authorization: 'Basic !!!not base64' };
    default: return {};
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Sending and checking

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const seen = new Map<string, number>();

async function send(generated: FuzzRequest): Promise<void> {
  const { route, method } = generated;
  const path = route.url.replace(':contactId', generated.pathParam === 'valid' ? contactId : generated.pathParam).replace(':workspaceId', generated.pathParam === 'valid' ? server.a.id : generated.pathParam);
  const headers: Record<string, string> = {};
  for (const [name, value] of generated.headers) Object.assign(headers, name === 'x-credential' ? credentialHeaders(value) : { [name]: value });
  let payload: string | undefined;
  if (method !== 'GET' && method !== 'HEAD' && generated.body.kind !== 'none') {
    payload = generated.body.kind === 'json' ? JSON.stringify(generated.body.value) : generated.body.text;
    if (generated.contentType) headers['content-type'] = generated.contentType;
  }
  const where = `${method} ${path}${generated.search} ${JSON.stringify(headers).slice(0, 300)} ${payload?.slice(0, 300) ?? ''}`;
  const response = await fetch(`${server.baseUrl.replace(/\/api$/, '')}${path}${generated.search}`, { method, headers, body: payload });
  if (response.ok && response.headers.get('content-type')?.startsWith('text/event-stream')) {
    // A `GET /events` stream (docs/decisions.md section 13) never ends by itself: its head is the answer.
    seen.set(`${method} ${route.url} ${response.status}`, (seen.get(`${method} ${route.url} ${response.status}`) ?? 0) + 1);
    expect(response.headers.get('x-trace-id'), where).toMatch(/^[0-9a-f-]{36}$/);
    await response.body?.cancel();
    return;
  }
  const bytes = Buffer.from(await response.arrayBuffer());
  const key = `${method} ${route.url} ${response.status}`;
  seen.set(key, (seen.get(key) ?? 0) + 1);
  expect(response.status, `${where}\n=> ${bytes.toString('utf8', 0, 300)}`).toBeLessThan(500);
  const traceId = response.headers.get('x-trace-id');
  expect(traceId, where).toMatch(/^[0-9a-f-]{36}$/);
  if (method === 'HEAD') {
    expect(bytes.length, where).toBe(0);
    return;
  }
  if (response.status >= 400) {
    const text = bytes.toString('utf8');
    expect(response.headers.get('content-type'), where).toMatch(/^application\/json/);
    expect(JSON.parse(text), where).toEqual({ traceId, message: expect.any(String), path: path.split('?')[0], timestamp: expect.stringMatching(ISO), statusCode: response.status });
  }
}

describe('fuzz: generated requests over every route of the table', () => {
  it(`answers ${REQUESTS} requests with no 5xx, every error in the documented error body`, async () => {
    // Generated up front from the seed (the same requests every run), then sent IN_FLIGHT at a time with no
    // barrier between them, so a slow one (Basic credentials cost an scrypt) does not hold the others up.
    const requests = fc.sample(fc.oneof(...routes.map(requestFor)), { numRuns: REQUESTS, seed: SEED });
    let next = 0;
    const worker = async () => {
      while (next < requests.length) await send(requests[next++]!);
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    // Every route was reached, and most with more than a refusal.
    const reached = new Set([...seen.keys()].map((key) => key.split(' ').slice(0, 2).join(' ')));
    for (const route of routes) expect(reached, `${route.method} ${route.url}`).toContain(`${route.method} ${route.url}`);
    const succeeded = new Set([...seen.keys()].filter((key) => /\s2\d\d$/.test(key)).map((key) => key.split(' ').slice(0, 2).join(' ')));
    expect(succeeded.size).toBeGreaterThan(routes.length / 2);
    // A bound for a hang, not a speed target: beside the browser tests on a loaded two-core machine the 2,400 requests
    // took 50 to 111 s on PostgreSQL (clean-clone runs of stops 61 and 62), and one run went past the old 120 s.
  }, Math.max(300_000, REQUESTS * 125));

  it('leaves the service answering', async () => {
    const response = await call(server, 'GET', '/contacts?%24limit=1', { key: server.a.key });
    expect(response.status).toBe(200);
  });
});
