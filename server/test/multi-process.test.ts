/**
 * Several server processes on one database (issue 8), with real processes (`tsx server/main.ts`,
 * service-process.ts) on two ports over one fresh database: concurrent upserts, the scheduled-post job, the
 * shared rate limit, a process killed with SIGKILL mid-writes, and two processes migrating an empty database
 * at once, on PostgreSQL only (in the sqlite project those suites are skipped and say so; in the postgres
 * project an unreachable PostgreSQL fails them with what to do, test-database.ts). Concurrent writes to one
 * record (issue 12 point 2: tags, handles, unique emails and phones, notification settings) run on both
 * databases: two processes on one PostgreSQL database, or on one SQLite file.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/api/scopes';
import { openMigratedDatabase } from '../database';
import { type ServiceDatabase, openDatabase } from '../db/connection';
import { ContactStore } from '../db/contacts';
import { createApiKey } from '../db/credentials';
import { createOrganization, createWorkspace } from '../db/workspaces';
import { type CallResult, call, query } from './harness';
import { type ServiceProcess, startServiceProcess } from './service-process';
import { type TestDatabase, TEST_DATABASE, createMigratedTestDatabase, createTestDatabase } from './test-database';
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

type ProcessPair = { target: TestDatabase; database: ServiceDatabase; key: string; one: ServiceProcess; two: ServiceProcess; stop(): Promise<void> };

/**
 * A fresh, migrated database (`name`: an SQLite file in a temp folder, or a PostgreSQL database), an all-scope
 * key in it, and two service processes on it started with `env`; `stop()` stops them and removes it all.
 */
