/**
 * Several server processes on one PostgreSQL database (issue 8), with real processes (`tsx server/main.ts`,
 * service-process.ts) on two ports over one fresh database: concurrent upserts, the scheduled-post job, the
 * shared rate limit, a process killed with SIGKILL mid-writes, and two processes migrating an empty database
 * at once. PostgreSQL only: in the sqlite project the suite is skipped and says so; in the postgres project an
 * unreachable PostgreSQL fails it with what to do (test-database.ts).
 */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/api/scopes';
import { openMigratedDatabase } from '../database';
import { type ServiceDatabase, openDatabase } from '../db/connection';
import { createApiKey } from '../db/credentials';
import { createOrganization, createWorkspace } from '../db/workspaces';
import { call, query } from './harness';
import { type ServiceProcess, startServiceProcess } from './service-process';
import { TEST_DATABASE, type TestDatabase, createTestDatabase } from './test-database';
import { MIGRATION_NAMES } from '../db/migrations';

const onPostgres = TEST_DATABASE === 'postgres';
const title = (text: string) => (onPostgres ? text : `${text}: needs PostgreSQL (runs in the postgres project)`);

/** An organization, a workspace and an all-scope key in `database`; returns the key. */
async function keyIn(database: ServiceDatabase): Promise<string> {
  const organization = await createOrganization(database.db, 'Multi-process Organization');
  const workspace = await createWorkspace(database.db, { organizationId: organization.id, name: 'Multi-process Workspace' });
  return createApiKey(database.db, workspace.id, SCOPES);
}

