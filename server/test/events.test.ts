/**
 * Live changes (docs/decisions.md section 13, issue 36) on both databases: `GET /events` against a real listening
 * server: the stream's head, a change within 1 s, merging, scopes and workspaces, `Last-Event-ID` replay from the
 * activity log and `event: reset` where it cannot, the 5 streams of a key (over processes), streams closed at
 * shutdown, and two processes: a write through one reaches a stream on the other (LISTEN/NOTIFY on PostgreSQL, the
 * log polled on SQLite).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import getPort from 'get-port';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_EVENT_IDS } from '../../src/api/live';
import { SCOPES } from '../../src/api/scopes';
import { buildApp } from '../app';
import { openMigratedDatabase } from '../database';
import { createApiKey, findApiKey } from '../db/credentials';
import { createOrganization, createWorkspace } from '../db/workspaces';
import { EventHub, changeFrames } from '../events/hub';
import { changes, openEvents, type OpenStream } from './event-stream';
import { type TestServer, call, listenOnLoopback, startServer, unique } from './harness';
import { startServiceProcess } from './service-process';
import { createMigratedTestDatabase } from './test-database';

let server: TestServer;
const open: OpenStream[] = [];
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  for (const stream of open) stream.close();
  await server.close();
});

async function events(key = server.a.key, lastEventId?: string, target: { baseUrl: string } = server): Promise<OpenStream> {
  const stream = await openEvents(target.baseUrl, key, lastEventId);
  open.push(stream);
  return stream;
}

async function newContact(key = server.a.key, target: { baseUrl: string } = server): Promise<string> {
  const created = await call(target, 'POST', '/contacts', { key, body: { name: 'Kari', email: `${unique('k')}@example.com` } });
  expect(created.status, created.text).toBe(201);
  return created.body.id as string;
}

/** Waits until the stream's reset (sent first when it opened without Last-Event-ID) arrived; its id. */
const resetId = async (stream: OpenStream) => (await stream.next((frame) => frame.event === 'reset')).id!;

/** Resolves once `stream` has sent a change naming `id`. */
const changeOf = (stream: OpenStream, id: string, timeoutMs = 5000) => stream.next((frame) => frame.event === 'change' && (frame.data.ids === null || frame.data.ids.includes(id)), timeoutMs);

