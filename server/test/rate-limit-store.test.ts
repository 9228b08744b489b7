/**
 * Where the rate limit counts (docs/decisions.md section 4, issue 8): the `rate_limits` store's window semantics,
 * atomicity and cleanup on both databases; which storage the service picks (PostgreSQL: the table, SQLite:
 * memory); and Redis with `REDIS_URL`, shared by two apps (runs where `redis-server` is installed).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import getPort from 'get-port';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { DatabaseRateLimitStore } from '../db/rate-limit-store';
import { type TestServer, call, startServer } from './harness';
import { TEST_DATABASE } from './test-database';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ rateLimitPerMinute: 3 });
});
afterAll(() => server.close());

// First: the store tests below count at times in 2027 and 2030, and each count may set off a cleanup of the counters
// expired by then (`removeExpired`, not awaited), which deletes this test's real counter too if it comes late (CI's
// loaded run once saw the fourth request answered 200).
describe(`the service on ${TEST_DATABASE}`, () => {
  it(TEST_DATABASE === 'postgres' ? 'counts in the rate_limits table' : 'counts in memory, leaving rate_limits empty', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(server, 'GET', '/authorization', { key: server.b.key })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const principal = await call(server, 'GET', '/authorization', { key: server.b.key });
    expect(principal.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    const rows = await server.database.db.selectFrom('rate_limits').select(['key', 'count']).where('key', 'like', 'key:%').execute();
    expect(rows.map((row) => Number(row.count))).toEqual(TEST_DATABASE === 'postgres' ? [5] : []);
    if (TEST_DATABASE === 'postgres') {
      const table = await sql<{ persistence: string }>`select relpersistence as persistence from pg_class where relname = 'rate_limits'`.execute(server.database.db);
      expect(table.rows).toEqual([{ persistence: 'u' }]); // unlogged: no WAL write per counted request
    }
  });
});

describe('the rate_limits store', () => {
  it('counts a key within its window, apart from other keys, and starts a new window once it ended', async () => {
    const store = new DatabaseRateLimitStore(server.database.db);
    const t0 = 1_800_000_000_000;
    expect(await store.increment('window:a', 1000, t0)).toEqual({ current: 1, ttl: 1000 });
    expect(await store.increment('window:a', 1000, t0 + 400)).toEqual({ current: 2, ttl: 600 });
    expect(await store.increment('window:b', 1000, t0 + 400)).toEqual({ current: 1, ttl: 1000 });
    expect(await store.increment('window:a', 1000, t0 + 999)).toEqual({ current: 3, ttl: 1 });
    expect(await store.increment('window:a', 1000, t0 + 1000)).toEqual({ current: 1, ttl: 1000 });
  });

  it('counts 40 concurrent requests of one key as 1 to 40, each once', async () => {
    const store = new DatabaseRateLimitStore(server.database.db);
    const now = Date.now();
    const counts = await Promise.all(Array.from({ length: 40 }, () => store.increment('concurrent', 60_000, now)));
    expect(counts.map((count) => count.current).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it('deletes expired counters, at most once per cleanup interval, while counting', async () => {
    const store = new DatabaseRateLimitStore(server.database.db, 5000);
    const keys = () => server.database.db.selectFrom('rate_limits').select('key').where('key', 'like', 'cleanup:%').orderBy('key').execute();
    const t0 = 1_900_000_000_000;
    await store.increment('cleanup:old', 1000, t0); // cleans up now, then not before t0 + 5000
    await store.increment('cleanup:fresh', 10_000, t0);
    await store.increment('cleanup:other', 10_000, t0 + 2000);
    expect((await keys()).map((row) => row.key)).toEqual(['cleanup:fresh', 'cleanup:old', 'cleanup:other']);
    await store.increment('cleanup:fresh', 10_000, t0 + 5000);
    await expect.poll(async () => (await keys()).map((row) => row.key)).toEqual(['cleanup:fresh', 'cleanup:other']);
    expect(await store.removeExpired(t0 + 20_000)).toBeGreaterThanOrEqual(2);
    expect(await keys()).toEqual([]);
  });
});

describe('the client address behind a load balancer', () => {
  it('counts per X-Forwarded-For address only when the proxy is trusted (TRUST_PROXY)', async () => {
    const statuses = async (target: TestServer, forwardedFor: string, n: number) => {
      const result: number[] = [];
      for (let i = 0; i < n; i++) result.push((await call(target, 'GET', '/contacts', { key: 'wrong', headers: { 'x-forwarded-for': forwardedFor } })).status);
      return result;
    };
    const behind = await startServer({ rateLimitPerMinute: 2, trustProxy: ['127.0.0.1'] });
    try {
      expect(await statuses(behind, '203.0.113.1', 3)).toEqual([401, 401, 429]);
      expect(await statuses(behind, '203.0.113.2', 1)).toEqual([401]);
    } finally {
      await behind.close();
    }
    const direct = await startServer({ rateLimitPerMinute: 2 });
    try {
      expect(await statuses(direct, '203.0.113.1', 2)).toEqual([401, 401]);
      expect(await statuses(direct, '203.0.113.2', 1)).toEqual([429]);
    } finally {
      await direct.close();
    }
  });
});

const redisServer = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
})();

describe.runIf(redisServer)('with REDIS_URL (needs redis-server on PATH: apt-get install redis-server)', () => {
  let redis: ChildProcess;
  let url: string;
  let second: Awaited<ReturnType<typeof buildApp>>;
  let secondBase: string;
  let redisServerA: TestServer;

  beforeAll(async () => {
    const port = await getPort({ host: '127.0.0.1' });
    redis = spawn(redisServer, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    url = `redis://127.0.0.1:${port}`;
    const probe = new Redis(url, { lazyConnect: true, retryStrategy: () => 100 });
    probe.on('error', () => {}); // refused until the server listens
    await vi.waitFor(() => probe.ping(), { timeout: 10_000, interval: 100 });
    probe.disconnect();
    redisServerA = await startServer({ rateLimitPerMinute: 4, redisUrl: url });
    // A second app over the same database and Redis: another process, as far as counting goes.
    second = await buildApp({ database: redisServerA.database, rateLimitPerMinute: 4, redisUrl: url });
    await second.listen({ port: 0, host: '127.0.0.1' });
    const address = second.server.address();
    secondBase = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api`;
  });
  afterAll(async () => {
    await second?.close();
    await redisServerA?.close();
    redis?.kill('SIGTERM');
  });

  it('counts a key across both apps in Redis, not in the database', async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await call(i % 2 ? { baseUrl: secondBase } : redisServerA, 'GET', '/authorization', { key: redisServerA.a.key }));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 429]);
    expect(answers.slice(0, 4).map((answer) => answer.headers.get('x-ratelimit-remaining'))).toEqual(['3', '2', '1', '0']);
    expect(answers[4]?.body.message).toBe('ThrottlerException: Too Many Requests');
    expect(Number(answers[4]?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await redisServerA.database.db.selectFrom('rate_limits').selectAll().execute()).toEqual([]);
    const client = new Redis(url);
    try {
      expect((await client.keys('wsa-rate-limit:*')).length).toBeGreaterThan(0);
    } finally {
      client.disconnect();
    }
  });
});
