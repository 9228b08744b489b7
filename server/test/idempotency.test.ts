/**
 * `Idempotency-Key` (docs/decisions.md section 9) on both databases: a replay gives the first answer with
 * `Idempotent-Replayed: true` and writes nothing; another body 422; a key still running 409; a bad key 400; kept
 * per workspace and request path, for 24 hours; 4xx kept, 5xx not; GET ignores it; forwarded unchanged in proxy
 * mode; allowed in CORS preflights. Two processes sending one key at once: multi-process.test.ts.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, buildProxyApp } from '../app';
import { IDEMPOTENCY_STALE_RUNNING_MS, IDEMPOTENCY_TTL_MS, IdempotencyStore, canonicalJson, requestHash, sha256 } from '../db/idempotency';
import errorsPlugin from '../plugins/errors';
import idempotencyPlugin from '../plugins/idempotency';
import { type TestServer, call, query, startServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

let serial = 0;
const fresh = (prefix = 'key-') => `${prefix}${Date.now()}-${serial++}`;
const withKey = (key: string) => ({ 'Idempotency-Key': key });
const count = async (filter: string) => (await call(server, 'GET', `/contacts${query({ $filter: filter })}`, { key: server.a.key })).body.meta.maxResults as number;

describe('Idempotency-Key on POST and PATCH', () => {
  it('replays the first answer to the same key and body, with Idempotent-Replayed: true, creating nothing more', async () => {
    const key = fresh();
    const email = `${fresh('once')}@example.com`;
    const first = await call(server, 'POST', '/contacts', { key: server.a.key, body: { email, name: 'Once' }, headers: withKey(key) });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same JSON value with its members in another order is the same request.
    const again = await call(server, 'POST', '/contacts', { key: server.a.key, rawBody: JSON.stringify({ name: 'Once', email }), headers: { ...withKey(key), 'content-type': 'application/json' } });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.body).toEqual(first.body);
    expect(await count(`email eq '${email}'`)).toBe(1);
  });

  it('answers 422 to the same key with another body, and keeps the first answer', async () => {
    const key = fresh();
    const email = `${fresh('first')}@example.com`;
    expect((await call(server, 'POST', '/contacts', { key: server.a.key, body: { email }, headers: withKey(key) })).status).toBe(201);
    const other = await call(server, 'POST', '/contacts', { key: server.a.key, body: { email: `x${email}` }, headers: withKey(key) });
    expect(other.status).toBe(422);
    expect(other.body.message).toBe('Idempotency-Key was used with a different request');
    expect(await count(`email eq 'x${email}'`)).toBe(0);
  });

  it('answers 409 while a request with the key is still running', async () => {
    const key = fresh();
    await server.database.db
      .insertInto('idempotency_keys')
      .values({ workspace_id: server.a.id, path: '/api/contacts', key_hash: sha256(key), request_hash: requestHash('POST', { name: 'Busy' }), state: 'running', status: null, headers: null, body: null, created: new Date().toISOString() })
      .execute();
    const busy = await call(server, 'POST', '/contacts', { key: server.a.key, body: { name: 'Busy' }, headers: withKey(key) });
    expect(busy.status).toBe(409);
    expect(busy.body.message).toBe('A request with this Idempotency-Key is in progress');
  });

  it.each([
    ['empty', ''],
    ['256 characters long', 'k'.repeat(256)],
    ['not printable ASCII', 'clé'],
  ])('answers 400 to a key that is %s', async (_what, key) => {
    const answer = await call(server, 'POST', '/contacts', { key: server.a.key, body: { name: 'Bad key' }, headers: { 'Idempotency-Key': key } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('Idempotency-Key must be 1 to 255 printable ASCII characters');
  });

  it('takes a key of 255 printable characters', async () => {
    const answer = await call(server, 'POST', '/contacts', { key: server.a.key, body: { name: 'Long key' }, headers: { 'Idempotency-Key': `${fresh()}~ !`.padEnd(255, 'z') } });
    expect(answer.status).toBe(201);
  });

  it('keeps a key per workspace and per request path', async () => {
    const key = fresh();
    const product = await call(server, 'POST', '/products', { key: server.a.key, body: { title: 'Keyed' }, headers: withKey(key) });
    const collection = await call(server, 'POST', '/collections', { key: server.a.key, body: { title: 'Keyed' }, headers: withKey(key) });
    const otherWorkspace = await call(server, 'POST', '/products', { key: server.b.key, body: { title: 'Keyed' }, headers: withKey(key) });
    expect([product.status, collection.status, otherWorkspace.status]).toEqual([201, 201, 201]);
    expect([product, collection, otherWorkspace].map((answer) => answer.headers.get('idempotent-replayed'))).toEqual([null, null, null]);
    expect(new Set([product.body.id, collection.body.id, otherWorkspace.body.id]).size).toBe(3);
  });

  it('replays a 204 (a tag edit) and a 4xx answer, and leaves GET requests alone', async () => {
    const created = await call(server, 'POST', '/contacts', { key: server.a.key, body: { name: 'Tagged' } });
    const key = fresh();
    const path = `/contacts/${created.body.id}/tags`;
    expect((await call(server, 'PATCH', path, { key: server.a.key, body: { tagsToAdd: ['a'] }, headers: withKey(key) })).status).toBe(204);
    const replay = await call(server, 'PATCH', path, { key: server.a.key, body: { tagsToAdd: ['a'] }, headers: withKey(key) });
    expect(replay.status).toBe(204);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const badKey = fresh();
    const invalid = await call(server, 'POST', '/contacts', { key: server.a.key, body: { email: 'nope' }, headers: withKey(badKey) });
    expect(invalid.status).toBe(400);
    const invalidAgain = await call(server, 'POST', '/contacts', { key: server.a.key, body: { email: 'nope' }, headers: withKey(badKey) });
    expect(invalidAgain.status).toBe(400);
    expect(invalidAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(invalidAgain.body).toEqual(invalid.body);
    const listed = await call(server, 'GET', '/contacts', { key: server.a.key, headers: { 'Idempotency-Key': '' } });
    expect(listed.status).toBe(200);
  });
});

describe('IdempotencyStore', () => {
  const slot = () => ({ workspaceId: server.a.id, path: '/api/test', keyHash: sha256(fresh()) });

  it('forgets a key after 24 hours and takes over a running one left for longer than the stale limit', async () => {
    const store = new IdempotencyStore(server.database.db, server.database.dialect);
    const now = new Date();
    const kept = slot();
    expect(await store.claim(kept, 'h', now)).toEqual({ kind: 'claimed' });
    await store.finish(kept, 201, { 'content-type': 'application/json' }, '{"id":"x"}');
    expect(await store.claim(kept, 'h', new Date(now.getTime() + IDEMPOTENCY_TTL_MS - 1000))).toMatchObject({ kind: 'replay', status: 201, body: '{"id":"x"}' });
    expect(await store.claim(kept, 'other', new Date(now.getTime() + IDEMPOTENCY_TTL_MS + 1000))).toEqual({ kind: 'claimed' });
    const running = slot();
    expect(await store.claim(running, 'h', now)).toEqual({ kind: 'claimed' });
    expect(await store.claim(running, 'h', new Date(now.getTime() + 1000))).toEqual({ kind: 'running' });
    expect(await store.claim(running, 'h', new Date(now.getTime() + IDEMPOTENCY_STALE_RUNNING_MS + 1000))).toEqual({ kind: 'claimed' });
  });

  it('claims a slot once among many claims at the same moment', async () => {
    const store = new IdempotencyStore(server.database.db, server.database.dialect);
    const contested = slot();
    const claims = await Promise.all(Array.from({ length: 10 }, () => store.claim(contested, 'h')));
    expect(claims.filter((claim) => claim.kind === 'claimed')).toHaveLength(1);
    expect(claims.filter((claim) => claim.kind === 'running')).toHaveLength(9);
  });

  it('hashes equal JSON values alike, whatever the order of members', () => {
    expect(canonicalJson({ b: [1, { d: 2, c: 3 }], a: 'x' })).toBe('{"a":"x","b":[1,{"c":3,"d":2}]}');
    expect(requestHash('POST', { a: 1, b: 2 })).toBe(requestHash('POST', { b: 2, a: 1 }));
    expect(requestHash('POST', { a: 1 })).not.toBe(requestHash('PATCH', { a: 1 }));
  });
});

describe('an answer in the 5xx range', () => {
  let app: FastifyInstance;
  let runs = 0;
  beforeAll(async () => {
    app = Fastify();
    await app.register(errorsPlugin);
    // The plugin runs after authentication; here a stand-in of it names the caller's workspace.
    await app.register(fp(async (scope) => {
      scope.decorateRequest('principal', null);
      scope.decorateRequest('basicWorkspaceId', null);
      scope.addHook('onRequest', async (request) => {
        request.basicWorkspaceId = server.a.id;
      });
    }, { name: 'auth' }));
    await app.register(idempotencyPlugin, { store: new IdempotencyStore(server.database.db, server.database.dialect) });
    app.post('/flaky', async (_request, reply) => {
      runs++;
      if (runs === 1) throw new Error('the first run fails');
      return reply.status(201).send({ run: runs });
    });
  });
  afterAll(() => app.close());

  it('is not remembered: the next request with the key runs', async () => {
    const key = fresh();
    const first = await app.inject({ method: 'POST', url: '/flaky', payload: { a: 1 }, headers: withKey(key) });
    expect(first.statusCode).toBe(500);
    const second = await app.inject({ method: 'POST', url: '/flaky', payload: { a: 1 }, headers: withKey(key) });
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual({ run: 2 });
    const third = await app.inject({ method: 'POST', url: '/flaky', payload: { a: 1 }, headers: withKey(key) });
    expect(third.headers['idempotent-replayed']).toBe('true');
    expect(third.json()).toEqual({ run: 2 });
    expect(runs).toBe(2);
  });
});

describe('Idempotency-Key around the service', () => {
  it('is forwarded unchanged in proxy mode: a replay through the proxy is the service’s replay', async () => {
    const proxy = await buildProxyApp({ upstreamApiUrl: server.baseUrl });
    await proxy.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = proxy.server.address();
      const through = { baseUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api` };
      const key = fresh();
      const body = { name: 'Through the proxy' };
      const first = await call(through, 'POST', '/contacts', { key: server.a.key, body, headers: withKey(key) });
      const again = await call(through, 'POST', '/contacts', { key: server.a.key, body, headers: withKey(key) });
      expect([first.status, again.status]).toEqual([201, 201]);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body.id).toBe(first.body.id);
    } finally {
      await proxy.close();
    }
  });

  it('is allowed in a CORS preflight where CORS_ORIGINS is set', async () => {
    const app = await buildApp({ database: server.database, rateLimitPerMinute: 0, schedulerIntervalMs: 0, corsOrigins: ['https://console.example.com'] });
    try {
      const preflight = await app.inject({
        method: 'OPTIONS',
        url: '/api/contacts',
        headers: { origin: 'https://console.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key, content-type, idempotency-key' },
      });
      expect(preflight.statusCode).toBe(204);
      expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('idempotency-key');
      expect(String(preflight.headers['access-control-allow-origin'])).toBe('https://console.example.com');
    } finally {
      await app.close();
    }
  });
});
