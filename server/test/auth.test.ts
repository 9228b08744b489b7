/**
 * Keys, scopes, Basic credentials, versioning, rate limits and the error body (docs/decisions.md sections 3 to 5),
 * against a real server on a temp SQLite file.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Scope, SCOPES, grants } from '../../src/api/scopes';
import { randomBase62 } from '../db/credentials';
import { type TestServer, call, query, startServer } from './harness';

let server: TestServer;
let contactA: string;
let contactB: string;

beforeAll(async () => {
  server = await startServer();
  const a = await call(server, 'POST', '/contacts', { key: server.a.key, body: { name: 'Ann A', email: 'ann@a.test', phone: '+4711111111', tags: ['vip'] } });
  const b = await call(server, 'POST', '/contacts', { key: server.b.key, body: { name: 'Bob B', email: 'bob@b.test', phone: '+4722222222', tags: ['secret-b'] } });
  contactA = a.body.id;
  contactB = b.body.id;
});
afterAll(() => server.close());

/** Each endpoint of the service core with the scope it needs (interface document, endpoint table). */
const endpoints: { name: string; scope: Scope | null; send: (key: string) => ReturnType<typeof call> }[] = [
  { name: 'GET /authorization', scope: null, send: (key) => call(server, 'GET', '/authorization', { key }) },
  { name: 'POST /contacts', scope: 'feeds:read-write', send: (key) => call(server, 'POST', '/contacts', { key, body: { name: `Scope ${Math.random()}` } }) },
  { name: 'GET /contacts', scope: 'contacts:read-only', send: (key) => call(server, 'GET', '/contacts', { key }) },
  { name: 'GET /contacts (csv)', scope: 'contacts:read-only', send: (key) => call(server, 'GET', '/contacts', { key, headers: { accept: 'text/csv' } }) },
  { name: 'GET /contacts/contacts-tags', scope: 'contacts:read-only', send: (key) => call(server, 'GET', '/contacts/contacts-tags', { key }) },
  { name: 'PATCH /contacts/{id}/tags', scope: 'contacts:read-write', send: (key) => call(server, 'PATCH', `/contacts/${contactA}/tags`, { key, body: { tagsToAdd: ['scoped'] } }) },
  { name: 'GET /workspaces', scope: 'feeds:read-only', send: (key) => call(server, 'GET', '/workspaces', { key }) },
  { name: 'GET /products', scope: 'products:read-only', send: (key) => call(server, 'GET', '/products', { key }) },
  { name: 'POST /products', scope: 'products:read-write', send: (key) => call(server, 'POST', '/products', { key, body: { title: 'Scoped product' } }) },
  { name: 'GET /collections', scope: 'products:read-only', send: (key) => call(server, 'GET', '/collections', { key }) },
  { name: 'POST /collections', scope: 'products:read-write', send: (key) => call(server, 'POST', '/collections', { key, body: { title: 'Scoped collection' } }) },
  { name: 'POST /post-requests', scope: 'posts:read-write', send: (key) => call(server, 'POST', '/post-requests', { key, body: { action: 'publish', text: 'Scoped' } }) },
  { name: 'GET /posts', scope: 'posts:read-only', send: (key) => call(server, 'GET', '/posts', { key }) },
  { name: 'GET /public-posts', scope: 'posts:read-only', send: (key) => call(server, 'GET', '/public-posts', { key }) },
];