describe('GET /events', () => {
  it('is a text/event-stream that starts with a reset and its position, then sends a change within 1 s of a write', async () => {
    const stream = await events();
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    expect(stream.headers.get('x-trace-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(stream.headers.get('x-api-version')).toBe('2026-07');
    const reset = await stream.next((frame) => frame.event === 'reset');
    expect(reset.id).toMatch(/^\d+$/);
    expect(reset.data).toEqual({});
    const started = Date.now();
    const id = await newContact();
    const change = await changeOf(stream, id);
    expect(Date.now() - started).toBeLessThan(1000 + 300);
    expect(change.data).toEqual({ resource: 'contact', ids: [id], action: 'create' });
    expect(Number(change.id)).toBeGreaterThan(Number(reset.id));
    stream.close();
  });

  it('merges changes less than 250 ms apart: one tags request over three contacts is one event', async () => {
    const ids = [await newContact(), await newContact(), await newContact()];
    const stream = await events();
    await resetId(stream);
    const tagged = await call(server, 'POST', '/contacts/tags', { key: server.a.key, body: { ids, tagsToAdd: [unique('t')] } });
    expect(tagged.status, tagged.text).toBe(200);
    const change = await stream.next((frame) => frame.event === 'change' && frame.data.action === 'tags');
    expect(change.data).toEqual({ resource: 'contact', ids: expect.arrayContaining(ids), action: 'tags' });
    expect(change.data.ids).toHaveLength(3);
    stream.close();
  });

  it('sends ids: null beyond 100 ids, each event with the id of its last entry, runs of one resource and action merged', () => {
    const entries = Array.from({ length: MAX_EVENT_IDS + 1 }, (_, i) => ({ seq: i + 1, resource: 'contact', resource_id: `c${i}`, action: 'create', created: 1000 + i }));
    entries.push({ seq: 200, resource: 'product', resource_id: 'p', action: 'update', created: 1200 }, { seq: 201, resource: 'contact', resource_id: 'c0', action: 'tags', created: 1200 }, { seq: 202, resource: 'contact', resource_id: 'c0', action: 'tags', created: 1449 });
    expect(changeFrames(entries, new Set(['contact', 'product']))).toBe(
      `event: change\nid: ${MAX_EVENT_IDS + 1}\ndata: {"resource":"contact","ids":null,"action":"create"}\n\n` +
        'event: change\nid: 200\ndata: {"resource":"product","ids":["p"],"action":"update"}\n\n' +
        'event: change\nid: 202\ndata: {"resource":"contact","ids":["c0"],"action":"tags"}\n\n',
    );
    // A key that cannot read products is not told about them; the contacts on both sides merge.
    expect(changeFrames(entries.slice(MAX_EVENT_IDS - 1), new Set(['contact']))).toBe(
      `event: change\nid: ${MAX_EVENT_IDS + 1}\ndata: {"resource":"contact","ids":["c${MAX_EVENT_IDS - 1}","c${MAX_EVENT_IDS}"],"action":"create"}\n\n` +
        'event: change\nid: 202\ndata: {"resource":"contact","ids":["c0"],"action":"tags"}\n\n',
    );
    // Changes 250 ms or more apart are not merged, even when one read of the log carries both.
    const apart = [
      { seq: 1, resource: 'contact', resource_id: 'a', action: 'create', created: 1000 },
      { seq: 2, resource: 'contact', resource_id: 'b', action: 'create', created: 1249 },
      { seq: 3, resource: 'contact', resource_id: 'c', action: 'create', created: 1499 },
    ];
    expect(changeFrames(apart, new Set(['contact']))).toBe(
      'event: change\nid: 2\ndata: {"resource":"contact","ids":["a","b"],"action":"create"}\n\n' +
        'event: change\nid: 3\ndata: {"resource":"contact","ids":["c"],"action":"create"}\n\n',
    );
  });

  it('sends a key only the resources it can read, and only its own workspace', async () => {
    const productsOnly = await server.keyWith(server.a, ['products:read-only']);
    const [products, other] = [await events(productsOnly), await events(server.b.key)];
    await Promise.all([resetId(products), resetId(other)]);
    const contactId = await newContact();
    const upserted = await call(server, 'POST', '/products', { key: server.a.key, body: { title: unique('Lamp ') } });
    expect(upserted.status, upserted.text).toBe(201);
    const change = await products.next((frame) => frame.event === 'change');
    expect(change.data).toEqual({ resource: 'product', ids: [upserted.body.id], action: 'create' });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(changes(products).map((frame) => frame.data.resource)).toEqual(['product']);
    expect(changes(other)).toEqual([]);
    expect(contactId).toBeTruthy();
    products.close();
    other.close();
  });

  it('answers HEAD with the head alone, and refuses a bad key', async () => {
    const head = await fetch(`${server.baseUrl}/events`, { method: 'HEAD', headers: { 'x-api-key': server.a.key } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const refused = await openEvents(server.baseUrl, `wsk_${'x'.repeat(40)}`);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('Invalid API key');
  });
});

describe('Last-Event-ID', () => {
  it('replays what a stream missed from the activity log, in order, then goes on live', async () => {
    const first = await events();
    const position = await resetId(first);
    first.close();
    const missed = [await newContact(), await newContact()];
    const product = await call(server, 'POST', '/products', { key: server.a.key, body: { title: unique('Chair ') } });
    const tagged = await call(server, 'PATCH', `/contacts/${missed[0]}/tags`, { key: server.a.key, body: { tagsToAdd: ['vip'] } });
    expect(tagged.status).toBe(204);
    const resumed = await events(server.a.key, position);
    const last = await resumed.next((frame) => frame.event === 'change' && frame.data.action === 'tags');
    expect(resumed.frames.filter((frame) => frame.event === 'reset')).toEqual([]);
    const replayed = changes(resumed).map((frame) => frame.data);
    // Changes less than 250 ms apart may be merged (docs/decisions.md section 13): the two creates come in one frame,
    // or in two where the machine took longer between them (CI's did, once), their ids in order either way.
    const creates = replayed.slice(0, -2);
    expect(creates.length).toBeGreaterThanOrEqual(1);
    expect(creates.map(({ resource, action }) => ({ resource, action }))).toEqual(creates.map(() => ({ resource: 'contact', action: 'create' })));
    expect(creates.flatMap((data) => data.ids)).toEqual(missed);
    expect(replayed.slice(-2)).toEqual([
      { resource: 'product', ids: [product.body.id], action: 'create' },
      { resource: 'contact', ids: [missed[0]], action: 'tags' },
    ]);
    const ids = changes(resumed).map((frame) => Number(frame.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    // Resuming from the last event replays nothing, and live events follow.
    const again = await events(server.a.key, last.id!);
    const live = await newContact();
    await changeOf(again, live);
    expect(changes(again).map((frame) => frame.data.ids)).toEqual([[live]]);
    expect(again.frames.filter((frame) => frame.event === 'reset')).toEqual([]);
    resumed.close();
    again.close();
  });

  it.each([
    ['not a sequence number', 'abc'],
    ['negative', '-1'],
    ['beyond the log', '999999999999'],
    ['too long', '9'.repeat(40)],
    ['a huge header', 'x'.repeat(4000)],
  ])('%s: event: reset with the position to resume from, never a 500', async (_name, lastEventId) => {
    const stream = await events(server.a.key, lastEventId);
    expect(stream.status).toBe(200);
    const reset = await stream.next((frame) => frame.event === 'reset');
    expect(reset.id).toMatch(/^\d+$/);
    stream.close();
  });

  it('sends a reset when retention deleted entries after the id', async () => {
    const stream = await events();
    const position = Number(await resetId(stream));
    stream.close();
    await newContact();
    // The oldest entries are gone: everything up to and including the first one after `position`.
    await server.database.db.deleteFrom('activity').where('seq', '<=', position + 1).execute();
    const resumed = await events(server.a.key, String(position - 1));
    await resumed.next((frame) => frame.event === 'reset');
    resumed.close();
  });
});

describe('writes racing in one workspace', () => {
  it('a batch revert and edits of its contacts at once: no deadlock (no 5xx), and a stream gets the changes in seq order', async () => {
    // PostgreSQL: every write locks the workspace's row first (db/activity.ts lockWorkspace). Taken in the middle, a
    // revert chunk holding it would wait for a contact a PATCH holds while that PATCH waits for it: a deadlock.
    const batch = unique('race-');
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const created = await call(server, 'POST', '/contacts', { key: server.a.key, headers: { 'Activity-Batch': batch }, body: { name: 'Race', email: `${unique('r')}@example.com` } });
      expect(created.status, created.text).toBe(201);
      ids.push(created.body.id as string);
    }
    const stream = await events();
    await resetId(stream);
    const postgres = server.database.dialect.name === 'postgres';
    const deadlocks = () => postgres ? sql<{ n: string }>`select deadlocks as n from pg_stat_database where datname = current_database()`.execute(server.database.db).then((r) => Number(r.rows[0]!.n)) : Promise.resolve(0);
    const before = await deadlocks();
    const answers = await Promise.all([
      call(server, 'POST', '/activity/revert', { key: server.a.key, body: { batchId: batch } }),
      // Of the same batch, so the revert takes them in and does not skip their contacts as changed since.
      ...[...ids].reverse().map((id) => call(server, 'PATCH', `/contacts/${id}/tags`, { key: server.a.key, headers: { 'Activity-Batch': batch }, body: { tagsToAdd: ['raced'] } })),
    ]);
    for (const answer of answers) expect(answer.status, answer.text).toBeLessThan(500);
    // A deadlock PostgreSQL broke would not show as a 5xx where the write is run again (a revert chunk is): its count does.
    if (postgres) await new Promise((resolve) => setTimeout(resolve, 1500)); // backends report their counts within a second
    expect(await deadlocks()).toBe(before);
    const last = await call(server, 'POST', '/products', { key: server.a.key, body: { title: unique('Last ') } });
    await stream.next((frame) => frame.event === 'change' && frame.data.resource === 'product');
    const seqs = changes(stream).map((frame) => Number(frame.id));
    expect(seqs.length).toBeGreaterThan(1);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(last.status).toBe(201);
    stream.close();
  });
});

describe('streams of one key', () => {
  it('holds at most 5 open; the 6th is a 429 until one closes', async () => {
    const key = await server.keyWith(server.a, ['contacts:read-only']);
    const five = await Promise.all(Array.from({ length: 5 }, () => events(key)));
    expect(five.map((stream) => stream.status)).toEqual([200, 200, 200, 200, 200]);
    const sixth = await openEvents(server.baseUrl, key);
    expect(sixth.status).toBe(429);
    expect(sixth.body.message).toBe('Too many event streams: a key may hold at most 5 open');
    // The heartbeat's period (docs/decisions.md section 13): the console waits it out, paused (src/lib/live/live-changes.ts).
    expect(sixth.headers.get('retry-after')).toBe('25');
    // Another key of the workspace is not affected.
    const other = await events(await server.keyWith(server.a, ['contacts:read-only']));
    expect(other.status).toBe(200);
    five[0]!.close();
    let reopened = await openEvents(server.baseUrl, key);
    for (let tries = 0; reopened.status === 429 && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      reopened = await openEvents(server.baseUrl, key);
    }
    expect(reopened.status).toBe(200);
    open.push(reopened);
    for (const stream of [...five, other, reopened]) stream.close();
  });
});

describe('shutdown', () => {
  it('ends every stream and forgets them, and app.close() does not wait for them', async () => {
    const app = await buildApp({ database: server.database, rateLimitPerMinute: 0, schedulerIntervalMs: 0 });
    const { baseUrl } = await listenOnLoopback(app);
    const key = await server.keyWith(server.a, ['contacts:read-only']);
    const streams = await Promise.all([openEvents(baseUrl, key), openEvents(baseUrl, key)]);
    await Promise.all(streams.map((stream) => stream.next((frame) => frame.event === 'reset')));
    const started = Date.now();
    await app.close();
    await Promise.all(streams.map((stream) => stream.ended));
    expect(Date.now() - started).toBeLessThan(3000);
    // The key may open 5 again at once: the closed streams no longer count.
    const again = await Promise.all(Array.from({ length: 5 }, () => events(key)));
    expect(again.map((stream) => stream.status)).toEqual([200, 200, 200, 200, 200]);
    for (const stream of again) stream.close();
  });
  it('a stream its client left and a connection opened without a request (a client connecting again) do not hold app.close()', async () => {
    const app = await buildApp({ database: server.database, rateLimitPerMinute: 0, schedulerIntervalMs: 0 });
    const { port } = await listenOnLoopback(app);
    const key = await server.keyWith(server.a, ['contacts:read-only']);
    const stream = await openEvents(`http://127.0.0.1:${port}/api`, key);
    await stream.next((frame) => frame.event === 'reset');
    stream.close();
    await stream.ended;
    // What fetch (undici) does after an aborted stream, and what a browser's or balancer's preconnect does: a
    // connection that sends nothing yet. Node's server.close() counts it busy, and stops the timeout that would cut it.
    const idle = connect(port, '127.0.0.1');
    await once(idle, 'connect');
    let closed: Promise<void> | undefined;
    try {
      const started = Date.now();
      closed = app.close();
      const finished = await Promise.race([closed.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 2000))]);
      expect(finished, 'app.close() still waiting after 2 s').toBe(true);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      idle.destroy();
      await closed;
    }
  });

  it('a stream still opening when app.close() starts is refused or ended: close() does not wait for it, and it does not count', async () => {
    const app = await buildApp({ database: server.database, rateLimitPerMinute: 0, schedulerIntervalMs: 0 });
    const { baseUrl } = await listenOnLoopback(app);
    const key = await server.keyWith(server.a, ['contacts:read-only']);
    // The close starts while the stream is being counted (after the hub's first check, before the answer's head).
    const hub = EventHub.prototype as unknown as { reserve(...args: unknown[]): Promise<void> };
    const reserve = hub.reserve;
    let closed: Promise<void> | undefined;
    const spy = vi.spyOn(hub, 'reserve').mockImplementation(async function (this: unknown, ...args: unknown[]) {
      closed ??= app.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      return reserve.apply(this, args);
    });
    const client = new AbortController();
    try {
      const started = Date.now();
      const answer = await fetch(`${baseUrl}/events`, { headers: { 'x-api-key': key }, signal: client.signal });
      const finished = await Promise.race([closed!.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 2000))]);
      expect(finished, `app.close() still waiting after 2 s (the stream answered ${answer.status})`).toBe(true);
      expect(Date.now() - started).toBeLessThan(2000);
      // Refused, since the server is shutting down (and its connection closed, or close() would wait for it).
      expect(answer.status).toBe(503);
      expect((await answer.json()).message).toBe('Service Unavailable: the server is shutting down');
      const rows = await server.database.db.selectFrom('event_streams').select('id').where('key_id', '=', (await findApiKey(server.database.db, key))!.keyId).execute();
      expect(rows).toEqual([]);
    } finally {
      spy.mockRestore();
      client.abort();
      await closed;
    }
  });
});

describe('GET /extensions', () => {
  it('names events and shared-views; without the activity log, not events', async () => {
    const answer = await call(server, 'GET', '/extensions', { key: server.a.key });
    expect(answer.body.extensions).toEqual(expect.arrayContaining(['events', 'shared-views']));
    const app = await buildApp({ database: server.database, rateLimitPerMinute: 0, schedulerIntervalMs: 0, activityLog: false });
    try {
      const headers = { 'x-api-key': server.a.key };
      const names = (await app.inject({ method: 'GET', url: '/api/extensions', headers })).json().extensions;
      expect(names).toContain('shared-views');
      expect(names).not.toContain('events');
      expect((await app.inject({ method: 'GET', url: '/api/events', headers })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});

/** Two service processes on one new database (env added to each), a workspace and an all-scope key; `stop` ends all. */
async function twoProcesses(name: string, env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), `wsa-${name}-`));
  const target = await createMigratedTestDatabase(dir, name);
  const database = await openMigratedDatabase(target.url);
  const organization = await createOrganization(database.db, 'Events Organization');
  const workspace = await createWorkspace(database.db, { organizationId: organization.id, name: 'Events Workspace' });
  const key = await createApiKey(database.db, workspace.id, SCOPES);
  const [one, two] = await Promise.all([startServiceProcess(target.url, env), startServiceProcess(target.url, env)]);
  return {
    one,
    two,
    key,
    async stop() {
      await Promise.all([one.stop(), two.stop()]);
      await database.close();
      await target.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const redisServer = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
})();

describe.runIf(redisServer)('several processes with REDIS_URL (needs redis-server on PATH)', () => {
  let redis: ChildProcess;
  let url: string;
  beforeAll(async () => {
    const port = await getPort({ host: '127.0.0.1' });
    redis = spawn(redisServer, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    url = `redis://127.0.0.1:${port}`;
    const probe = new Redis(url, { lazyConnect: true, retryStrategy: () => 100 });
    probe.on('error', () => {});
    await vi.waitFor(() => probe.ping(), { timeout: 10_000, interval: 100 });
    probe.disconnect();
  });
  afterAll(() => {
    redis?.kill('SIGTERM');
  });

  it('a write through one process reaches a stream on the other through Redis pub/sub', async () => {
    const pair = await twoProcesses('redis-events', { REDIS_URL: url });
    const subscriber = new Redis(url);
    const heard: string[] = [];
    await subscriber.subscribe('wsa-events');
    subscriber.on('message', (_channel: string, message: string) => heard.push(message));
    const stream = await openEvents(pair.two.baseUrl, pair.key);
    try {
      await resetId(stream);
      const started = Date.now();
      const id = await newContact(pair.key, pair.one);
      await changeOf(stream, id, 3000);
      expect(Date.now() - started).toBeLessThan(1000);
      // The signal went through Redis: the workspace's id on the channel.
      expect(heard.length).toBeGreaterThan(0);
    } finally {
      stream.close();
      subscriber.disconnect();
      await pair.stop();
    }
  }, 120_000);
});

describe('several processes on one database', () => {
  it('a write through one process reaches a stream on the other within 1 s, and the 5 streams of a key count over both', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wsa-events-'));
    const target = await createMigratedTestDatabase(dir, 'events');
    const database = await openMigratedDatabase(target.url);
    const organization = await createOrganization(database.db, 'Events Organization');
    const workspace = await createWorkspace(database.db, { organizationId: organization.id, name: 'Events Workspace' });
    const key = await createApiKey(database.db, workspace.id, SCOPES);
    const [one, two] = await Promise.all([startServiceProcess(target.url), startServiceProcess(target.url)]);
    const streams: OpenStream[] = [];
    try {
      const stream = await openEvents(two.baseUrl, key);
      streams.push(stream);
      await resetId(stream);
      const timings: number[] = [];
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const id = await newContact(key, one);
        await changeOf(stream, id, 3000).catch((error: Error) => {
          throw new Error(`${error.message}\n${two.lines().join('\n')}\n${one.lines().join('\n')}`);
        });
        timings.push(Date.now() - started);
      }
      expect(Math.max(...timings)).toBeLessThan(1000);
      const onTwo = [stream];
      for (let i = 0; i < 4; i++) {
        const next = await openEvents(i % 2 ? one.baseUrl : two.baseUrl, key);
        streams.push(next);
        if (!(i % 2)) onTwo.push(next);
      }
      expect(streams.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
      const sixth = await openEvents(one.baseUrl, key);
      expect(sixth.status).toBe(429);
      // SIGTERM: the process ends its streams and exits.
      await two.stop();
      await Promise.all(onTwo.map((s) => s.ended));
    } finally {
      for (const stream of streams) stream.close();
      await Promise.all([one.stop(), two.stop()]);
      await database.close();
      await target.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
