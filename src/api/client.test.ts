/**
 * The typed client against the real service (server/test/harness.ts: temp SQLite file, workspaces A and B): every
 * method's success shape and at least one error mapping, the ApiError fields, the version and auth headers, and
 * percent-encoding of filters and path parameters. Two tiny node:http servers stand in for what sits between the
 * client and a service (a proxy's HTML error page, a hosted service answering an unexpected shape); a closed
 * port stands in for a network failure.
 */
import { once } from 'node:events';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startServer } from '../../server/test/harness';
import { createBasicCredential } from '../../server/db/credentials';
import { ApiError, ApiNetworkError, ApiResponseError, isAbortError, isApiError, isAuthError } from './api-error';
import { type ApiClient, type ApiClientOptions, createApiClient } from './client';
import { API_VERSION } from './common';
import { and, compare, inList } from './filter/ast';

let server: TestServer;
let api: ApiClient;

/** What the client put on the wire, seen by wrapping the real fetch (the service still answers every request). */
type Seen = { url: string; method: string; headers: Headers; cache: RequestCache | undefined; credentials: RequestCredentials | undefined; referrerPolicy: ReferrerPolicy | undefined; response: Response };
const seen: Seen[] = [];
const recordingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  seen.push({ url: String(input), method: init?.method ?? 'GET', headers: new Headers(init?.headers), cache: init?.cache, credentials: init?.credentials, referrerPolicy: init?.referrerPolicy, response });
  return response;
};
const last = (): Seen => {
  const entry = seen.at(-1);
  if (!entry) throw new Error('no request seen');
  return entry;
};

/** A client of workspace A (all scopes) that records its requests. */
const clientOf = (options: Partial<ApiClientOptions> = {}) => createApiClient({ baseUrl: server.baseUrl, apiKey: server.a.key, fetch: recordingFetch, ...options });

/** Resolves to the rejection of `promise`, failing when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** Resolves to the ApiError `promise` rejects with. */
async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await rejection(promise);
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