describe('the scope matrix', () => {
  const cases = endpoints.flatMap((endpoint) => SCOPES.map((scope) => ({ endpoint, scope })));
  it.each(cases.map((c) => [c.endpoint.name, c.scope, c] as const))('%s with only %s is refused exactly when the scope does not grant it', async (_n, _s, { endpoint, scope }) => {
    const key = await server.keyWith(server.a, [scope]);
    const response = await endpoint.send(key);
    const allowed = endpoint.scope === null || grants([scope], endpoint.scope);
    if (allowed) expect(response.status).toBeLessThan(300);
    else {
      expect(response.status).toBe(403);
      expect(response.body.message).toBe(`Missing scope ${endpoint.scope}`);
    }
  });

  it('answers 401 on every keyed endpoint without a key, with an unknown key, and with a revoked one', async () => {
    const { revokeApiKey } = await import('../db/credentials');
    const revoked = await server.keyWith(server.a, [...SCOPES]);
    expect(await revokeApiKey(server.database.db, revoked)).toBe(true);
    for (const endpoint of endpoints) {
      for (const key of ['', 'wsk_0000000000000000000000000000000000000000', 'not-a-key', revoked]) {
        const response = await endpoint.send(key);
        expect(response.status, `${endpoint.name} with '${key}'`).toBe(401);
        expect(response.body.message).toBe('Invalid API key');
      }
    }
  });
});

describe('GET /{workspaceId}/posts', () => {
  it('needs no credential and ignores a bad one', async () => {
    expect((await call(server, 'GET', `/${server.a.id}/posts`)).status).toBe(200);
    expect((await call(server, 'GET', `/${server.a.id}/posts`, { key: 'wrong' })).status).toBe(200);
  });
});

describe('GET /authorization', () => {
  it('answers the key workspace, organization and permissions, the higher level winning', async () => {
    const key = await server.keyWith(server.a, ['contacts:read-only', 'contacts:read-write', 'posts:read-only']);
    const response = await call(server, 'GET', '/authorization', { key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'OK',
      feed: { id: server.a.id, name: 'Workspace A' },
      organization: { id: server.organizationId, name: 'Test Organization' },
      permissions: { contacts: 'read-write', posts: 'read-only' },
    });
  });
});

describe('workspace isolation', () => {
  it('never lists another workspace contacts, even when filtering by their id', async () => {
    const listed = await call(server, 'GET', `/contacts${query({ $filter: `id eq '${contactB}'` })}`, { key: server.a.key });
    expect(listed.body).toEqual({ items: [], meta: { maxResults: 0 } });
    const all = await call(server, 'GET', `/contacts${query({ $limit: 100 })}`, { key: server.a.key });
    expect(all.body.items.map((c: { feedId: string }) => c.feedId)).toEqual(all.body.items.map(() => server.a.id));
    expect(all.body.items.map((c: { id: string }) => c.id)).not.toContain(contactB);
  });

  it('never counts another workspace tags', async () => {
    const tags = await call(server, 'GET', '/contacts/contacts-tags', { key: server.a.key });
    expect(tags.body.map((t: { name: string }) => t.name)).not.toContain('secret-b');
  });

  it('never exports another workspace contacts', async () => {
    const csv = await call(server, 'GET', '/contacts', { key: server.a.key, headers: { accept: 'text/csv' } });
    expect(csv.text).not.toContain(contactB);
    expect(csv.text).toContain(contactA);
  });

  it('answers 404 for tag edits on another workspace contact and changes nothing', async () => {
    const response = await call(server, 'PATCH', `/contacts/${contactB}/tags`, { key: server.a.key, body: { tagsToAdd: ['hijack'], tagsToRemove: ['secret-b'] } });
    expect(response.status).toBe(404);
    expect(response.body.message).toBe('Contact not found');
    const b = await call(server, 'GET', `/contacts${query({ $filter: `id eq '${contactB}'` })}`, { key: server.b.key });
    expect(b.body.items[0].tags).toEqual(['secret-b']);
  });

  it('answers 404 when Basic credentials of one workspace touch a contact of another', async () => {
    const response = await call(server, 'PATCH', `/contacts/${contactB}/notification-settings`, { headers: { authorization: server.a.basic }, body: { sms: false } });
    expect(response.status).toBe(404);
    const b = await call(server, 'GET', `/contacts${query({ $filter: `id eq '${contactB}'` })}`, { key: server.b.key });
    expect(b.body.items[0].state).toBe('pending');
  });

  it('lists only the workspaces of the key organization', async () => {
    const { createOrganization, createWorkspace } = await import('../db/workspaces');
    const other = await createOrganization(server.database.db, 'Other Org');
    await createWorkspace(server.database.db, { organizationId: other.id, name: 'Elsewhere' });
    const response = await call(server, 'GET', '/workspaces', { key: server.a.key });
    expect(response.body.items.map((w: { name: string }) => w.name)).toEqual(['Workspace A', 'Workspace B']);
    expect(response.body.meta.maxResults).toBe(2);
  });
});

