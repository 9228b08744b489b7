/**
 * Proxy mode (issue 15). Two real processes (service-process.ts): our service on a temp database, and a second
 * server with `UPSTREAM_API_URL` in front of it (and a `DATABASE_URL` it could not open); a representative set of
 * requests goes to both and the answers are compared. Then proxy apps in this process (`buildProxyApp`, real
 * HTTP) in front of the hosted-service stand-in (what exactly is forwarded, hosted answers passed through as
 * they are, the local OpenAPI document), a closed port (502) and a route that never answers (504).
 */
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import getPort from 'get-port';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_MEDIA_TYPE, XLSX_MEDIA_TYPE } from '../../src/api/contacts';
import { SCOPES } from '../../src/api/scopes';
import { type ProxyAppConfig, buildProxyApp } from '../app';
import { openMigratedDatabase } from '../database';
import { createApiKey, createBasicCredential } from '../db/credentials';
import { createOrganization, createWorkspace } from '../db/workspaces';
import { openEvents } from './event-stream';
import { type CallOptions, type CallResult, call } from './harness';
import { FORBIDDEN_BODY, HOSTED_KEY, type HostedStandIn, THROTTLED_BODY, startHostedStandIn } from './hosted-stand-in';
import { type ServiceProcess, startProxyProcess, startServiceProcess } from './service-process';
import { type TestDatabase, createTestDatabase } from './test-database';

/** The body without what differs between two answers by nature: the trace id and the time. */
function comparable(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return body;
  const { traceId: _traceId, timestamp: _timestamp, ...rest } = body as Record<string, unknown>;
  return rest;
}

const COMPARED_HEADERS = ['content-type', 'content-disposition', 'x-api-version', 'retry-after', 'x-ratelimit-limit', 'www-authenticate'];

/** The proxied answer is the direct one: status, body (but trace id and time), the headers that describe it. */
function expectSame(proxied: CallResult, direct: CallResult) {
  expect(proxied.status, proxied.text).toBe(direct.status);
  if (direct.body === undefined) expect(proxied.text).toBe(direct.text);
  else expect(comparable(proxied.body)).toEqual(comparable(direct.body));
  for (const name of COMPARED_HEADERS) expect(proxied.headers.get(name), name).toBe(direct.headers.get(name));
  // The upstream's own trace id comes back (the one in its error body), not the proxy's.
  if (proxied.body?.traceId) expect(proxied.headers.get('x-trace-id')).toBe(proxied.body.traceId);
}

/** One in-process proxy app listening on a free loopback port. */
async function proxyApp(config: ProxyAppConfig): Promise<{ app: FastifyInstance; baseUrl: string; origin: string }> {
  const app = await buildProxyApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { app, baseUrl: `${origin}/api`, origin };
}