/** Every item of a paged list (`$limit` 100) matching `filter`, read through `server`. */
async function listAll(server: ServiceProcess, path: string, key: string, filter: string): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await call(server, 'GET', `${path}${query({ $filter: filter, $limit: 100, $offset: offset })}`, { key });
    expect(page.status, page.text).toBe(200);
    items.push(...page.body.items);
    if (items.length >= page.body.meta.maxResults || page.body.items.length === 0) return items;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(onPostgres)(title('two server processes on one PostgreSQL database'), () => {
  let target: TestDatabase;
  let database: ServiceDatabase;
  let key: string;
  let one: ServiceProcess;
  let two: ServiceProcess;

  beforeAll(async () => {
    target = await createTestDatabase(tmpdir(), 'multi');
    database = await openMigratedDatabase(target.url);
    key = await keyIn(database);
    // A limit no test reaches: every request still counts in the shared store. Info logs carry the job's ids.
    const env = { RATE_LIMIT_PER_MINUTE: '1000000', SCHEDULER_INTERVAL_MS: '50', LOG_LEVEL: 'info' };
    [one, two] = await Promise.all([startServiceProcess(target.url, env), startServiceProcess(target.url, env)]);
  }, 90_000);
  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
    await database?.close();
    await target?.drop();
  });

  it('leaves exactly one product after 20 concurrent upserts of one new externalId spread over both processes', async () => {
    const externalId = `race-${randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(i % 2 ? two : one, 'POST', '/products', { key, body: { externalId, title: `Racer ${i}`, price: i } })),
    );
    expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 201).map((answer) => answer.text)).toEqual([]);
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    const id = answers[0]?.body.id as string;
    expect(new Set(answers.map((answer) => answer.body.id))).toEqual(new Set([id]));
    for (const server of [one, two]) {
      const listed = await call(server, 'GET', `/products${query({ $filter: `externalId eq '${externalId}'` })}`, { key });
      expect(listed.body.meta.maxResults).toBe(1);
      expect(listed.body.items[0].id).toBe(id);
    }
    const rows = await database.db.selectFrom('products').select('id').where('external_id', '=', externalId).execute();
    expect(rows).toEqual([{ id }]);
  });

  it("publishes each scheduled post exactly once with both processes' jobs running every 50 ms", async () => {
    const due = Date.now() + 2500;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => {
        const body = { action: 'schedule', text: `Scheduled ${i}`, publishDate: new Date(due + i * 37).toISOString() };
        return call(i % 2 ? two : one, 'POST', '/post-requests', { key, body });
      }),
    );
    expect(answers.filter((answer) => answer.status !== 201).map((answer) => answer.text)).toEqual([]);
    const ids: string[] = answers.map((answer) => answer.body.body.requestId);
    await expect
      .poll(async () => (await database.db.selectFrom('posts').select('state').where('id', 'in', ids).where('state', '=', 'published').execute()).length, {
        timeout: 15_000,
        interval: 100,
      })
      .toBe(ids.length);
    await sleep(500); // ten more runs of each job: a second publication would be logged by now

    // Each process logs the ids its own claim returned (scheduler.ts): the two logs together name each post once.
    const byProcess = [one, two].map((server) => server.logged('published scheduled posts').flatMap((entry) => entry.posts as string[]));
    const published = byProcess.flat().filter((id) => ids.includes(id));
    expect(published.sort()).toEqual([...ids].sort());
    for (const server of [one, two]) {
      const listed = await call(server, 'GET', `/posts${query({ $filter: "text like 'Scheduled '", $limit: 30 })}`, { key });
      expect(listed.body.items.map((post: { id: string }) => post.id).sort()).toEqual([...ids].sort());
    }
  }, 30_000);

  it('loses no acknowledged write when one process is killed with SIGKILL mid-stream, and the other keeps answering', async () => {
    const run = randomUUID().slice(0, 8);
    // 400 writes, 3 contact creates to 1 product upsert, 16 at a time, all to process one.
    const writes = Array.from({ length: 400 }, (_, i) =>
      i % 4 === 3
        ? { kind: 'product' as const, name: `kill-${run}-${i}`, path: '/products', body: { externalId: `kill-${run}-${i}`, title: `Kill ${i}` } }
        : { kind: 'contact' as const, name: `kill-${run}-${i}@example.com`, path: '/contacts', body: { name: `Kill ${i}`, email: `kill-${run}-${i}@example.com` } },
    );
    const acknowledged = { contact: new Set<string>(), product: new Set<string>() };
    const unexpected: string[] = [];
    let failed = 0;
    let inFlight = 0;
    let inFlightAtKill = -1;
    let killed: Promise<void> | null = null;
    let next = 0;
    const worker = async () => {
      while (next < writes.length) {
        const write = writes[next++]!;
        inFlight++;
        try {
          const answer = await call(one, 'POST', write.path, { key, body: write.body });
          if (answer.status === 200 || answer.status === 201) acknowledged[write.kind].add(write.name);
          else unexpected.push(`${answer.status} ${answer.text}`);
        } catch {
          failed++; // the connection was refused or reset: not acknowledged
        } finally {
          inFlight--;
        }
        if (!killed && acknowledged.contact.size + acknowledged.product.size >= 120) {
          inFlightAtKill = inFlight;
          killed = one.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    await killed;

    expect(unexpected).toEqual([]);
    expect(inFlightAtKill).toBeGreaterThan(0);
    expect(failed).toBeGreaterThan(0);
    expect(one.child.signalCode).toBe('SIGKILL');
    await expect.poll(() => fetch(`${one.origin}/healthz`).then(() => 'answering', () => 'gone')).toBe('gone');

    const contacts = new Set((await listAll(two, '/contacts', key, `email like 'kill-${run}-%'`)).map((item) => item.email as string));
    const products = new Set((await listAll(two, '/products', key, `externalId like 'kill-${run}-%'`)).map((item) => item.externalId as string));
    const sent = new Set(writes.map((write) => write.name));
    for (const [kind, stored] of [['contact', contacts], ['product', products]] as const) {
      const missing = [...acknowledged[kind]].filter((name) => !stored.has(name));
      expect(missing, `acknowledged ${kind} writes missing after the kill`).toEqual([]);
      expect([...stored].filter((name) => !sent.has(name))).toEqual([]);
    }
    // Writes committed without an answer can only be among those in flight when the process died.
    expect(contacts.size + products.size - acknowledged.contact.size - acknowledged.product.size).toBeLessThanOrEqual(inFlightAtKill);

    const email = `after-${run}@example.com`;
    const created = await call(two, 'POST', '/contacts', { key, body: { name: 'After the kill', email } });
    expect(created.status, created.text).toBe(201);
    const found = await call(two, 'GET', `/contacts${query({ $filter: `email eq '${email}'` })}`, { key });
    expect(found.body.items.map((item: { id: string }) => item.id)).toEqual([created.body.id]);
    expect((await fetch(`${two.origin}/healthz`)).status).toBe(200);
  }, 40_000);
});

describe.runIf(onPostgres)(title('two server processes started together on an empty PostgreSQL database'), () => {
  let target: TestDatabase;
  let database: ServiceDatabase;
  let key: string;
  let one: ServiceProcess;
  let two: ServiceProcess;
  const LIMIT = 5;

  beforeAll(async () => {
    target = await createTestDatabase(tmpdir(), 'empty');
    const env = { RATE_LIMIT_PER_MINUTE: String(LIMIT) };
    [one, two] = await Promise.all([startServiceProcess(target.url, env), startServiceProcess(target.url, env)]);
    database = openDatabase(target.url); // not migrating: the processes did
    key = await keyIn(database);
  }, 90_000);
  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
    await database?.close();
    await target?.drop();
  });

  it('both come up, the migrations applied once between them', async () => {
    for (const server of [one, two]) expect(await (await fetch(`${server.origin}/healthz`)).json()).toEqual({ status: 'ok', database: 'postgres' });
    const applied = await database.db.selectFrom('kysely_migration' as never).select('name' as never).orderBy('name' as never).execute();
    expect(applied).toEqual(MIGRATION_NAMES.map((name) => ({ name })));
  });

  it(`counts a key's requests across both processes: ${LIMIT} alternating requests pass, the next is 429 on either`, async () => {
    const answers = [];
    for (let i = 0; i < LIMIT + 2; i++) answers.push(await call(i % 2 ? two : one, 'GET', '/authorization', { key }));
    expect(answers.map((answer) => answer.status)).toEqual([...Array(LIMIT).fill(200), 429, 429]);
    expect(answers.slice(0, LIMIT).map((answer) => answer.headers.get('x-ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0']);
    for (const answer of answers.slice(LIMIT)) {
      expect(answer.body.message).toBe('ThrottlerException: Too Many Requests');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(answer.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    }
  });
});