describe('Basic credentials on PATCH /contacts/{id}/notification-settings', () => {
  it.each([
    ['no Authorization header', undefined],
    ['a wrong secret', `Basic ${Buffer.from('wsa_000000000000000000000000:nope').toString('base64')}`],
    ['a key instead of Basic', 'Bearer abc'],
    ['garbage base64', 'Basic %%%'],
  ])('answers 401 with a Basic challenge for %s', async (_name, authorization) => {
    const response = await call(server, 'PATCH', `/contacts/${contactA}/notification-settings`, {
      headers: authorization ? { authorization } : {},
      body: { email: true },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Basic realm="contacts"');
    expect(response.body.statusCode).toBe(401);
  });

  it('ignores X-Api-Version on the notification-settings update', async () => {
    const response = await call(server, 'PATCH', `/contacts/${contactA}/notification-settings`, {
      headers: { authorization: server.a.basic, 'x-api-version': '1999-01' },
      body: { email: true },
    });
    expect(response.status).toBe(200);
  });
});

describe('X-Api-Version', () => {
  it('accepts 2026-07 and no header, and says so on every response', async () => {
    for (const headers of [{}, { 'x-api-version': '2026-07' }] as Record<string, string>[]) {
      const response = await call(server, 'GET', '/authorization', { key: server.a.key, headers });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-api-version')).toBe('2026-07');
    }
  });

  it.each(['2025-01', '2026-7', 'latest'])('answers 400 for version %j', async (version) => {
    const response = await call(server, 'GET', '/contacts', { key: server.a.key, headers: { 'x-api-version': version } });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(`API version ${version} is not supported.`);
  });
});

describe('the error body', () => {
  it('carries traceId, message, path without the query, timestamp and statusCode, and X-Trace-Id equal to traceId', async () => {
    const response = await call(server, 'GET', `/contacts${query({ $limit: 500 })}`, { key: server.a.key });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({
      traceId: response.headers.get('x-trace-id'),
      message: '$limit must not be greater than 100',
      path: '/api/contacts',
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      statusCode: 400,
    });
  });

  it('puts X-Trace-Id on successful responses too', async () => {
    const response = await call(server, 'GET', '/authorization', { key: server.a.key });
    expect(response.headers.get('x-trace-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers unknown routes with 404 Cannot METHOD path', async () => {
    const response = await call(server, 'DELETE', '/contacts/x/nope?y=1', { key: server.a.key });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ message: 'Cannot DELETE /api/contacts/x/nope', path: '/api/contacts/x/nope', statusCode: 404 });
  });

  it('joins several validation failures with "; "', async () => {
    const response = await call(server, 'GET', `/contacts${query({ $limit: 0, $offset: -1, foo: 1 })}`, { key: server.a.key });
    expect(response.status).toBe(400);
    expect(response.body.message.split('; ').sort()).toEqual(['$limit must not be less than 1', '$offset must be a non-negative integer', 'property foo should not exist'].sort());
  });
});

describe('rate limits', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startServer({ rateLimitPerMinute: 5 });
  });
  afterAll(() => limited.close());

  it('counts per key: the sixth request in a minute is 429 with Retry-After, another key is unaffected', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 6; i++) {
      last = await call(limited, 'GET', '/authorization', { key: limited.a.key });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(last?.body.message).toBe('ThrottlerException: Too Many Requests');
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last?.headers.get('x-ratelimit-limit')).toBe('5');
    expect(last?.headers.get('x-ratelimit-remaining')).toBe('0');
    const other = await call(limited, 'GET', '/authorization', { key: limited.b.key });
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it('limits the public endpoint per client address', async () => {
    const fresh = await startServer({ rateLimitPerMinute: 5 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await call(fresh, 'GET', `/${fresh.b.id}/posts`)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    } finally {
      await fresh.close();
    }
  });

  it('counts requests without a valid key per client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await call(limited, 'GET', '/contacts', { key: `wrong-${i}` })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});

describe('rate limits in front of the Basic credential check (issue 12 point 7)', () => {
  let limited: TestServer;
  let contact: string;
  const basic = (accessKey: string, secret: string) => `Basic ${Buffer.from(`${accessKey}:${secret}`).toString('base64')}`;
  const accessKeyOf = (workspace: { basic: string }) => Buffer.from(workspace.basic.slice(6), 'base64').toString().split(':')[0]!;
  /** One notification-settings update with `authorization`, as if from client address `from` (behind the trusted proxy). */
  const attempt = (authorization: string, from: string) =>
    call(limited, 'PATCH', `/contacts/${contact}/notification-settings`, { headers: { authorization, 'x-forwarded-for': from }, body: { email: true } });
  const randomAttempt = (from: string) => attempt(basic(`wsa_${randomBase62(24)}`, randomBase62(40)), from);

  beforeAll(async () => {
    limited = await startServer({ rateLimitPerMinute: 5, trustProxy: ['127.0.0.1'] });
    const created = await call(limited, 'POST', '/contacts', { key: limited.a.key, headers: { 'x-forwarded-for': '10.9.9.9' }, body: { name: 'Basic target', email: 'basic@a.test' } });
    contact = created.body.id;
  });
  afterAll(() => limited.close());

  it('refuses the sixth Basic attempt a minute from one address with 429, whatever access keys it names, valid ones included', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await randomAttempt('10.0.0.1')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const valid = await attempt(limited.a.basic, '10.0.0.1');
    expect(valid.status).toBe(429);
    expect(valid.body.message).toBe('ThrottlerException: Too Many Requests');
    expect(Number(valid.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await attempt(limited.a.basic, '10.0.0.2')).status).toBe(200);
  });

  it('refuses the sixth attempt a minute on one access key with 429, whatever addresses it comes from', async () => {
    const accessKey = accessKeyOf(limited.b);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await attempt(basic(accessKey, randomBase62(40)), `10.1.0.${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const valid = await attempt(limited.b.basic, '10.1.1.1');
    expect(valid.status).toBe(429);
    expect(valid.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('answers a refused attempt without checking its secret: the 429 comes while every hashing thread is held', async () => {
    for (let i = 0; i < 5; i++) await randomAttempt('10.2.0.1');
    // The secret check (scrypt) runs on libuv's thread pool. Every thread is held by an open of a named pipe that no
    // writer has opened yet, until this test opens it: a request that hashes waits for that, one refused on its
    // headers alone does not. (A race against long pbkdf2 runs instead lost on a loaded machine: the pool came free
    // before the 429 was written.)
    const threads = Number(process.env.UV_THREADPOOL_SIZE) || 4;
    const pipe = join(mkdtempSync(join(tmpdir(), 'wsa-pool-')), 'hold');
    execFileSync('mkfifo', [pipe]);
    const held = Array.from({ length: threads }, () => open(pipe, 'r'));
    let first: string;
    try {
      first = await Promise.race([randomAttempt('10.2.0.1').then((answer) => `answered ${answer.status}`), sleep(15_000, undefined, { ref: false }).then(() => 'no answer in 15 s while every thread was held')]);
    } finally {
      // The writer's open runs on this thread (the pool's are all held) and lets every reader's open complete.
      closeSync(openSync(pipe, 'w'));
      for (const handle of await Promise.all(held)) await handle.close();
      rmSync(dirname(pipe), { recursive: true, force: true });
    }
    expect(first).toBe('answered 429');
  });
});
