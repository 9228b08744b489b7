/**
 * `GET /healthz` (issue 8): outside `/api`, no credential, never rate limited; 200 with the database kind after
 * a `select 1`, 503 with the error body when the database is closed, gone, or does not answer in time.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, call, startServer } from './harness';
import { TEST_DATABASE, onPostgresServer } from './test-database';

const origin = (server: TestServer) => server.baseUrl.replace(/\/api$/, '');
const health = async (server: TestServer) => {
  const response = await fetch(`${origin(server)}/healthz`);
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
};

/** The error body of docs/decisions.md section 3 for a 503 on /healthz. */
function expectUnavailable(answer: Awaited<ReturnType<typeof health>>) {
  expect(answer.status).toBe(503);
  expect(answer.body).toMatchObject({ statusCode: 503, message: 'Database unavailable', path: '/healthz' });
  expect(answer.body.traceId).toBe(answer.headers.get('x-trace-id'));
  expect(Number.isNaN(Date.parse(String(answer.body.timestamp)))).toBe(false);
}

describe('GET /healthz', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ rateLimitPerMinute: 2 });
  });
  afterAll(() => server.close());

  it(`answers 200 { status: 'ok', database: '${TEST_DATABASE}' } without a key, outside /api`, async () => {
    const answer = await health(server);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'ok', database: TEST_DATABASE });
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('x-trace-id')).toBeTruthy();
    expect((await call(server, 'GET', '/healthz')).status).toBe(404);
  });

  it('is never rate limited, while the API beside it is', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await health(server)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const api: number[] = [];
    for (let i = 0; i < 3; i++) api.push((await call(server, 'GET', '/authorization')).status);
    expect(api).toEqual([401, 401, 429]);
  });

  it('answers 503 with the error body once the database is closed under the running app', async () => {
    const doomed = await startServer();
    try {
      expect((await health(doomed)).status).toBe(200);
      await doomed.database.close();
      expectUnavailable(await health(doomed));
    } finally {
      await doomed.close();
    }
  });

  it.runIf(TEST_DATABASE === 'postgres')('answers 503 when its PostgreSQL database is dropped under the running app', async () => {
    const doomed = await startServer();
    try {
      expect((await health(doomed)).status).toBe(200);
      const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(doomed.database.db);
      await onPostgresServer(`drop database "${rows[0]!.name}" with (force)`);
      expectUnavailable(await health(doomed));
    } finally {
      await doomed.close();
    }
  });

  it.runIf(TEST_DATABASE === 'postgres')('answers 503 within about 2 s when no database connection comes free, and 200 again after', async () => {
    const poolSize = Number(process.env.PG_POOL_MAX) || 10;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let acquired = 0;
    const holders = Array.from({ length: poolSize }, () =>
      server.database.db.connection().execute(async () => {
        acquired++;
        await held;
      }),
    );
    try {
      await expect.poll(() => acquired).toBe(poolSize);
      const started = performance.now();
      expectUnavailable(await health(server));
      expect(performance.now() - started).toBeGreaterThan(1900);
      expect(performance.now() - started).toBeLessThan(4000);
    } finally {
      release();
      await Promise.all(holders);
    }
    expect((await health(server)).status).toBe(200);
  });
});