/** A loopback HTTP server answering every request with `handler`; closed by the returned function. */
async function stubServer(handler: (request: IncomingMessage, response: ServerResponse) => void) {
  const stub = createServer(handler);
  stub.listen(0, '127.0.0.1');
  await once(stub, 'listening');
  const { port } = stub.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/api`, close: () => new Promise<void>((resolve) => stub.close(() => resolve())) };
}

let contactCounter = 0;
const uniqueEmail = () => `client-${Date.now()}-${++contactCounter}@example.com`;

beforeAll(async () => {
  server = await startServer();
  api = clientOf();
});
afterAll(() => server.close());

describe('headers', () => {
  it('sends x-api-key, X-Api-Version 2026-07 and Accept: application/json on keyed calls', async () => {
    await api.authorization();
    const { headers, method, url } = last();
    expect(method).toBe('GET');
    expect(url).toBe(`${server.baseUrl}/authorization`);
    expect(headers.get('x-api-key')).toBe(server.a.key);
    expect(headers.get('x-api-version')).toBe(API_VERSION);
    expect(headers.get('accept')).toBe('application/json');
    expect(headers.get('authorization')).toBeNull();
  });

  it('sends every call past the HTTP cache (no-store), without cookies or a referrer: reads and writes alike', async () => {
    await api.listContacts({ limit: 1 });
    expect(last()).toMatchObject({ cache: 'no-store', credentials: 'omit', referrerPolicy: 'no-referrer' });
    await api.createContact({ email: uniqueEmail() });
    expect(last()).toMatchObject({ method: 'POST', cache: 'no-store', credentials: 'omit', referrerPolicy: 'no-referrer' });
  });

  it('joins a base URL with a trailing slash without doubling it', async () => {
    await clientOf({ baseUrl: `${server.baseUrl}/` }).authorization();
    expect(last().url).toBe(`${server.baseUrl}/authorization`);
  });

  it('sends the version given instead, and the service refuses an unknown one with a 400', async () => {
    const error = await apiError(clientOf({ version: '2025-01' }).authorization());
    expect(last().headers.get('x-api-version')).toBe('2025-01');
    expect(error.status).toBe(400);
    expect(error.message).toBe('API version 2025-01 is not supported.');
  });

  it('sends no version header with version: null, which the service reads as 2026-07', async () => {
    const authorization = await clientOf({ version: null }).authorization();
    expect(last().headers.get('x-api-version')).toBeNull();
    expect(authorization.status).toBe('OK');
  });
});

describe('authorization()', () => {
  it('answers the key workspace, organization and permissions', async () => {
    const authorization = await api.authorization();
    expect(authorization).toEqual({
      status: 'OK',
      feed: { id: server.a.id, name: 'Workspace A' },
      organization: { id: server.organizationId, name: 'Test Organization' },
      permissions: { feeds: 'read-write', products: 'read-write', contacts: 'read-write', posts: 'read-write' },
    });
  });

  it('rejects an unknown key with an ApiError 401 that isAuthError', async () => {
    const error = await apiError(clientOf({ apiKey: `wsk_${'x'.repeat(40)}` }).authorization());
    expect(error.status).toBe(401);
    expect(error.message).toBe('Invalid API key');
    expect(isApiError(error)).toBe(true);
    expect(isAuthError(error)).toBe(true);
  });

  it('rejects a client without a key with a 401 (it sends no x-api-key at all)', async () => {
    const error = await apiError(clientOf({ apiKey: undefined }).authorization());
    expect(last().headers.has('x-api-key')).toBe(false);
    expect(error.status).toBe(401);
  });
});

describe('ApiError fields', () => {
  it('carries status, the error body, and a traceId equal to the X-Trace-Id header', async () => {
    const error = await apiError(api.listContacts({ filter: "name eqq 'x'" }));
    const traceHeader = last().response.headers.get('x-trace-id');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ApiError');
    expect(error.status).toBe(400);
    expect(error.body).toEqual({ traceId: traceHeader, message: error.message, path: '/api/contacts', timestamp: expect.any(String), statusCode: 400 });
    expect(error.message).toMatch(/^\$filter: /);
    expect(error.traceId).toBe(traceHeader);
    expect(error.traceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.retryAfter).toBeNull();
    expect(error.endpoint).toBe('GET /contacts');
    expect(error.url).toBe(`${server.baseUrl}/contacts?%24filter=name%20eqq%20'x'`);
    expect(isAuthError(error)).toBe(false);
  });

  it('reads retryAfter in seconds from a 429 of a rate-limited service', async () => {
    const limited = await startServer({ rateLimitPerMinute: 3 });
    try {
      const client = createApiClient({ baseUrl: limited.baseUrl, apiKey: limited.a.key, fetch: recordingFetch });
      for (let i = 0; i < 3; i++) await client.authorization();
      const error = await apiError(client.authorization());
      expect(error.status).toBe(429);
      expect(error.message).toBe('ThrottlerException: Too Many Requests');
      expect(error.retryAfter).toBe(Number(last().response.headers.get('retry-after')));
      expect(error.retryAfter).toBeGreaterThan(0);
      expect(error.retryAfter).toBeLessThanOrEqual(60);
      expect(error.traceId).toBe(last().response.headers.get('x-trace-id'));
      expect(error.body?.statusCode).toBe(429);
      expect(isAuthError(error)).toBe(false);
    } finally {
      await limited.close();
    }
  });

  it('turns a proxy HTML error page into "HTTP 502 Bad Gateway" plus its text, with body null and the X-Trace-Id header', async () => {
    const page = `<html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx/1.27</center>${'<p>padding</p>'.repeat(50)}</body></html>`;
    const proxy = await stubServer((_request, response) => {
      response.writeHead(502, 'Bad Gateway', { 'Content-Type': 'text/html', 'X-Trace-Id': 'proxy-trace-1', 'Retry-After': '7' });
      response.end(page);
    });
    try {
      const error = await apiError(createApiClient({ baseUrl: proxy.baseUrl, apiKey: server.a.key }).listContacts({ limit: 5 }));
      expect(error.status).toBe(502);
      expect(error.body).toBeNull();
      expect(error.traceId).toBe('proxy-trace-1');
      expect(error.retryAfter).toBe(7);
      expect(error.message.startsWith('HTTP 502 Bad Gateway: 502 Bad Gateway 502 Bad Gateway nginx/1.27 padding')).toBe(true);
      expect(error.message).not.toContain('<');
      expect(error.message).not.toContain('color:red');
      expect(error.message.length).toBeLessThanOrEqual('HTTP 502 Bad Gateway: '.length + 201);
    } finally {
      await proxy.close();
    }
  });

  it('takes the message of a JSON error that is not a full error body (a hosted 403 Forbidden resource)', async () => {
    const hosted = await stubServer((_request, response) => {
      response.writeHead(403, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ statusCode: 403, message: 'Forbidden resource', error: 'Forbidden' }));
    });
    try {
      const error = await apiError(createApiClient({ baseUrl: hosted.baseUrl }).authorization());
      expect(error.status).toBe(403);
      expect(error.message).toBe('Forbidden resource');
      expect(error.body).toBeNull();
      expect(error.traceId).toBeNull();
      expect(isAuthError(error)).toBe(true);
    } finally {
      await hosted.close();
    }
  });

  it('rejects a 2xx answer of an unexpected shape with an ApiResponseError naming the endpoint and the issues', async () => {
    const hosted = await stubServer((request, response) => {
      response.writeHead(200, { 'Content-Type': request.url?.startsWith('/api/authorization') ? 'application/json' : 'text/html' });
      response.end(request.url?.startsWith('/api/authorization') ? JSON.stringify({ status: 'OK', feed: { id: 1 }, permissions: {} }) : '<!doctype html><title>Dashboard</title>');
    });
    try {
      const client = createApiClient({ baseUrl: hosted.baseUrl, apiKey: server.a.key });
      const shape = await apiError(client.authorization());
      expect(shape).toBeInstanceOf(ApiResponseError);
      expect(shape.status).toBe(200);
      expect(shape.message).toBe('GET /authorization answered an unexpected shape: feed.id must be a string; feed.name is required; organization is required');
      expect((shape as ApiResponseError).issues.length).toBe(3);
      const html = await apiError(client.listWorkspaces());
      expect(html).toBeInstanceOf(ApiResponseError);
      expect(html.message).toBe('GET /workspaces answered 200 with text/html, not JSON: Dashboard');
    } finally {
      await hosted.close();
    }
  });

  it('keeps unknown fields of a loose answer (hosted services add fields)', async () => {
    const hosted = await stubServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ status: 'OK', feed: { id: 'f', name: 'F', plan: 'pro' }, organization: { id: 'o', name: 'O' }, permissions: {}, region: 'eu' }));
    });
    try {
      const authorization = await createApiClient({ baseUrl: hosted.baseUrl, apiKey: server.a.key }).authorization();
      expect(authorization).toMatchObject({ region: 'eu', feed: { plan: 'pro' } });
    } finally {
      await hosted.close();
    }
  });

  it('reports a closed port as an ApiNetworkError with status 0 and the URL in the message', async () => {
    const closed = await stubServer(() => undefined);
    await closed.close();
    const error = await apiError(createApiClient({ baseUrl: closed.baseUrl, apiKey: server.a.key }).listContacts({ limit: 1 }));
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect(error.status).toBe(0);
    expect(error.body).toBeNull();
    expect(error.message).toContain(`GET ${closed.baseUrl}/contacts?%24limit=1`);
    expect(error.message).toMatch(/^Network error: /);
    expect(isApiError(error)).toBe(true);
    expect(isAuthError(error)).toBe(false);
  });

  it('rejects with the AbortError, not an ApiError, when the signal aborts', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(api.listContacts({ signal: controller.signal }));
    expect(isAbortError(error)).toBe(true);
    expect(isApiError(error)).toBe(false);
  });
});

describe('contacts', () => {
  it('createContact answers 201 { id, state, name, email, phone, image }', async () => {
    const email = uniqueEmail();
    const created = await api.createContact({ name: 'Ann Client', email, phone: '+47 (900) 11-222' });
    expect(created).toEqual({ id: expect.any(String), state: 'pending', name: 'Ann Client', email, phone: '+4790011222', image: null });
    expect(last().headers.get('content-type')).toBe('application/json');
  });

  it('createContact maps a duplicate email to a 409 and an invalid one to a 400', async () => {
    const email = uniqueEmail();
    await api.createContact({ email });
    const duplicate = await apiError(api.createContact({ email: email.toUpperCase() }));
    expect(duplicate.status).toBe(409);
    expect(duplicate.message).toBe(`A contact with email ${email.toUpperCase()} already exists`);
    const invalid = await apiError(api.createContact({ email: 'not-an-email' }));
    expect(invalid.status).toBe(400);
    expect(invalid.message).toBe('email must be a valid email address');
  });

  it('listContacts answers the list envelope and sends $-parameters percent-encoded', async () => {
    const a = await api.createContact({ name: 'Zeta Lister', email: uniqueEmail(), tags: ['lister'] });
    const b = await api.createContact({ name: 'Alpha Lister', email: uniqueEmail(), tags: ['lister'] });
    const list = await api.listContacts({ filter: compare('tags', 'eq', 'lister'), orderBy: [{ field: 'name', direction: 'asc' }], offset: 0, limit: 10 });
    expect(last().url).toBe(`${server.baseUrl}/contacts?%24offset=0&%24limit=10&%24filter=tags%20eq%20'lister'&%24orderBy=name%20asc`);
    expect(list.meta.maxResults).toBe(2);
    expect(list.items.map((item) => item.id)).toEqual([b.id, a.id]);
    expect(list.items[0]).toMatchObject({ name: 'Alpha Lister', feedId: server.a.id, state: 'pending', tags: ['lister'], notificationSettings: { email: true, sms: false } });
    const text = await api.listContacts({ filter: "tags eq 'lister'", orderBy: 'name desc', limit: 1 });
    expect(text.items.map((item) => item.id)).toEqual([a.id]);
    expect(text.meta.maxResults).toBe(2);
  });

  it('listContacts omits parameters that are undefined', async () => {
    await api.listContacts({ offset: undefined, limit: 2, filter: undefined, orderBy: [] });
    expect(last().url).toBe(`${server.baseUrl}/contacts?%24limit=2`);
  });

  it('listContacts maps a missing scope to a 403 that isAuthError, and a $limit above 100 to a 400', async () => {
    const postsOnly = clientOf({ apiKey: await server.keyWith(server.a, ['posts:read-only']) });
    const forbidden = await apiError(postsOnly.listContacts());
    expect(forbidden.status).toBe(403);
    expect(forbidden.message).toBe('Missing scope contacts:read-only');
    expect(isAuthError(forbidden)).toBe(true);
    const tooMany = await apiError(api.listContacts({ limit: 101 }));
    expect(tooMany.status).toBe(400);
    expect(tooMany.message).toBe('$limit must not be greater than 100');
  });

  it('listContactTags answers the tag counts as an array', async () => {
    await api.createContact({ email: uniqueEmail(), tags: ['tag-count-x', 'tag-count-y'] });
    await api.createContact({ email: uniqueEmail(), tags: ['tag-count-x'] });
    const tags = await api.listContactTags();
    expect(Array.isArray(tags)).toBe(true);
    expect(tags).toEqual(expect.arrayContaining([{ name: 'tag-count-x', count: 2 }, { name: 'tag-count-y', count: 1 }]));
    const forbidden = await apiError(clientOf({ apiKey: await server.keyWith(server.a, ['products:read-write']) }).listContactTags());
    expect(forbidden.status).toBe(403);
  });

  it('listContactTags accepts a list envelope too and returns its items', async () => {
    const hosted = await stubServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ items: [{ name: 'vip', count: 3, colour: 'red' }], meta: { maxResults: 1 } }));
    });
    try {
      expect(await createApiClient({ baseUrl: hosted.baseUrl, apiKey: 'k' }).listContactTags()).toEqual([{ name: 'vip', count: 3, colour: 'red' }]);
    } finally {
      await hosted.close();
    }
  });

  it('patchContactTags resolves to undefined on 204 and the tags change', async () => {
    const contact = await api.createContact({ email: uniqueEmail(), tags: ['old-tag'] });
    await expect(api.patchContactTags(contact.id, { tagsToAdd: ['new-tag'], tagsToRemove: ['old-tag'] })).resolves.toBeUndefined();
    expect(last().response.status).toBe(204);
    const listed = await api.listContacts({ filter: compare('id', 'eq', contact.id) });
    expect(listed.items[0]?.tags).toEqual(['new-tag']);
  });

  it('patchContactTags maps an unknown contact to 404 and an empty patch to 400', async () => {
    const missing = await apiError(api.patchContactTags('no-such-contact', { tagsToAdd: ['x'] }));
    expect(missing.status).toBe(404);
    expect(missing.message).toBe('Contact not found');
    expect(missing.endpoint).toBe('PATCH /contacts/{contactId}/tags');
    const empty = await apiError(api.patchContactTags('no-such-contact', { tagsToAdd: [] }));
    expect(empty.status).toBe(400);
  });

  it('percent-encodes path parameters, so an id with / ? # % reaches the same route', async () => {
    const error = await apiError(api.patchContactTags('a/b?c#d%e f', { tagsToAdd: ['x'] }));
    expect(last().url).toBe(`${server.baseUrl}/contacts/a%2Fb%3Fc%23d%25e%20f/tags`);
    expect(error.status).toBe(404);
    expect(error.message).toBe('Contact not found');
    await expect(api.patchContactTags('..', { tagsToAdd: ['x'] })).rejects.toThrow(RangeError);
  });

  it('patchNotificationSettings uses Basic credentials, no key and no version header, and activates the contact', async () => {
    const { accessKey, secret } = await createBasicCredential(server.database.db, server.a.id);
    const withBasic = clientOf({ basic: { accessKey, secret } });
    const contact = await api.createContact({ name: 'Basic Person', email: uniqueEmail() });
    expect(contact.state).toBe('pending');
    const updated = await withBasic.patchNotificationSettings(contact.id, { email: false });
    expect(updated).toEqual({ id: contact.id, feedId: server.a.id, name: 'Basic Person', email: contact.email, phone: null, image: null, state: 'active' });
    const { headers, method } = last();
    expect(method).toBe('PATCH');
    expect(headers.get('authorization')).toBe(`Basic ${Buffer.from(`${accessKey}:${secret}`).toString('base64')}`);
    expect(headers.has('x-api-key')).toBe(false);
    expect(headers.has('x-api-version')).toBe(false);
  });

  it('patchNotificationSettings maps a wrong secret to 401 and a contact of another workspace to 404', async () => {
    const { accessKey } = await createBasicCredential(server.database.db, server.a.id);
    const contact = await api.createContact({ email: uniqueEmail() });
    const wrong = await apiError(clientOf({ basic: { accessKey, secret: 'wrong-secret' } }).patchNotificationSettings(contact.id, { email: true }));
    expect(wrong.status).toBe(401);
    expect(isAuthError(wrong)).toBe(true);
    const ofB = await createBasicCredential(server.database.db, server.b.id);
    const other = await apiError(clientOf({ basic: ofB }).patchNotificationSettings(contact.id, { email: true }));
    expect(other.status).toBe(404);
  });

  it('patchNotificationSettings refuses to send without Basic credentials', async () => {
    await expect(api.patchNotificationSettings('x', { email: true })).rejects.toThrow(TypeError);
  });
});

describe('filter encoding round-trips', () => {
  const names = [
    "O'Brien & Søn #1",
    '100% sure? a=b+c; d/e\\f',
    'Zoë 日本語 🎉 “quoted”',
    "''double'' quote's",
    'tab\there & new line\nthere',
  ];

  it.each(names)('finds a contact named %j by name eq, from an AST and from typed text', async (name) => {
    const created = await api.createContact({ name, email: uniqueEmail() });
    const fromAst = await api.listContacts({ filter: compare('name', 'eq', name) });
    expect(fromAst.meta.maxResults).toBe(1);
    expect(fromAst.items[0]).toMatchObject({ id: created.id, name });
    const typed = `name eq '${name.replaceAll("'", "''")}'`;
    const fromText = await api.listContacts({ filter: typed });
    expect(fromText.items.map((item) => item.id)).toEqual([created.id]);
    expect(new URL(last().url).searchParams.get('$filter')).toBe(typed);
  });

  it('combines conditions built with the AST builders', async () => {
    const tag = `combo-${Date.now()}`;
    const one = await api.createContact({ name: 'Combo & One', email: uniqueEmail(), tags: [tag] });
    await api.createContact({ name: 'Combo Two', email: uniqueEmail(), tags: [tag] });
    const found = await api.listContacts({ filter: and(inList('tags', [tag]), compare('name', 'like', '&')) });
    expect(found.items.map((item) => item.id)).toEqual([one.id]);
  });
});