async function processPair(name: string, env: Record<string, string>): Promise<ProcessPair> {
  const dir = mkdtempSync(join(tmpdir(), `wsa-${name}-`));
  const target = await createMigratedTestDatabase(dir, name);
  const database = await openMigratedDatabase(target.url);
  const key = await keyIn(database);
  const [one, two] = await Promise.all([startServiceProcess(target.url, env), startServiceProcess(target.url, env)]);
  return {
    target,
    database,
    key,
    one,
    two,
    async stop() {
      await Promise.all([one.stop(), two.stop()]);
      await database.close();
      await target.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.runIf(onPostgres)(title('two server processes on one PostgreSQL database'), () => {
  let pair: ProcessPair;
  let database: ServiceDatabase;
  let key: string;
  let one: ServiceProcess;
  let two: ServiceProcess;

  beforeAll(async () => {
    // A limit no test reaches: every request still counts in the shared store. Info logs carry the job's ids.
    pair = await processPair('multi', { RATE_LIMIT_PER_MINUTE: '1000000', SCHEDULER_INTERVAL_MS: '50', LOG_LEVEL: 'info' });
    ({ database, key, one, two } = pair);
  }, 90_000);
  afterAll(() => pair?.stop());

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

describe(`two server processes on one ${onPostgres ? 'PostgreSQL database' : 'SQLite file'}: concurrent writes to one record`, () => {
  let pair: ProcessPair;
  let target: TestDatabase;
  let database: ServiceDatabase;
  let key: string;
  let one: ServiceProcess;
  let two: ServiceProcess;
  /** `count` requests made by `request(i)`, all sent at once, alternating between the two processes. */
  const concurrently = (count: number, request: (server: ServiceProcess, i: number) => Promise<CallResult>) =>
    Promise.all(Array.from({ length: count }, (_, i) => request(i % 2 ? two : one, i)));
  const statuses = (answers: CallResult[]) => answers.map((answer) => `${answer.status}${answer.status >= 300 ? ` ${answer.text}` : ''}`);
  const newContact = async (body: Record<string, unknown>) => {
    const created = await call(one, 'POST', '/contacts', { key, body });
    expect(created.status, created.text).toBe(201);
    return created.body.id as string;
  };

  beforeAll(async () => {
    pair = await processPair('concurrent', { SCHEDULER_INTERVAL_MS: '0' });
    ({ target, database, key, one, two } = pair);
  }, 90_000);
  afterAll(() => pair?.stop());

  it('keeps all 50 tags of 50 concurrent PATCHes adding t0...t49 to one contact, in its listed tags and in the tag index', async () => {
    const id = await newContact({ name: 'Tag target', tags: ['base'] });
    const answers = await concurrently(50, (server, i) => call(server, 'PATCH', `/contacts/${id}/tags`, { key, body: { tagsToAdd: [`t${i}`] } }));
    expect(statuses(answers)).toEqual(Array(50).fill('204'));
    const wanted = ['base', ...Array.from({ length: 50 }, (_, i) => `t${i}`)].sort();
    for (const server of [one, two]) {
      const listed = await call(server, 'GET', `/contacts${query({ $filter: `id eq '${id}'` })}`, { key });
      expect([...listed.body.items[0].tags].sort()).toEqual(wanted);
      const counted = await call(server, 'GET', '/contacts/contacts-tags', { key });
      expect(counted.body.filter((tag: { name: string }) => /^t\d+$/.test(tag.name))).toEqual(
        Array.from({ length: 50 }, (_, i) => ({ name: `t${i}`, count: 1 })).sort((a, b) => (a.name < b.name ? -1 : 1)),
      );
      const byTag = await call(server, 'GET', `/contacts${query({ $filter: "tags eq 't49'" })}`, { key });
      expect(byTag.body.items.map((item: { id: string }) => item.id)).toEqual([id]);
    }
  }, 30_000);

  it('runs a POST once when the same Idempotency-Key and body reach both processes at once (docs/decisions.md section 9)', async () => {
    for (let round = 0; round < 10; round++) {
      const email = `once-${randomUUID()}@example.com`;
      const headers = { 'Idempotency-Key': `mp-${randomUUID()}` };
      const answers = await concurrently(2, (server) => call(server, 'POST', '/contacts', { key, body: { email, name: 'Once' }, headers }));
      const first = answers.filter((answer) => answer.status === 201 && answer.headers.get('idempotent-replayed') === null);
      expect(first, statuses(answers).join(' | ')).toHaveLength(1);
      const other = answers.find((answer) => answer !== first[0])!;
      if (other.status === 201) {
        expect(other.headers.get('idempotent-replayed')).toBe('true');
        expect(other.body).toEqual(first[0]!.body);
      } else {
        expect(other.status, other.text).toBe(409);
        expect(other.body.message).toBe('A request with this Idempotency-Key is in progress');
      }
      const listed = await call(two, 'GET', `/contacts${query({ $filter: `email eq '${email}'` })}`, { key });
      expect(listed.body.meta.maxResults).toBe(1);
      const replay = await call(two, 'POST', '/contacts', { key, body: { name: 'Once', email }, headers });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.id).toBe(first[0]!.body.id);
    }
  }, 60_000);

  it('answers 204 to each of 20 concurrent PATCHes adding the same tag, and keeps it once', async () => {
    const id = await newContact({ name: 'Same tag target' });
    const answers = await concurrently(20, (server) => call(server, 'PATCH', `/contacts/${id}/tags`, { key, body: { tagsToAdd: ['same'] } }));
    expect(statuses(answers)).toEqual(Array(20).fill('204'));
    const listed = await call(one, 'GET', `/contacts${query({ $filter: `id eq '${id}'` })}`, { key });
    expect(listed.body.items[0].tags).toEqual(['same']);
    const rows = await database.db.selectFrom('contact_tags').select('tag').where('contact_id', '=', id).execute();
    expect(rows).toEqual([{ tag: 'same' }]);
  }, 30_000);

  it('answers 201 to 50 concurrent creates of products titled alike, with handles x, x-2, ..., x-50', async () => {
    const title = `Racing Shoe ${randomUUID().slice(0, 8)}`;
    const answers = await concurrently(50, (server) => call(server, 'POST', '/products', { key, body: { title } }));
    expect(statuses(answers)).toEqual(Array(50).fill('201'));
    const base = title.toLowerCase().replaceAll(' ', '-');
    const products = await listAll(one, '/products', key, `title eq '${title}'`);
    expect(products.map((product) => product.handle).sort()).toEqual([base, ...Array.from({ length: 49 }, (_, i) => `${base}-${i + 2}`)].sort());
    expect(new Set(products.map((product) => product.id))).toEqual(new Set(answers.map((answer) => answer.body.id)));
  }, 30_000);

  it('answers 201 to 20 concurrent creates of collections titled alike, with handles x, x-2, ..., x-20', async () => {
    const title = `Summer ${randomUUID().slice(0, 8)}`;
    const answers = await concurrently(20, (server) => call(server, 'POST', '/collections', { key, body: { title } }));
    expect(statuses(answers)).toEqual(Array(20).fill('201'));
    const base = title.toLowerCase().replaceAll(' ', '-');
    const collections = await listAll(one, '/collections', key, `title eq '${title}'`);
    expect(collections.map((collection) => collection.handle).sort()).toEqual([base, ...Array.from({ length: 19 }, (_, i) => `${base}-${i + 2}`)].sort());
  }, 30_000);

  it('creates one contact of 20 concurrent creates with one email (one 201, nineteen 409), and likewise with one phone', async () => {
    const run = randomUUID().slice(0, 8);
    for (const body of [{ email: `same-${run}@example.com` }, { phone: `+47${String(parseInt(run, 16)).padStart(10, '0').slice(0, 8)}` }]) {
      const answers = await concurrently(20, (server, i) => call(server, 'POST', '/contacts', { key, body: { name: `Twin ${i}`, ...body } }));
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, ...Array(19).fill(409)]);
      for (const answer of answers.filter((item) => item.status === 409)) expect(answer.body.message).toMatch(/^A contact with (email|phone) .+ already exists$/);
      const [field, value] = Object.entries(body)[0]!;
      const found = await call(two, 'GET', `/contacts${query({ $filter: `${field} eq '${value}'` })}`, { key });
      expect(found.body.meta.maxResults).toBe(1);
    }
  }, 30_000);

  // Through the stores on two connections of their own, as two processes' pools would: behind HTTP, each
  // request's scrypt check spaces the updates out too much to meet the race reliably. PostgreSQL only: two
  // SQLite connections in one process block each other (a synchronous wait for the write lock stops the event
  // loop that would release it); there the same fix (`begin immediate`) is what the HTTP cases above test.
  it.runIf(onPostgres)('keeps both channels off after 20 concurrent notification-settings updates turning off email or sms, on two connections', async () => {
    const second = openDatabase(target.url);
    try {
      const stores = [new ContactStore(database.db, database.dialect), new ContactStore(second.db, second.dialect)];
      const { workspace_id: workspaceId } = await database.db.selectFrom('api_keys').select('workspace_id').executeTakeFirstOrThrow();
      for (let round = 0; round < 3; round++) {
        const id = await newContact({ name: `Channels ${round}`, email: `channels-${round}-${randomUUID().slice(0, 8)}@example.com`, phone: `+479123400${round}`, notificationSettings: 'email,sms' });
        const updated = await Promise.all(
          Array.from({ length: 20 }, (_, i) => stores[i % 2]!.patchNotificationSettings(workspaceId, id, i % 4 < 2 ? { email: false } : { sms: false })),
        );
        expect(updated.every((row) => row.state === 'active')).toBe(true);
        const listed = await call(one, 'GET', `/contacts${query({ $filter: `id eq '${id}'` })}`, { key });
        expect(listed.body.items[0].notificationSettings).toEqual({ email: false, sms: false });
      }
    } finally {
      await second.close();
    }
  }, 30_000);

  it('answers 201 to 20 concurrent post requests naming the same recipients', async () => {
    const recipient = await newContact({ name: 'Recipient' });
    const answers = await concurrently(20, (server, i) => call(server, 'POST', '/post-requests', { key, body: { action: 'publish', text: `Private ${i}`, recipients: [recipient] } }));
    expect(statuses(answers)).toEqual(Array(20).fill('201'));
    const rows = await database.db.selectFrom('posts').select('id').where('id', 'in', answers.map((answer) => answer.body.body.requestId)).execute();
    expect(rows).toHaveLength(20);
  }, 30_000);
});
