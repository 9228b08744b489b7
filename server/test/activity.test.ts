/**
 * The activity log and its revert (docs/decisions.md section 11, issue 33) on both databases: what every write
 * records and what it does not, the request headers, `GET /activity` with its filters, scopes and exact counts,
 * `POST /activity/revert` for one entry and a whole batch with every conflict rule, erasure emptying the history,
 * retention, and a revert through one process of what another process wrote.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityListSchema } from '../../src/api/activity';
import { SCOPES } from '../../src/api/scopes';
import { buildApp } from '../app';
import { openMigratedDatabase } from '../database';
import { ActivityStore, PRUNE_BATCH } from '../db/activity';
import { createApiKey } from '../db/credentials';
import { entriesToRevert } from '../db/revert';
import { createOrganization, createWorkspace } from '../db/workspaces';
import { type TestServer, call, query, startServer, unique } from './harness';
import { startServiceProcess } from './service-process';
import { TEST_DATABASE, createMigratedTestDatabase } from './test-database';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function newContact(body: Record<string, unknown> = {}, headers: Record<string, string> = {}, key = server.a.key): Promise<string> {
  const created = await call(server, 'POST', '/contacts', { key, headers, body: { name: 'Kari Nordmann', email: `${unique('k')}@example.com`, ...body } });
  expect(created.status, created.text).toBe(201);
  return created.body.id as string;
}

async function activity(params: Record<string, string | number | undefined>, key = server.a.key) {
  const answer = await call(server, 'GET', `/activity${query({ $limit: 100, ...params })}`, { key });
  expect(answer.status, answer.text).toBe(200);
  // The page is written as JSON by the database (db/activity.ts, ActivityStore.list): it must be the contract's shape, whole.
  expect(activityListSchema.parse(answer.body)).toEqual(answer.body);
  return answer.body as { items: Record<string, any>[]; meta: { maxResults: number } };
}

const historyOf = async (id: string, key = server.a.key) => (await activity({ $filter: `resourceId eq '${id}'`, $orderBy: 'created asc' }, key)).items;

async function contact(id: string): Promise<Record<string, any> | undefined> {
  const answer = await call(server, 'GET', `/contacts${query({ $filter: `id eq '${id}'` })}`, { key: server.a.key });
  return answer.body.items[0];
}

async function revert(body: Record<string, unknown>, key = server.a.key, headers: Record<string, string> = {}) {
  return call(server, 'POST', '/activity/revert', { key, body, headers });
}

describe('what a write records', () => {
  it('records a create with every field it set (before null), the key hint, source api, the trace id and no batch', async () => {
    const email = `${unique('ola')}@example.com`;
    const created = await call(server, 'POST', '/contacts', { key: server.a.key, body: { name: 'Ola', email, city: 'Oslo', tags: ['vip'], addDirectly: true } });
    expect(created.status).toBe(201);
    const [entry, ...more] = await historyOf(created.body.id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      resource: 'contact',
      resourceId: created.body.id,
      action: 'create',
      keyHint: `…${server.a.key.slice(-4)}`,
      source: 'api',
      batchId: null,
      requestId: created.headers.get('x-trace-id'),
      idempotencyKey: null,
      revertOf: null,
    });
    expect(entry!.changes).toMatchObject({ name: [null, 'Ola'], email: [null, email], city: [null, 'Oslo'], tags: [['vip'], []], state: [null, 'active'] });
    expect(entry!.changes.notificationSettings).toEqual([null, { email: true, sms: false }]);
    expect(entry!.keyHint).toHaveLength(5);
  });

  it('takes Activity-Source and Activity-Batch from the request, and Idempotency-Key', async () => {
    const batch = unique('job-');
    const id = await newContact({}, { 'Activity-Source': 'console/import', 'Activity-Batch': batch, 'Idempotency-Key': unique('idem-') });
    const [entry] = await historyOf(id);
    expect(entry).toMatchObject({ source: 'console/import', batchId: batch });
    expect(entry!.idempotencyKey).toMatch(/^idem-/);
  });

  it.each([
    ['an empty Activity-Source', { 'Activity-Source': '' }, 'Activity-Source must not be empty'],
    ['an Activity-Source of 101 characters', { 'Activity-Source': 'x'.repeat(101) }, 'Activity-Source must be at most 100 characters long'],
    ['an Activity-Batch of 256 characters', { 'Activity-Batch': 'x'.repeat(256) }, 'Activity-Batch must be at most 255 characters long'],
  ])('refuses %s with 400 and writes nothing', async (_name, headers, message) => {
    const email = `${unique('refused')}@example.com`;
    const answer = await call(server, 'POST', '/contacts', { key: server.a.key, headers, body: { email } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(message);
    expect((await call(server, 'GET', `/contacts${query({ $filter: `email eq '${email}'` })}`, { key: server.a.key })).body.meta.maxResults).toBe(0);
  });

  it('allows both headers in a CORS preflight where CORS_ORIGINS is set', async () => {
    const app = await buildApp({ database: server.database, rateLimitPerMinute: 0, schedulerIntervalMs: 0, corsOrigins: ['https://console.example.com'] });
    try {
      const preflight = await app.inject({
        method: 'OPTIONS',
        url: '/api/contacts',
        headers: { origin: 'https://console.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key, activity-source, activity-batch' },
      });
      expect(preflight.statusCode).toBe(204);
      const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase();
      expect(allowed).toContain('activity-source');
      expect(allowed).toContain('activity-batch');
    } finally {
      await app.close();
    }
  });

  it('adds nothing for a write that changes nothing or fails', async () => {
    const email = `${unique('same')}@example.com`;
    const id = await newContact({ email, tags: ['vip'] });
    expect((await call(server, 'PATCH', `/contacts/${id}/tags`, { key: server.a.key, body: { tagsToAdd: ['vip'] } })).status).toBe(204);
    expect((await call(server, 'PATCH', `/contacts/${id}`, { key: server.a.key, body: { email } })).status).toBe(200);
    expect((await call(server, 'POST', '/contacts', { key: server.a.key, body: { email } })).status).toBe(409);
    expect((await call(server, 'PATCH', `/contacts/${id}/tags`, { key: server.a.key, body: { tagsToAdd: Array.from({ length: 101 }, (_, i) => `t${i}`) } })).status).toBe(400);
    expect((await historyOf(id)).map((entry) => entry.action)).toEqual(['create']);
  });

  it('records tags as [added, removed], a correction as the fields it changed, consent by the Basic access key', async () => {
    const id = await newContact({ city: 'Bergen', tags: ['a'] });
    await call(server, 'PATCH', `/contacts/${id}/tags`, { key: server.a.key, body: { tagsToAdd: ['b'], tagsToRemove: ['a'] } });
    await call(server, 'PATCH', `/contacts/${id}`, { key: server.a.key, body: { city: 'Oslo', name: 'Kari Nordmann' } });
    const consent = await call(server, 'PATCH', `/contacts/${id}/notification-settings`, { headers: { authorization: server.a.basic }, body: { email: false } });
    expect(consent.status, consent.text).toBe(200);
    const [, tags, update, notifications] = await historyOf(id);
    expect(tags).toMatchObject({ action: 'tags', changes: { tags: [['b'], ['a']] } });
    expect(update).toMatchObject({ action: 'update', changes: { city: ['Bergen', 'Oslo'] } });
    expect(Object.keys(update!.changes)).toEqual(['city']);
    const accessKey = Buffer.from(server.a.basic.slice(6), 'base64').toString().split(':')[0]!;
    expect(notifications).toMatchObject({
      action: 'notifications',
      keyHint: `…${accessKey.slice(-4)}`,
      changes: { state: ['pending', 'active'], notificationSettings: [{ email: true, sms: false }, { email: false, sms: false }] },
    });
  });

  it('records products, collections and post requests, their deletes and withdrawals', async () => {
    const product = await call(server, 'POST', '/products', { key: server.a.key, body: { title: 'Tent', price: 100 } });
    await call(server, 'POST', '/products', { key: server.a.key, body: { id: product.body.id, title: 'Big tent' } });
    await call(server, 'POST', '/products', { key: server.a.key, body: { id: product.body.id, title: 'Big tent' } });
    expect((await call(server, 'DELETE', `/products/${product.body.id}`, { key: server.a.key })).status).toBe(204);
    expect((await historyOf(product.body.id)).map((entry) => [entry.resource, entry.action, entry.changes?.title])).toEqual([
      ['product', 'create', [null, 'Tent']],
      ['product', 'update', ['Tent', 'Big tent']],
      ['product', 'delete', undefined],
    ]);
    const collection = await call(server, 'POST', '/collections', { key: server.a.key, body: { title: 'Camping' } });
    expect((await historyOf(collection.body.id)).map((entry) => entry.resource)).toEqual(['collection']);
    const post = await call(server, 'POST', '/post-requests', { key: server.a.key, body: { action: 'suggest', text: 'Maybe', recipients: [await newContact()] } });
    expect((await call(server, 'DELETE', `/post-requests/${post.body.body.requestId}`, { key: server.a.key })).status).toBe(204);
    const history = await historyOf(post.body.body.requestId);
    expect(history.map((entry) => entry.action)).toEqual(['create', 'withdraw']);
    expect(history[0]!.changes).toEqual({ action: [null, 'suggest'], state: [null, 'suggested'], text: [null, 'Maybe'] });
  });

  it('names a key made before the log with a null hint', async () => {
    const key = await server.keyWith(server.a, ['contacts:read-write', 'feeds:read-write']);
    await server.database.db.updateTable('api_keys').set({ key_hint: null }).where('workspace_id', '=', server.a.id).where('key_hint', '=', `…${key.slice(-4)}`).execute();
    const id = await newContact({}, {}, key);
    expect((await historyOf(id))[0]!.keyHint).toBeNull();
  });
});

describe('GET /activity', () => {
  let batch: string;
  let ids: string[];
  beforeAll(async () => {
    batch = unique('list-');
    ids = [];
    for (let i = 0; i < 3; i++) ids.push(await newContact({}, { 'Activity-Batch': batch, 'Activity-Source': 'console/test' }));
  });

  it('filters by batch and source with an exact count, newest first by default and oldest first on request', async () => {
    const page = await activity({ $filter: `batchId eq '${batch}'`, $limit: 2 });
    expect(page.meta.maxResults).toBe(3);
    expect(page.items.map((entry) => entry.resourceId)).toEqual([ids[2], ids[1]]);
    const ascending = await activity({ $filter: `batchId eq '${batch}' and source eq 'console/test'`, $orderBy: 'created asc' });
    expect(ascending.items.map((entry) => entry.resourceId)).toEqual(ids);
    const created = ascending.items[0]!.created as string;
    expect((await activity({ $filter: `batchId eq '${batch}' and created ge '${created}' and action eq 'create'` })).meta.maxResults).toBe(3);
  });

  it('shows a key only the entries of the resources it can read, and another workspace none', async () => {
    const product = await call(server, 'POST', '/products', { key: server.a.key, body: { title: unique('Stove') } });
    const contactsOnly = await server.keyWith(server.a, ['contacts:read-only']);
    expect((await activity({ $filter: `resourceId eq '${product.body.id}'` }, contactsOnly)).meta.maxResults).toBe(0);
    expect((await activity({ $filter: `resourceId eq '${ids[0]}'` }, contactsOnly)).meta.maxResults).toBe(1);
    const postsOnly = await server.keyWith(server.a, ['posts:read-only']);
    expect((await activity({ $filter: `resource eq 'contact'` }, postsOnly)).meta.maxResults).toBe(0);
    expect((await activity({ $filter: `batchId eq '${batch}'` }, server.b.key)).meta.maxResults).toBe(0);
  });

  it.each([
    [{ $limit: 101 }, '$limit'],
    [{ $filter: "email eq 'x'" }, '$filter'],
    [{ $orderBy: 'resource asc' }, '$orderBy'],
  ])('refuses %j with 400', async (params, word) => {
    const answer = await call(server, 'GET', `/activity${query(params)}`, { key: server.a.key });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain(word);
  });

  it('refuses a request without a key with 401', async () => {
    expect((await call(server, 'GET', '/activity')).status).toBe(401);
  });
});

describe('POST /activity/revert', () => {
  it('reverts one correction: the old value back, a revert entry with revertOf and a fresh batch; twice reverts nothing', async () => {
    const id = await newContact({ city: 'Bergen' });
    await call(server, 'PATCH', `/contacts/${id}`, { key: server.a.key, body: { city: 'Oslo' } });
    const update = (await historyOf(id))[1]!;
    const answer = await revert({ activityId: update.activityId }, server.a.key, { 'Activity-Source': 'console/history' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ reverted: 1, conflicts: [] });
    expect((await contact(id))!.city).toBe('Bergen');
    const entry = (await historyOf(id))[2]!;
    expect(entry).toMatchObject({ action: 'revert', revertOf: update.activityId, batchId: answer.body.batchId, source: 'console/history', changes: { city: ['Oslo', 'Bergen'] } });
    const again = await revert({ activityId: update.activityId });
    expect(again.body).toMatchObject({ reverted: 0, conflicts: [{ activityId: update.activityId, resourceId: id, reason: 'already-reverted' }] });
  });

  it('reverts a whole batch newest first; a record changed since by another batch is kept and named', async () => {
    const batch = unique('import-');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await newContact({ tags: ['imported'] }, { 'Activity-Batch': batch }));
    // Within the batch: a later tag change of the same batch is no conflict.
    await call(server, 'PATCH', `/contacts/${ids[0]}/tags`, { key: server.a.key, headers: { 'Activity-Batch': batch }, body: { tagsToAdd: ['second'] } });
    // Elsewhere: a colleague corrects one of them.
    await call(server, 'PATCH', `/contacts/${ids[3]}`, { key: server.a.key, body: { city: 'Tromsø' } });
    const answer = await revert({ batchId: batch });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.reverted).toBe(5);
    expect(answer.body.conflicts).toEqual([{ activityId: expect.any(String), resourceId: ids[3], reason: 'changed-since' }]);
    for (const [i, id] of ids.entries()) expect(await contact(id), `contact ${i}`)[i === 3 ? 'toBeDefined' : 'toBeUndefined']();
    const replay = await revert({ batchId: batch });
    expect(replay.body.reverted).toBe(0);
    expect(replay.body.conflicts.map((c: { reason: string }) => c.reason).sort()).toEqual(['already-reverted', 'already-reverted', 'already-reverted', 'already-reverted', 'already-reverted', 'changed-since']);
  });

  it('reverts a run of creates a chunk at a time, naming each conflict as one by one would, and erases the rest from posts and kept answers', async () => {
    const batch = unique('creates-');
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await newContact({ tags: ['imported'] }, { 'Activity-Batch': batch, 'Idempotency-Key': unique('create-') }));
    // Since the import: ids[1] erased (gone), ids[2]'s create reverted alone (already-reverted), ids[3] tagged by a colleague.
    expect((await call(server, 'DELETE', `/contacts/${ids[1]}`, { key: server.a.key })).status).toBe(204);
    const [create2] = await historyOf(ids[2]!);
    expect((await revert({ activityId: create2!.activityId })).body.reverted).toBe(1);
    await call(server, 'PATCH', `/contacts/${ids[3]}/tags`, { key: server.a.key, body: { tagsToAdd: ['kept'] } });
    const post = await call(server, 'POST', '/post-requests', { key: server.a.key, body: { action: 'publish', text: 'private', recipients: { contactIds: [ids[0], ids[3], ids[4]] } } });
    expect(post.status, post.text).toBe(201);

    const { db } = server.database;
    const answersHolding = async (id: string) =>
      (await db.selectFrom('idempotency_keys').select('body').where('workspace_id', '=', server.a.id).execute()).filter((row) => row.body?.includes(id)).length;
    for (const i of [0, 4, 5]) expect(await answersHolding(ids[i]!), `answers holding contact ${i} before`).toBe(1);

    const answer = await revert({ batchId: batch });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.reverted).toBe(3);
    expect(answer.body.conflicts.map((c: { resourceId: string; reason: string }) => [c.resourceId, c.reason])).toEqual([
      [ids[3], 'changed-since'],
      [ids[2], 'already-reverted'],
      [ids[1], 'gone'],
    ]);
    for (const [i, id] of ids.entries()) expect(await contact(id), `contact ${i}`)[i === 3 ? 'toBeDefined' : 'toBeUndefined']();
    const stored = await db.selectFrom('posts').select('recipients').where('id', '=', post.body.body.requestId).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.recipients as string)).toEqual({ contactIds: [ids[3]] });
    for (const [i, id] of ids.entries()) expect(await answersHolding(id), `answers holding contact ${i}`).toBe(i === 3 ? 1 : 0);
    const [create, undone] = await historyOf(ids[0]!);
    expect([create!.changes, undone!.action, undone!.revertOf, undone!.batchId]).toEqual([null, 'revert', create!.activityId, answer.body.batchId]);
  });

  it('keeps and names a correction whose old email another contact took since, reverting the rest of its batch (a write that fails after its checks)', async () => {
    const batch = unique('corrections-');
    const old = `${unique('old')}@example.com`;
    const clashing = await newContact({ email: old });
    const others = [await newContact({ city: 'Hamar' }), await newContact({ city: 'Gjøvik' })];
    await call(server, 'PATCH', `/contacts/${clashing}`, { key: server.a.key, headers: { 'Activity-Batch': batch }, body: { email: `${unique('new')}@example.com` } });
    for (const id of others) await call(server, 'PATCH', `/contacts/${id}`, { key: server.a.key, headers: { 'Activity-Batch': batch }, body: { city: 'Lillehammer' } });
    // The old address is given to a new contact: no later entry of the corrected contact, so only the write can tell.
    await newContact({ email: old });
    const answer = await revert({ batchId: batch });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.reverted).toBe(2);
    expect(answer.body.conflicts).toEqual([{ activityId: expect.any(String), resourceId: clashing, reason: 'changed-since' }]);
    expect((await contact(others[0]!))!.city).toBe('Hamar');
    expect((await contact(others[1]!))!.city).toBe('Gjøvik');
    expect((await contact(clashing))!.email).not.toBe(old);
  });

  it('answers a batch revert that runs longer than the idle timeout (the connection is not closed under it)', async () => {
    // Only the idle timeout is short; a keep-alive timeout under a second also keeps fetch from reusing a connection.
    const patient = await startServer({ timeouts: { headersMs: 5000, requestMs: 10_000, keepAliveMs: 400, idleMs: 150 } });
    try {
      const batch = unique('long-');
      // 2,000 creates: a revert undoes a run of creates a chunk at a time, 0.2 ms a contact on PostgreSQL.
      for (const part of [0, 1]) {
        const items = Array.from({ length: 1000 }, (_, i) => ({ email: `${unique(`long${part}-${i}-`)}@example.com`, tags: ['imported'] }));
        const created = await call(patient, 'POST', '/contacts/batch', { key: patient.a.key, headers: { 'Activity-Batch': batch }, body: { items } });
        expect(created.status, created.text).toBe(200);
      }
      const started = performance.now();
      const answer = await call(patient, 'POST', '/activity/revert', { key: patient.a.key, body: { batchId: batch } });
      const took = performance.now() - started;
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.reverted).toBe(2000);
      // The case proves something only when the revert outlasted the idle timeout.
      expect(took).toBeGreaterThan(150);
    } finally {
      await patient.close();
    }
  }, 60_000);

  it('reverts tags and consent', async () => {
    const id = await newContact({ tags: ['a'] });
    await call(server, 'PATCH', `/contacts/${id}/tags`, { key: server.a.key, body: { tagsToAdd: ['b'], tagsToRemove: ['a'] } });
    await call(server, 'PATCH', `/contacts/${id}/notification-settings`, { headers: { authorization: server.a.basic }, body: { sms: false } });
    const [, tags, consent] = await historyOf(id);
    expect((await revert({ activityId: consent!.activityId })).body.reverted).toBe(1);
    expect((await contact(id))!.state).toBe('pending');
    expect((await revert({ activityId: tags!.activityId })).body.reverted).toBe(1);
    expect((await contact(id))!.tags).toEqual(['a']);
  });

  it('names erase, delete, withdraw and revert entries not-revertible, a record erased since gone', async () => {
    const id = await newContact();
    await call(server, 'PATCH', `/contacts/${id}`, { key: server.a.key, body: { city: 'Oslo' } });
    expect((await call(server, 'DELETE', `/contacts/${id}`, { key: server.a.key })).status).toBe(204);
    const history = await historyOf(id);
    expect(history.map((entry) => [entry.action, entry.changes])).toEqual([['create', null], ['update', null], ['erase', null]]);
    expect((await revert({ activityId: history[2]!.activityId })).body.conflicts[0].reason).toBe('not-revertible');
    expect((await revert({ activityId: history[1]!.activityId })).body.conflicts[0].reason).toBe('gone');
  });

  it('withdraws a suggested post request it reverts, and leaves a published one, named published', async () => {
    const suggested = await call(server, 'POST', '/post-requests', { key: server.a.key, body: { action: 'suggest', text: 'Maybe' } });
    const published = await call(server, 'POST', '/post-requests', { key: server.a.key, body: { action: 'publish', text: 'Now' } });
    const [a] = await historyOf(suggested.body.body.requestId);
    const [b] = await historyOf(published.body.body.requestId);
    expect((await revert({ activityId: a!.activityId })).body.reverted).toBe(1);
    expect((await revert({ activityId: b!.activityId })).body.conflicts[0].reason).toBe('published');
    const left = await call(server, 'GET', `/post-requests${query({ $limit: 100 })}`, { key: server.a.key });
    const requestIds = left.body.items.map((item: { requestId: string }) => item.requestId);
    expect(requestIds).toContain(published.body.body.requestId);
    expect(requestIds).not.toContain(suggested.body.body.requestId);
  });

  it('restores a product update and deletes a product it created, and keeps one changed since', async () => {
    const kept = await call(server, 'POST', '/products', { key: server.a.key, body: { title: 'Lantern' } });
    await call(server, 'POST', '/products', { key: server.a.key, body: { id: kept.body.id, vendor: 'Petromax' } });
    const [keptCreate] = await historyOf(kept.body.id);
    expect((await revert({ activityId: keptCreate!.activityId })).body).toMatchObject({ reverted: 0, conflicts: [{ reason: 'changed-since' }] });
    const product = await call(server, 'POST', '/products', { key: server.a.key, body: { title: 'Stove', vendor: 'Primus', tags: ['gas'] } });
    await call(server, 'POST', '/products', { key: server.a.key, body: { id: product.body.id, title: 'Big stove', tags: ['gas', 'big'] } });
    const [create, update] = await historyOf(product.body.id);
    expect((await revert({ activityId: update!.activityId })).body.reverted).toBe(1);
    const listed = await call(server, 'GET', `/products${query({ $filter: `id eq '${product.body.id}'` })}`, { key: server.a.key });
    expect(listed.body.items[0]).toMatchObject({ title: 'Stove', vendor: 'Primus', tags: ['gas'] });
    // The update was reverted since, so the product is as its create left it: the create's revert deletes it.
    expect((await revert({ activityId: create!.activityId })).body).toMatchObject({ reverted: 1, conflicts: [] });
    expect((await call(server, 'GET', `/products${query({ $filter: `id eq '${product.body.id}'` })}`, { key: server.a.key })).body.meta.maxResults).toBe(0);
  });

  it('refuses without read-write on every resource involved (403), an unknown entry (404), and a body naming both or neither (400)', async () => {
    const id = await newContact();
    const [entry] = await historyOf(id);
    const readOnly = await server.keyWith(server.a, ['contacts:read-only']);
    const refused = await revert({ activityId: entry!.activityId }, readOnly);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Missing scope contacts:read-write');
    expect(await contact(id)).toBeDefined();
    expect((await revert({ activityId: entry!.activityId }, server.b.key)).status).toBe(404);
    expect((await revert({ activityId: entry!.activityId, batchId: 'x' })).status).toBe(400);
    expect((await revert({})).status).toBe(400);
  });

  it('answers a repeated Idempotency-Key with the first answer, reverting nothing more', async () => {
    const id = await newContact({ city: 'Bodø' });
    await call(server, 'PATCH', `/contacts/${id}`, { key: server.a.key, body: { city: 'Molde' } });
    const update = (await historyOf(id))[1]!;
    const headers = { 'Idempotency-Key': unique('revert-') };
    const first = await revert({ activityId: update.activityId }, server.a.key, headers);
    const second = await revert({ activityId: update.activityId }, server.a.key, headers);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect((await historyOf(id)).filter((entry) => entry.action === 'revert')).toHaveLength(1);
  });

  // The plan, not a timing: a test database is small, and SQLite (without statistics) plans it as it would 1,000,000
  // entries. The batch's index was passed over for `activity_ws_seq`, every entry of the workspace read to skip a sort.
  it.skipIf(TEST_DATABASE !== 'sqlite')("reads a batch's entries by the batch's index, not the workspace's every entry", async () => {
    const compiled = entriesToRevert(server.database.db, server.a.id, { batchId: 'a-batch' }).compile();
    const { rows } = await server.database.db.executeQuery(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
    const plan = rows.map((row) => (row as { detail: string }).detail).join(' | ');
    expect(plan, plan).toMatch(/USING INDEX activity_ws_batch \(workspace_id=\? AND batch_id=\?\)/);
  });
});

describe('the batch routes (docs/decisions.md section 12)', () => {
  it('record one entry per contact created by POST /contacts/batch and per contact changed by POST /contacts/tags, under their batch, revertible whole', async () => {
    const batch = unique('batch-import-');
    const emails = [0, 1, 2].map((i) => `${unique(`b${i}`)}@example.com`);
    const created = await call(server, 'POST', '/contacts/batch', { key: server.a.key, headers: { 'Activity-Batch': batch, 'Activity-Source': 'console/import' }, body: { items: emails.map((email) => ({ email })) } });
    expect(created.status, created.text).toBe(200);
    const ids = (created.body.results as { id: string }[]).map((result) => result.id);
    const tagged = await call(server, 'POST', '/contacts/tags', { key: server.a.key, body: { ids: [...ids, 'unknown-id'], tagsToAdd: ['batched'] } });
    expect(tagged.body).toMatchObject({ matched: 3, changed: 3 });
    expect((await activity({ $filter: `batchId eq '${batch}'` })).items.map((entry) => [entry.action, entry.source])).toEqual(Array(3).fill(['create', 'console/import']));
    const tags = await activity({ $filter: `batchId eq '${tagged.body.batchId}'` });
    expect(tags.items.map((entry) => entry.changes)).toEqual(Array(3).fill({ tags: [['batched'], []] }));
    expect((await revert({ batchId: tagged.body.batchId })).body.reverted).toBe(3);
    expect((await contact(ids[0]!))!.tags).toEqual([]);
    expect((await revert({ batchId: batch })).body.reverted).toBe(3);
    expect(await contact(ids[2]!)).toBeUndefined();
  });
});

describe('ACTIVITY_LOG=off', () => {
  it('records nothing, has no activity routes and does not name the extension', async () => {
    const app = await buildApp({ database: server.database, rateLimitPerMinute: 0, schedulerIntervalMs: 0, activityLog: false });
    try {
      const headers = { 'x-api-key': server.a.key, 'content-type': 'application/json' };
      const created = await app.inject({ method: 'POST', url: '/api/contacts', headers, payload: { email: `${unique('off')}@example.com` } });
      expect(created.statusCode).toBe(201);
      expect((await historyOf(created.json().id)).length).toBe(0);
      expect((await app.inject({ method: 'GET', url: '/api/extensions', headers })).json().extensions).not.toContain('activity');
      expect((await app.inject({ method: 'GET', url: '/api/activity', headers })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});

describe('retention', () => {
  it('deletes entries older than the retention, in batches, and keeps the rest', async () => {
    const store = new ActivityStore(server.database.db, server.database.dialect);
    // 100 days old, pruned at 50: the server under test runs its own pruning every minute at the default 400 days
    // (server/scheduler.ts), which took 167 of 500-day-old rows between their insert and this prune in a loaded CI run.
    const old = new Date(Date.now() - 100 * 86_400_000).toISOString();
    const rows = Array.from({ length: PRUNE_BATCH + 5 }, (_, i) => ({
      activity_id: unique(`old-${i}-`), workspace_id: server.b.id, created: old, resource: 'contact', resource_id: 'gone', action: 'create',
      changes: null, key_hint: null, source: 'api', batch_id: 'old-batch', request_id: null, idempotency_key: null, revert_of: null,
    }));
    for (let i = 0; i < rows.length; i += 200) await server.database.db.insertInto('activity').values(rows.slice(i, i + 200)).execute();
    const kept = await newContact({}, {}, server.b.key);
    expect(await store.prune(0)).toBe(0);
    expect(await store.prune(50)).toBe(PRUNE_BATCH + 5);
    expect((await activity({ $filter: "batchId eq 'old-batch'" }, server.b.key)).meta.maxResults).toBe(0);
    expect((await historyOf(kept, server.b.key)).length).toBe(1);
  });
});

describe('several processes on one database', () => {
  it('reverts through one process what another wrote', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wsa-activity-'));
    const target = await createMigratedTestDatabase(dir, 'activity');
    const database = await openMigratedDatabase(target.url);
    const organization = await createOrganization(database.db, 'Activity Organization');
    const workspace = await createWorkspace(database.db, { organizationId: organization.id, name: 'Activity Workspace' });
    const key = await createApiKey(database.db, workspace.id, SCOPES);
    const [one, two] = await Promise.all([startServiceProcess(target.url), startServiceProcess(target.url)]);
    try {
      const batch = unique('pair-');
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        const created = await call(one, 'POST', '/contacts', { key, headers: { 'Activity-Batch': batch }, body: { email: `${unique('p')}@example.com` } });
        expect(created.status, created.text).toBe(201);
        ids.push(created.body.id);
      }
      const [first, second] = await Promise.all([call(two, 'POST', '/activity/revert', { key, body: { batchId: batch } }), call(one, 'POST', '/activity/revert', { key, body: { batchId: batch } })]);
      expect(first.status, first.text).toBe(200);
      expect(second.status, second.text).toBe(200);
      // Two processes reverting one batch at once: every entry reverted exactly once between them.
      expect(first.body.reverted + second.body.reverted).toBe(4);
      const left = await call(one, 'GET', `/contacts${query({ $filter: `id in (${ids.map((id) => `'${id}'`).join(',')})` })}`, { key });
      expect(left.body.meta.maxResults).toBe(0);
    } finally {
      await Promise.all([one.stop(), two.stop()]);
      await database.close();
      await target.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