describe('products and collections', () => {
  it('upsertCollection answers created: true on 201 and created: false on 200', async () => {
    const created = await api.upsertCollection({ title: 'Summer', externalId: 'ext-summer' });
    expect(created).toEqual({ id: expect.any(String), created: true });
    expect(last().response.status).toBe(201);
    const updated = await api.upsertCollection({ title: 'Summer 2026', externalId: 'ext-summer' });
    expect(updated).toEqual({ id: created.id, created: false });
    expect(last().response.status).toBe(200);
  });

  it('upsertCollection maps an empty title to 400 and an unknown id to 404', async () => {
    const empty = await apiError(api.upsertCollection({ title: '' }));
    expect(empty.status).toBe(400);
    expect(empty.message).toBe('title must not be empty');
    const unknown = await apiError(api.upsertCollection({ id: 'no-such-collection', title: 'X' }));
    expect(unknown.status).toBe(404);
  });

  it('listCollections answers the list envelope', async () => {
    const list = await api.listCollections({ filter: compare('externalId', 'eq', 'ext-summer') });
    expect(list.meta.maxResults).toBe(1);
    expect(list.items[0]).toMatchObject({ title: 'Summer 2026', externalId: 'ext-summer', feedId: server.a.id });
    const forbidden = await apiError(clientOf({ apiKey: await server.keyWith(server.a, ['contacts:read-only']) }).listCollections());
    expect(forbidden.status).toBe(403);
  });

  it('upsertProduct creates then updates by externalId, and listProducts shows it', async () => {
    const collection = await api.upsertCollection({ title: 'Jackets' });
    const created = await api.upsertProduct({ title: 'Rain Jacket', externalId: 'sku-1', price: 12.5, currency: 'NOK', collectionIds: [collection.id] });
    expect(created).toEqual({ id: expect.any(String), created: true });
    const updated = await api.upsertProduct({ externalId: 'sku-1', price: 15 });
    expect(updated).toEqual({ id: created.id, created: false });
    const list = await api.listProducts({ filter: compare('externalId', 'eq', 'sku-1'), limit: 5 });
    expect(list.meta.maxResults).toBe(1);
    expect(list.items[0]).toMatchObject({ id: created.id, title: 'Rain Jacket', price: 15, currency: 'NOK', collections: [{ id: collection.id, collectionTitle: 'Jackets' }] });
  });

  it('upsertProduct maps a create without a title to 400 and listProducts a bad filter to 400', async () => {
    const noTitle = await apiError(api.upsertProduct({ externalId: 'sku-untitled' }));
    expect(noTitle.status).toBe(400);
    const badField = await apiError(api.listProducts({ filter: "colour eq 'red'" }));
    expect(badField.status).toBe(400);
    expect(badField.message).toMatch(/^\$filter: /);
  });
});