describe('a proxy-mode process in front of our service process', () => {
  let dir: string;
  let target: TestDatabase;
  let service: ServiceProcess;
  let proxy: ServiceProcess;
  let key: string;
  let limitedKey: string;
  let basic: string;
  let workspaceId: string;
  const LIMIT = 100; // per key a minute: more than the other tests send with `key`

  /** The same request to the service and through the proxy, one after the other. */
  async function both(method: string, path: string, options: CallOptions = {}) {
    const direct = await call(service, method, path, options);
    const proxied = await call(proxy, method, path, options);
    return { direct, proxied };
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wsa-proxy-'));
    target = await createTestDatabase(dir, 'upstream');
    const database = await openMigratedDatabase(target.url);
    const organization = await createOrganization(database.db, 'Proxy Organization');
    const workspace = await createWorkspace(database.db, { organizationId: organization.id, name: 'Proxied Workspace' });
    workspaceId = workspace.id;
    key = await createApiKey(database.db, workspace.id, SCOPES);
    limitedKey = await createApiKey(database.db, workspace.id, SCOPES);
    const credential = await createBasicCredential(database.db, workspace.id);
    basic = `Basic ${Buffer.from(`${credential.accessKey}:${credential.secret}`).toString('base64')}`;
    await database.close();
    service = await startServiceProcess(target.url, { RATE_LIMIT_PER_MINUTE: String(LIMIT) });
    proxy = await startProxyProcess(service.baseUrl);

    // Data for the lists, written straight to the service.
    for (let i = 0; i < 6; i++) {
      const created = await call(service, 'POST', '/contacts', { key, body: { name: `Proxied ${i}`, email: `proxied${i}@example.com`, city: i % 2 ? 'Oslo' : 'Bergen', tags: i % 2 ? ['vip'] : ['lead'] } });
      expect(created.status, created.text).toBe(201);
    }
    expect((await call(service, 'POST', '/collections', { key, body: { title: 'Summer' } })).status).toBe(201);
    expect((await call(service, 'POST', '/products', { key, body: { title: 'Tent', price: 199.5, tags: ['outdoor'] } })).status).toBe(201);
    expect((await call(service, 'POST', '/post-requests', { key, body: { action: 'publish', text: 'Hello through a proxy' } })).status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([proxy?.stop(), service?.stop()]);
    await target?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers GET /authorization as the service does: a good key, a wrong key (401), no key (401)', async () => {
    for (const options of [{ key }, { key: 'wsk_0000000000000000000000000000000000000000' }, {}]) {
      const { direct, proxied } = await both('GET', '/authorization', options);
      expectSame(proxied, direct);
    }
  });

  it('answers every list as the service does, the query string passed byte for byte', async () => {
    const paths = [
      "/contacts?$filter=city%20eq%20'Oslo'&$orderBy=name%20desc",
      '/contacts?%24limit=2&%24offset=1&%24orderBy=name%20asc',
      "/contacts?%24filter=tags%20eq%20'vip'%20and%20name%20like%20'proxied'",
      '/contacts/contacts-tags',
      '/products?%24limit=3',
      '/collections',
      '/posts?%24limit=5',
      '/public-posts?limit=2',
      `/${workspaceId}/posts`,
      '/workspaces?%24orderBy=name%20asc',
      "/contacts?%24filter=name%20eqq%20'x'",
      '/contacts?%24limit=500',
      '/contacts?foo=1',
    ];
    for (const path of paths) {
      const { direct, proxied } = await both('GET', path, { key });
      expectSame(proxied, direct);
    }
    const { direct, proxied } = await both('GET', '/contacts', { key, headers: { 'X-Api-Version': '2025-01' } });
    expect(direct.body.message).toBe('API version 2025-01 is not supported.');
    expectSame(proxied, direct);
  });

  it('writes through the proxy: a contact, an upsert (201 then 200), a post request, tags, notification settings', async () => {
    const contact = await call(proxy, 'POST', '/contacts', { key, body: { name: 'Zoë Via Proxy', email: 'zoe.via@example.com', phone: '+47 912 34 567' } });
    expect(contact.status, contact.text).toBe(201);
    const duplicate = await both('POST', '/contacts', { key, body: { name: 'Again', email: 'ZOE.VIA@example.com' } });
    expect(duplicate.direct.status).toBe(409);
    expectSame(duplicate.proxied, duplicate.direct);

    const first = await call(proxy, 'POST', '/products', { key, body: { externalId: 'proxy-sku-1', title: 'Stove', price: 49 } });
    const second = await call(proxy, 'POST', '/products', { key, body: { externalId: 'proxy-sku-1', price: 45 } });
    expect([first.status, second.status]).toEqual([201, 200]);
    expect(second.body.id).toBe(first.body.id);
    const stored = await call(service, 'GET', `/products?%24filter=${encodeURIComponent("externalId eq 'proxy-sku-1'")}`, { key });
    expect(stored.body.items).toMatchObject([{ id: first.body.id, title: 'Stove', price: 45 }]);

    const post = await call(proxy, 'POST', '/post-requests', { key, body: { action: 'publish', header: 'Proxied post', text: 'Sent through the proxy' } });
    expect(post.status, post.text).toBe(201);
    const posts = await call(service, 'GET', `/posts?%24filter=${encodeURIComponent("header eq 'Proxied post'")}`, { key });
    expect(posts.body.items.map((item: { id: string }) => item.id)).toEqual([post.body.body.requestId]);

    const tags = await call(proxy, 'PATCH', `/contacts/${contact.body.id}/tags`, { key, body: { tagsToAdd: ['proxied'] } });
    expect(tags.status).toBe(204);
    const settings = await call(proxy, 'PATCH', `/contacts/${contact.body.id}/notification-settings`, { headers: { authorization: basic }, body: { sms: true } });
    expect(settings.status, settings.text).toBe(200);
    expect(settings.body).toMatchObject({ id: contact.body.id, state: 'active' });
    const listed = await call(service, 'GET', `/contacts?%24filter=${encodeURIComponent("email eq 'zoe.via@example.com'")}`, { key });
    expect(listed.body.items[0]).toMatchObject({ tags: ['proxied'], state: 'active', notificationSettings: { email: true, sms: true } });
  });

  it('streams the CSV and xlsx exports: the same file as the service, chunked, with its Content-Disposition', async () => {
    const csv = await both('GET', "/contacts?%24filter=city%20eq%20'Oslo'", { key, headers: { accept: CSV_MEDIA_TYPE } });
    expectSame(csv.proxied, csv.direct);
    expect(csv.proxied.text.split('\r\n').filter(Boolean)).toHaveLength(1 + 3);
    expect(csv.proxied.headers.get('content-length')).toBeNull();

    const rows = async (server: ServiceProcess) => {
      const response = await fetch(`${server.baseUrl}/contacts`, { headers: { 'x-api-key': key, accept: XLSX_MEDIA_TYPE } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-length')).toBeNull();
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(await response.arrayBuffer());
      const values: unknown[][] = [];
      book.getWorksheet('Contacts')?.eachRow((row) => values.push(row.values as unknown[]));
      return { values, disposition: response.headers.get('content-disposition') };
    };
    const [direct, proxied] = [await rows(service), await rows(proxy)];
    expect(proxied.values.length).toBeGreaterThan(6);
    expect(proxied).toEqual(direct);
  });

  it('passes a GET /events stream through as it comes, unbuffered: the reset, then a change within 1 s of a write', async () => {
    // docs/decisions.md section 13 and docs/live.md: the stream's head as the service sent it, each event at once.
    const stream = await openEvents(proxy.baseUrl, key);
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(stream.headers.get('x-accel-buffering')).toBe('no');
      await stream.next((frame) => frame.event === 'reset');
      const started = Date.now();
      const created = await call(proxy, 'POST', '/contacts', { key, body: { name: 'Live', email: `live${Date.now()}@example.com` } });
      expect(created.status).toBe(201);
      const change = await stream.next((frame) => frame.event === 'change' && frame.data.ids?.includes(created.body.id));
      expect(change.data).toEqual({ resource: 'contact', ids: [created.body.id], action: 'create' });
      expect(Date.now() - started).toBeLessThan(1000);
      // Resuming through the proxy: Last-Event-ID reaches the service, nothing is missed.
      stream.close();
      const again = await call(proxy, 'POST', '/contacts', { key, body: { name: 'Missed', email: `missed${Date.now()}@example.com` } });
      const resumed = await openEvents(proxy.baseUrl, key, change.id!);
      try {
        const missed = await resumed.next((frame) => frame.event === 'change');
        expect(missed.data.ids).toEqual([again.body.id]);
      } finally {
        resumed.close();
      }
    } finally {
      stream.close();
    }
  });

  it('cuts a passed-through GET /events stream at its close, so app.close() does not wait for the upstream', async () => {
    const local = await proxyApp({ upstreamApiUrl: service.baseUrl });
    const stream = await openEvents(local.baseUrl, key);
    let closed: Promise<void> | undefined;
    try {
      await stream.next((frame) => frame.event === 'reset');
      const started = Date.now();
      closed = local.app.close();
      const finished = await Promise.race([closed.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 2000))]);
      expect(finished, 'app.close() still waiting after 2 s').toBe(true);
      await stream.ended;
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      stream.close();
      await closed;
    }
  });

  it('answers 413 for a body over the service limit and 415 for text/plain, as the service does', async () => {
    const large = await both('POST', '/contacts', { key, rawBody: JSON.stringify({ name: 'x'.repeat(3 * 1024 * 1024) }), headers: { 'content-type': 'application/json' } });
    expect(large.direct.status).toBe(413);
    expectSame(large.proxied, large.direct);
    const text = await both('POST', '/contacts', { key, rawBody: '{"name":"x"}', headers: { 'content-type': 'text/plain' } });
    expect(text.direct.status).toBe(415);
    expectSame(text.proxied, text.direct);
  });

  it('passes the 429 and its Retry-After back as the service sent them', async () => {
    let proxied: CallResult | null = null;
    for (let i = 0; i <= LIMIT && proxied === null; i++) {
      const answer = await call(proxy, 'GET', '/authorization', { key: limitedKey });
      if (answer.status === 429) proxied = answer;
      else expect(answer.status).toBe(200);
    }
    expect(proxied?.body.message).toBe('ThrottlerException: Too Many Requests');
    expect(Number(proxied?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(proxied?.headers.get('x-ratelimit-remaining')).toBe('0');
    const direct = await call(service, 'GET', '/authorization', { key: limitedKey });
    expect(direct.status).toBe(429);
    expect(comparable(proxied?.body)).toEqual(comparable(direct.body));
  });

  it('says on /healthz that the upstream answers, offers no demo, and serves the OpenAPI document of the same API', async () => {
    // GET /api is the app's page (200) or a 404, as dist/ is built or not: any status means it answers.
    expect(await (await fetch(`${proxy.origin}/healthz`)).json()).toEqual({ status: 'ok', upstream: { status: expect.any(Number) } });
    expect(await (await fetch(`${proxy.origin}/app-config.json`)).json()).toEqual({ apiBaseUrl: '/api', demo: null, upstream: { apiUrl: service.baseUrl } });
    const paths = async (server: ServiceProcess) => {
      const document = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as { paths: Record<string, unknown> };
      return Object.fromEntries(Object.entries(document.paths).filter(([path]) => path.startsWith('/api/')));
    };
    const proxied = await paths(proxy);
    expect(Object.keys(proxied)).toHaveLength(26); // the interface's 12 paths and our extensions' 14 (docs/decisions.md sections 10 to 13)
    expect(proxied).toEqual(await paths(service));
  });
});

describe('proxy apps in front of a hosted-style service, a closed port and a hung upstream', () => {
  let hosted: HostedStandIn;
  let proxy: Awaited<ReturnType<typeof proxyApp>>;

  beforeAll(async () => {
    hosted = await startHostedStandIn();
    proxy = await proxyApp({ upstreamApiUrl: hosted.baseUrl, upstreamTimeoutMs: 500 });
  });
  afterAll(async () => {
    await proxy?.app.close();
    await hosted?.close();
  });

  it('forwards the method, path, query and body unchanged and the headers the interface uses; drops hop-by-hop ones, sets X-Forwarded-*', async () => {
    const path = "/echo/a%2Fb/c?$filter=name%20eq%20'%C3%A5'&%24limit=1&flag&x=1+2";
    const body = '{ "name" : "Zoë",  "tags":["a"] }';
    const answer = await new Promise<{ status: number; json: any }>((resolve, reject) => {
      // The path as written: a URL object would percent-encode the quotes of the query.
      const request = httpRequest({
        host: '127.0.0.1',
        port: new URL(proxy.origin).port,
        path: `/api${path}`,
        method: 'PATCH',
        headers: {
          'x-api-key': HOSTED_KEY,
          authorization: 'Basic YTpi',
          'x-api-version': '2026-07',
          accept: 'application/json',
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(body),
          connection: 'keep-alive, x-hop-only',
          'x-hop-only': 'dropped',
          'keep-alive': 'timeout=5',
          'proxy-authorization': 'Basic c2VjcmV0',
          'x-forwarded-for': '203.0.113.9',
          'x-custom': 'kept',
          'idempotency-key': 'job-1-step-2',
          'activity-source': 'console/import',
          'activity-batch': 'job-1',
        },
      });
      request.on('response', (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, json: JSON.parse(text) }));
      });
      request.on('error', reject);
      request.end(body);
    });
    expect(answer.status).toBe(200);
    const { method, url, headers, body: received } = answer.json;
    expect({ method, url, body: received }).toEqual({ method: 'PATCH', url: `/api${path}`, body });
    expect(headers).toMatchObject({
      'x-api-key': HOSTED_KEY,
      authorization: 'Basic YTpi',
      'x-api-version': '2026-07',
      accept: 'application/json',
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'x-custom': 'kept',
      // Our service's extension headers (docs/decisions.md sections 9 and 11) pass through unchanged.
      'idempotency-key': 'job-1-step-2',
      'activity-source': 'console/import',
      'activity-batch': 'job-1',
      host: new URL(hosted.origin).host,
      'x-forwarded-for': '127.0.0.1', // the untrusted 203.0.113.9 is replaced (no TRUST_PROXY)
      'x-forwarded-proto': 'http',
      'x-forwarded-host': new URL(proxy.origin).host,
    });
    for (const name of ['x-hop-only', 'keep-alive', 'proxy-authorization']) expect(headers[name], name).toBeUndefined();
    expect(headers.connection ?? 'keep-alive').toBe('keep-alive'); // undici's own, not the client's list
  });

  it("passes the hosted service's answers back as they are: 403 Forbidden resource, 429 without Retry-After, a version 400", async () => {
    const forbidden = await call(proxy, 'GET', '/authorization', { key: 'wrong' });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual(FORBIDDEN_BODY);
    hosted.throttleNext = 1;
    const throttled = await call(proxy, 'GET', '/workspaces', { key: HOSTED_KEY });
    expect(throttled.status).toBe(429);
    expect(throttled.body).toEqual(THROTTLED_BODY);
    expect(throttled.headers.get('retry-after')).toBeNull();
    const version = await call(proxy, 'GET', '/contacts', { key: HOSTED_KEY, headers: { 'x-api-version': '2099-01' } });
    expect(version.status).toBe(400);
    expect(version.body).toEqual({ message: 'API version 2099-01 is not supported.' });
    expect(version.headers.get('x-api-version')).toBeNull(); // this server does not claim a version for the upstream
  });

  it('says on /healthz that the upstream answers, whatever its status (403 here)', async () => {
    expect(await (await fetch(`${proxy.origin}/healthz`)).json()).toEqual({ status: 'ok', upstream: { status: 403 } });
  });

  it('serves /api/openapi.json and /api/docs itself (the hosted service has neither)', async () => {
    const document = await call(proxy, 'GET', '/openapi.json');
    expect(document.status).toBe(200);
    expect(Object.keys(document.body.paths)).toContain('/api/contacts');
    const docs = await fetch(`${proxy.baseUrl}/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger');
  });

  it('answers 504 with the error body when the upstream does not answer within UPSTREAM_TIMEOUT_MS', async () => {
    const started = Date.now();
    const answer = await call(proxy, 'GET', '/hang?x=1', { key: HOSTED_KEY });
    expect(answer.status).toBe(504);
    expect(answer.body).toMatchObject({ statusCode: 504, message: 'Gateway timeout: the upstream service did not answer within 500 ms', path: '/api/hang' });
    expect(answer.headers.get('x-trace-id')).toBe(answer.body.traceId);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('answers 502 with the error body, and /healthz 503, when the upstream cannot be reached', async () => {
    const closed = await getPort({ host: '127.0.0.1' });
    const dead = await proxyApp({ upstreamApiUrl: `http://127.0.0.1:${closed}/api` });
    try {
      for (const [method, path] of [['GET', '/contacts'], ['POST', '/contacts']] as const) {
        const answer = await call(dead, method, path, { key: HOSTED_KEY, ...(method === 'POST' ? { body: { name: 'x' } } : {}) });
        expect(answer.status).toBe(502);
        expect(answer.body).toMatchObject({ statusCode: 502, message: 'Bad gateway: the upstream service could not be reached', path: '/api/contacts' });
        expect(Object.keys(answer.body).sort()).toEqual(['message', 'path', 'statusCode', 'timestamp', 'traceId']);
      }
      const health = await fetch(`${dead.origin}/healthz`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ statusCode: 503, message: 'Upstream unavailable', path: '/healthz' });
    } finally {
      await dead.app.close();
    }
  });
});