describe('posts', () => {
  it('createPostRequest publishes and answers { body: { requestId }, state }', async () => {
    const answer = await api.createPostRequest({ action: 'publish', header: 'Hello', text: 'First post' });
    expect(answer).toEqual({ body: { requestId: expect.any(String) }, state: 'published' });
    expect(last().response.status).toBe(201);
  });

  it('createPostRequest maps a missing action to a 400 naming the three', async () => {
    const error = await apiError(api.createPostRequest({ text: 'no action' } as never));
    expect(error.status).toBe(400);
    expect(error.message).toContain('publish, schedule, suggest');
  });

  it('listPosts answers the list envelope and maps a $limit above 30 to a 400', async () => {
    const list = await api.listPosts({ filter: compare('header', 'eq', 'Hello'), orderBy: [{ field: 'claps', direction: 'desc' }] });
    expect(list.meta.maxResults).toBe(1);
    expect(list.items[0]).toMatchObject({ header: 'Hello', text: 'First post', feedId: server.a.id, claps: 0, postUrl: expect.stringContaining(`/embed/${server.a.id}#post-`) });
    const error = await apiError(api.listPosts({ limit: 31 }));
    expect(error.status).toBe(400);
    expect(error.message).toBe('$limit must not be greater than 30');
  });

  it('listPublicPosts sends limit without $ and answers a bare array', async () => {
    const posts = await api.listPublicPosts({ limit: 5 });
    expect(last().url).toBe(`${server.baseUrl}/public-posts?limit=5`);
    expect(posts).toEqual([expect.objectContaining({ postText: 'First post', feedId: server.a.id, feedName: 'Workspace A', postImage: null })]);
    const error = await apiError(api.listPublicPosts({ limit: 31 }));
    expect(error.status).toBe(400);
  });

  it('listWorkspacePosts sends no credential and lists another workspace’s public posts', async () => {
    const b = createApiClient({ baseUrl: server.baseUrl, apiKey: server.b.key });
    await b.createPostRequest({ action: 'publish', text: 'Post of B' });
    const list = await api.listWorkspacePosts(server.b.id, { limit: 5 });
    const { headers, url } = last();
    expect(url).toBe(`${server.baseUrl}/${server.b.id}/posts?%24limit=5`);
    expect(headers.has('x-api-key')).toBe(false);
    expect(headers.has('authorization')).toBe(false);
    expect(headers.get('x-api-version')).toBe(API_VERSION);
    expect(list.items.map((post) => post.text)).toEqual(['Post of B']);
    expect(list.items[0]?.feedId).toBe(server.b.id);
  });

  it('listWorkspacePosts maps an unknown workspace to 404 Workspace not found', async () => {
    const error = await apiError(createApiClient({ baseUrl: server.baseUrl }).listWorkspacePosts('no-such-workspace'));
    expect(error.status).toBe(404);
    expect(error.message).toBe('Workspace not found');
    expect(error.endpoint).toBe('GET /{workspaceId}/posts');
  });
});

describe('workspaces', () => {
  it('listWorkspaces answers the organization workspaces by name', async () => {
    const list = await api.listWorkspaces({ orderBy: 'name desc' });
    expect(list.meta.maxResults).toBe(2);
    expect(list.items.map((workspace) => workspace.id)).toEqual([server.b.id, server.a.id]);
    expect(list.items[0]).toMatchObject({ name: 'Workspace B', organizationId: server.organizationId, imageUrl: null });
  });

  it('listWorkspaces maps a key without feeds scope to 403 and an unsortable field to 400', async () => {
    const forbidden = await apiError(clientOf({ apiKey: await server.keyWith(server.a, ['contacts:read-write']) }).listWorkspaces());
    expect(forbidden.status).toBe(403);
    expect(isAuthError(forbidden)).toBe(true);
    const unsortable = await apiError(api.listWorkspaces({ orderBy: [{ field: 'imageUrl', direction: 'asc' }] }));
    expect(unsortable.status).toBe(400);
  });
});
