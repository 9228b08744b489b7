/**
 * Our service's extensions (docs/decisions.md section 10, issue 22) on both databases: `GET /extensions`, correcting a
 * contact, erasing one (and, on SQLite, that its bytes are gone from the database files), listing post requests
 * in every state, withdrawing one (and its race with the scheduled-post job), and deleting products and
 * collections; scopes and cross-workspace 404s throughout.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { PostStore } from '../db/posts';
import { type TestServer, call, query, startServer, unique } from './harness';
import { TEST_DATABASE } from './test-database';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function newContact(body: Record<string, unknown> = {}, key = server.a.key): Promise<string> {
  const created = await call(server, 'POST', '/contacts', { key, body: { name: 'Kari Nordmann', email: `${unique('k')}@example.com`, ...body } });
  expect(created.status, created.text).toBe(201);
  return created.body.id as string;
}

async function listContacts(filter: string, key = server.a.key) {
  const answer = await call(server, 'GET', `/contacts${query({ $filter: filter })}`, { key });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as { items: Record<string, any>[]; meta: { maxResults: number } };
}

describe('GET /extensions', () => {
  it('names every extension of this service to any valid key, whatever its scopes', async () => {
    const key = await server.keyWith(server.a, ['posts:read-only']);
    const answer = await call(server, 'GET', '/extensions', { key });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ extensions: ['contact-update', 'contact-erasure', 'post-requests-list', 'post-request-cancel', 'catalog-delete', 'idempotency-key', 'activity', 'stats', 'contact-batch', 'events', 'shared-views'] });
  });

  it('refuses a request without a key with 401', async () => {
    expect((await call(server, 'GET', '/extensions')).status).toBe(401);
  });
});

describe('PATCH /contacts/{contactId}', () => {
  it('corrects a misspelt email: 200 with the contact as listed, updated set, findable by the new email only', async () => {
    const id = await newContact({ email: `${unique('kari')}@exmaple.com`, city: 'Bergen' });
    const before = (await listContacts(`id eq '${id}'`)).items[0]!;
    const email = `${unique('kari')}@example.com`;
    const answer = await call(server, 'PATCH', `/contacts/${id}`, { key: server.a.key, body: { email } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ id, email, city: 'Bergen', name: 'Kari Nordmann', tags: [], notificationSettings: { email: true, sms: false } });
    expect(answer.body.updated > before.updated).toBe(true);
    expect(answer.body.created).toBe(before.created);
    expect((await listContacts(`email like '${email.slice(0, 12)}'`)).items.map((c) => c.id)).toEqual([id]);
    expect((await listContacts(`email like 'exmaple'`)).items.map((c) => c.id)).not.toContain(id);
  });

  it('clears a field with null, and clearing the email turns email notifications off', async () => {
    const id = await newContact({ city: 'Tromsø', phone: '+4791234567' });
    const answer = await call(server, 'PATCH', `/contacts/${id}`, { key: server.a.key, body: { city: null, email: null } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ city: null, email: null, phone: '+4791234567', notificationSettings: { email: false } });
  });

  it('applies the create checks: a bad email, phone or image is a 400 naming the field; the phone is normalised', async () => {
    const id = await newContact();
    const bad = await call(server, 'PATCH', `/contacts/${id}`, { key: server.a.key, body: { email: 'not-an-email', image: 'ftp://x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/email/);
    expect(bad.body.message).toMatch(/image/);
    const phone = await call(server, 'PATCH', `/contacts/${id}`, { key: server.a.key, body: { phone: '+47 (912) 34-568' } });
    expect(phone.status, phone.text).toBe(200);
    expect(phone.body.phone).toBe('+4791234568');
  });

  it.each([['tags', ['vip']], ['addDirectly', true], ['notificationSettings', 'email'], ['nope', 1]])('refuses the field %s with a 400', async (field, value) => {
    const id = await newContact();
    const answer = await call(server, 'PATCH', `/contacts/${id}`, { key: server.a.key, body: { [field]: value } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain(field);
  });

  it('refuses an empty body with a 400', async () => {
    const id = await newContact();
    const answer = await call(server, 'PATCH', `/contacts/${id}`, { key: server.a.key, body: {} });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/at least one/);
  });

  it("answers 409 for another contact's email (any case) or phone, and lets a contact keep its own", async () => {
    const email = `${unique('taken')}@example.com`;
    await newContact({ email, phone: '+4790000001' });
    const id = await newContact({ phone: '+4790000002' });
    const byEmail = await call(server, 'PATCH', `/contacts/${id}`, { key: server.a.key, body: { email: email.toUpperCase() } });
    expect(byEmail.status).toBe(409);
    expect(byEmail.body.message).toBe(`A contact with email ${email.toUpperCase()} already exists`);
    const byPhone = await call(server, 'PATCH', `/contacts/${id}`, { key: server.a.key, body: { phone: '+47 900 00 001' } });
    expect(byPhone.status).toBe(409);
    expect(byPhone.body.message).toBe('A contact with phone +4790000001 already exists');
    const own = await call(server, 'PATCH', `/contacts/${id}`, { key: server.a.key, body: { phone: '+4790000002', name: 'Same Phone' } });
    expect(own.status, own.text).toBe(200);
  });

  it('answers 404 for a contact of another workspace, and 403 without contacts:read-write', async () => {
    const id = await newContact({}, server.b.key);
    const other = await call(server, 'PATCH', `/contacts/${id}`, { key: server.a.key, body: { name: 'X' } });
    expect(other.status).toBe(404);
    expect(other.body.message).toBe('Contact not found');
    const readOnly = await server.keyWith(server.b, ['contacts:read-only', 'feeds:read-write']);
    const refused = await call(server, 'PATCH', `/contacts/${id}`, { key: readOnly, body: { name: 'X' } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Missing scope contacts:read-write');
  });
});

describe('DELETE /contacts/{contactId}', () => {
  it('erases the contact, its tags, its search rows and its id in post recipients; a second erasure is a 404', async () => {
    const tag = unique('erase-tag');
    const city = unique('Erasecity');
    const id = await newContact({ tags: [tag], city });
    const keep = await newContact({ tags: [tag] });
    const post = await call(server, 'POST', '/post-requests', { key: server.a.key, body: { action: 'publish', text: 'private', recipients: { contactIds: [id, keep] } } });
    expect(post.status).toBe(201);
    const postId = post.body.body.requestId as string;

    const erased = await call(server, 'DELETE', `/contacts/${id}`, { key: server.a.key });
    expect(erased.status, erased.text).toBe(204);
    expect((await listContacts(`id eq '${id}'`)).meta.maxResults).toBe(0);
    expect((await listContacts(`city like '${city}'`)).meta.maxResults).toBe(0);
    const tags = (await call(server, 'GET', '/contacts/contacts-tags', { key: server.a.key })).body as { name: string; count: number }[];
    expect(tags.find((t) => t.name === tag)?.count).toBe(1);
    const { db } = server.database;
    expect(await db.selectFrom('contact_tags').select('tag').where('contact_id', '=', id).execute()).toEqual([]);
    const stored = await db.selectFrom('posts').select(['recipients', 'is_private']).where('id', '=', postId).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.recipients as string)).toEqual({ contactIds: [keep] });
    expect(Number(stored.is_private)).toBe(1);
    expect((await call(server, 'DELETE', `/contacts/${id}`, { key: server.a.key })).status).toBe(404);
  });

  it('removes every kept Idempotency-Key answer holding the contact, and no other', async () => {
    const email = `${unique('kept')}@example.com`;
    const created = await call(server, 'POST', '/contacts', { key: server.a.key, body: { email }, headers: { 'Idempotency-Key': unique('create-') } });
    const id = created.body.id as string;
    await call(server, 'PATCH', `/contacts/${id}`, { key: server.a.key, body: { name: 'Kept' }, headers: { 'Idempotency-Key': unique('patch-') } });
    const other = await call(server, 'POST', '/contacts', { key: server.a.key, body: { email: `${unique('other')}@example.com` }, headers: { 'Idempotency-Key': unique('other-') } });
    const { db } = server.database;
    const holding = () => db.selectFrom('idempotency_keys').select(['path', 'body']).where('workspace_id', '=', server.a.id).execute();
    expect((await holding()).filter((row) => row.path.includes(id) || row.body?.includes(id))).toHaveLength(2);
    expect((await call(server, 'DELETE', `/contacts/${id}`, { key: server.a.key })).status).toBe(204);
    const left = await holding();
    expect(left.filter((row) => row.path.includes(id) || row.body?.includes(id) || row.body?.includes(email))).toEqual([]);
    expect(left.some((row) => row.body?.includes(other.body.id))).toBe(true);
  });

  it('answers 404 for a contact of another workspace (which is left as it was), and 403 without contacts:read-write', async () => {
    const id = await newContact({}, server.b.key);
    expect((await call(server, 'DELETE', `/contacts/${id}`, { key: server.a.key })).status).toBe(404);
    const readOnly = await server.keyWith(server.b, ['contacts:read-only']);
    const refused = await call(server, 'DELETE', `/contacts/${id}`, { key: readOnly });
    expect(refused.status).toBe(403);
    expect((await listContacts(`id eq '${id}'`, server.b.key)).meta.maxResults).toBe(1);
  });

  it.runIf(TEST_DATABASE === 'sqlite')('leaves no byte of the erased email or city in the SQLite files (database and WAL), in the history either', async () => {
    const email = `${unique('forget.me.')}@example.org`;
    const city = unique('Glemmeby');
    // A tag only this person carries: its kept count (migration 0010) goes with the person too.
    const ownTag = unique('bare-min');
    const id = await newContact({ email, city, name: 'Forget Me', address: 'Glemmeveien 1', tags: [ownTag] }, server.a.key);
    // Values that stood only in the activity log (docs/decisions.md section 11): the city before a correction, a tag
    // added and removed again.
    const movedTo = unique('Flytteby');
    const tag = unique('gammel-merkelapp');
    expect((await call(server, 'PATCH', `/contacts/${id}`, { key: server.a.key, body: { city: movedTo } })).status).toBe(200);
    expect((await call(server, 'PATCH', `/contacts/${id}/tags`, { key: server.a.key, body: { tagsToAdd: [tag] } })).status).toBe(204);
    expect((await call(server, 'PATCH', `/contacts/${id}/tags`, { key: server.a.key, body: { tagsToRemove: [tag] } })).status).toBe(204);
    // Some neighbours on the same pages, so the erased cells sit between live ones.
    for (let i = 0; i < 20; i++) await newContact({ city: 'Oslo' });
    const file = join(server.dir, 'app.sqlite');
    const files = () => [file, `${file}-wal`].filter((path) => existsSync(path)).map((path) => readFileSync(path));
    const holds = (needle: string) => files().some((bytes) => bytes.includes(Buffer.from(needle, 'utf8')));
    // Control: before the erasure both values are in the files.
    expect(holds(email)).toBe(true);
    expect(holds(city)).toBe(true);
    expect(holds(movedTo)).toBe(true);
    expect(holds(tag)).toBe(true);
    expect(holds(ownTag)).toBe(true);
    expect((await call(server, 'DELETE', `/contacts/${id}`, { key: server.a.key })).status).toBe(204);
    expect(holds(email)).toBe(false);
    expect(holds(city)).toBe(false);
    expect(holds(movedTo)).toBe(false);
    expect(holds(tag)).toBe(false);
    expect(holds(ownTag)).toBe(false);
    expect(holds('Glemmeveien')).toBe(false);
    expect(existsSync(`${file}-wal`) ? readFileSync(`${file}-wal`).length : 0).toBe(0);
  });
});

describe('GET /post-requests', () => {
  let ids: Record<'published' | 'scheduled' | 'suggested' | 'private' | 'later', string>;
  beforeAll(async () => {
    const send = async (body: Record<string, unknown>, key = server.a.key) => {
      const answer = await call(server, 'POST', '/post-requests', { key, body });
      expect(answer.status, answer.text).toBe(201);
      return answer.body.body.requestId as string;
    };
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    ids = {
      published: await send({ action: 'publish', header: 'Now' }),
      scheduled: await send({ action: 'schedule', header: 'Soon', publishDate: inDays(2) }),
      later: await send({ action: 'schedule', header: 'Later', publishDate: inDays(5) }),
      suggested: await send({ action: 'suggest', text: 'Maybe' }),
      private: await send({ action: 'publish', text: 'Only for some', recipients: { tags: ['vip'] } }),
    };
    await send({ action: 'schedule', header: 'Other workspace', publishDate: inDays(2) }, server.b.key);
  });
  const list = async (params: Record<string, string | number | undefined> = {}, key = server.a.key) => {
    const answer = await call(server, 'GET', `/post-requests${query({ $limit: 100, ...params })}`, { key });
    expect(answer.status, answer.text).toBe(200);
    return answer.body as { items: Record<string, any>[]; meta: { maxResults: number } };
  };

  it('lists every post request of the workspace in every state, private ones included, newest first', async () => {
    const { items, meta } = await list();
    expect(items.map((item) => item.requestId)).toEqual(expect.arrayContaining(Object.values(ids)));
    expect(items.some((item) => item.header === 'Other workspace')).toBe(false);
    expect(meta.maxResults).toBe(items.length);
    const created = items.map((item) => item.created);
    expect(created).toEqual([...created].sort().reverse());
    const scheduled = items.find((item) => item.requestId === ids.scheduled)!;
    expect(Object.keys(scheduled).sort()).toEqual(['action', 'created', 'header', 'imageUrl', 'publishDate', 'requestId', 'state', 'text']);
    expect(scheduled).toMatchObject({ state: 'scheduled', action: 'schedule', header: 'Soon', text: null, imageUrl: null });
    expect(items.find((item) => item.requestId === ids.suggested)).toMatchObject({ state: 'suggested', action: 'suggest', publishDate: null });
    expect(items.find((item) => item.requestId === ids.published)).toMatchObject({ state: 'published', action: 'publish' });
  });

  it('filters on state, action and publishDate and orders by publishDate', async () => {
    const scheduled = await list({ $filter: "state eq 'scheduled'", $orderBy: 'publishDate asc' });
    expect(scheduled.items.map((item) => item.requestId)).toEqual([ids.scheduled, ids.later]);
    const byDate = await list({ $filter: `publishDate gt '${new Date(Date.now() + 3 * 86_400_000).toISOString()}'` });
    expect(byDate.items.map((item) => item.requestId)).toEqual([ids.later]);
    expect((await list({ $filter: "action eq 'suggest'" })).items.map((item) => item.requestId)).toEqual([ids.suggested]);
  });

  it.each([
    [{ $filter: "claps gt 1" }, /\$filter: .*claps/],
    [{ $orderBy: 'header asc' }, /header/],
    [{ $limit: 101 }, /\$limit must not be greater than 100/],
  ])('refuses %j with a 400', async (params, message) => {
    const answer = await call(server, 'GET', `/post-requests${query(params as Record<string, string | number>)}`, { key: server.a.key });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(message);
  });

  it('needs posts:read-only', async () => {
    const key = await server.keyWith(server.a, ['contacts:read-only']);
    expect((await call(server, 'GET', '/post-requests', { key })).status).toBe(403);
  });
});

describe('DELETE /post-requests/{requestId}', () => {
  const send = async (body: Record<string, unknown>, key = server.a.key) => (await call(server, 'POST', '/post-requests', { key, body })).body.body.requestId as string;
  const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

  it('withdraws a scheduled post and a suggested one: 204, gone from the post requests, never published', async () => {
    const scheduled = await send({ action: 'schedule', header: 'Withdraw me', publishDate: inHours(1) });
    const suggested = await send({ action: 'suggest', header: 'Withdraw me too' });
    expect((await call(server, 'DELETE', `/post-requests/${scheduled}`, { key: server.a.key })).status).toBe(204);
    expect((await call(server, 'DELETE', `/post-requests/${suggested}`, { key: server.a.key })).status).toBe(204);
    const listed = await call(server, 'GET', `/post-requests${query({ $filter: `created ge '${new Date(Date.now() - 60_000).toISOString()}'`, $limit: 100 })}`, { key: server.a.key });
    expect(listed.body.items.map((item: { requestId: string }) => item.requestId)).not.toContain(scheduled);
    expect(listed.body.items.map((item: { requestId: string }) => item.requestId)).not.toContain(suggested);
    expect(await new PostStore(server.database.db, server.database.dialect).publishDuePosts(new Date(Date.now() + 2 * 3_600_000))).not.toContain(scheduled);
  });

  it('answers 409 for a published post, 404 for an unknown one or one of another workspace, 403 without posts:read-write', async () => {
    const published = await send({ action: 'publish', header: 'Out already' });
    const refused = await call(server, 'DELETE', `/post-requests/${published}`, { key: server.a.key });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(`Post request ${published} is already published`);
    expect((await call(server, 'DELETE', '/post-requests/00000000-0000-4000-8000-000000000000', { key: server.a.key })).status).toBe(404);
    const theirs = await send({ action: 'schedule', header: 'B', publishDate: inHours(1) }, server.b.key);
    expect((await call(server, 'DELETE', `/post-requests/${theirs}`, { key: server.a.key })).status).toBe(404);
    const readOnly = await server.keyWith(server.b, ['posts:read-only']);
    expect((await call(server, 'DELETE', `/post-requests/${theirs}`, { key: readOnly })).status).toBe(403);
    expect((await call(server, 'DELETE', `/post-requests/${theirs}`, { key: server.b.key })).status).toBe(204);
  });

  it('never publishes a withdrawn post, even when the withdrawal and the job meet in the same millisecond', async () => {
    const store = new PostStore(server.database.db, server.database.dialect);
    const due = new Date(Date.now() + 60_000);
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push((await store.create(server.a.id, { action: 'schedule', header: `race ${i}`, publishDate: due.toISOString() })).requestId);
    const justBefore = new Date(due.getTime() - 1);
    // Each post: its withdrawal (sent the millisecond before it is due) and the job (running at its due time) at once.
    const outcomes = await Promise.all(
      ids.map(async (id, i) => {
        const [withdrawn, published] = await Promise.all([
          store.withdraw(server.a.id, id, justBefore).then(() => true, (error: { statusCode?: number }) => {
            expect(error.statusCode).toBe(409);
            return false;
          }),
          i % 2 ? store.publishDuePosts(due) : Promise.resolve([] as string[]),
        ]);
        return { id, withdrawn, published: published.includes(id) };
      }),
    );
    const left = await server.database.db.selectFrom('posts').select(['id', 'state']).where('id', 'in', ids).execute();
    for (const outcome of outcomes) {
      const row = left.find((post) => post.id === outcome.id);
      if (outcome.withdrawn) expect(row, outcome.id).toBeUndefined();
      else expect(row?.state).toBe('published');
      expect(outcome.withdrawn && outcome.published).toBe(false);
    }
    // (Not `expect.not.arrayContaining(withdrawn)`: with no withdrawal winning, as when a job published all 40 first,
    // it is `not.arrayContaining([])`, which no array meets.)
    const withdrawn = new Set(outcomes.filter((o) => o.withdrawn).map((o) => o.id));
    expect((await store.publishDuePosts(due)).filter((id) => withdrawn.has(id))).toEqual([]);
  });

  it('over HTTP with the job running: a withdrawal sent around the due moment either wins (never listed) or is a 409 (listed)', async () => {
    const store = new PostStore(server.database.db, server.database.dialect);
    const due = new Date(Date.now() + 1500);
    const offsets = [-40, -15, -5, 0, 5, 15, 40];
    const ids = await Promise.all(offsets.map(async (offset) => (await store.create(server.a.id, { action: 'schedule', header: `edge ${offset}`, publishDate: due.toISOString() })).requestId));
    const statuses = await Promise.all(
      ids.map(async (id, i) => {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due.getTime() + offsets[i]! - Date.now())));
        return (await call(server, 'DELETE', `/post-requests/${id}`, { key: server.a.key })).status;
      }),
    );
    expect(statuses.every((status) => status === 204 || status === 409), statuses.join(',')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due.getTime() + 1500 - Date.now()))); // the job has run since
    const listed = await call(server, 'GET', `/posts${query({ $filter: `publishedDate eq '${due.toISOString()}'`, $limit: 30 })}`, { key: server.a.key });
    const shown = new Set(listed.body.items.map((item: { id: string }) => item.id));
    const rows = await server.database.db.selectFrom('posts').select(['id', 'state']).where('id', 'in', ids).execute();
    ids.forEach((id, i) => {
      expect(shown.has(id), `${offsets[i]} ms: ${statuses[i]}`).toBe(statuses[i] === 409);
      expect(rows.find((row) => row.id === id)?.state).toBe(statuses[i] === 409 ? 'published' : undefined);
    });
  });

  it('answers 409 once a scheduled post is due, before the job has marked it, as the lists already show it', async () => {
    const store = new PostStore(server.database.db, server.database.dialect);
    const due = new Date(Date.now() + 60_000);
    const { requestId } = await store.create(server.a.id, { action: 'schedule', header: 'due', publishDate: due.toISOString() });
    await expect(store.withdraw(server.a.id, requestId, due)).rejects.toMatchObject({ statusCode: 409 });
    await expect(store.withdraw(server.a.id, requestId, new Date(due.getTime() - 1))).resolves.toBeUndefined();
  });
});

describe('DELETE /products/{id} and /collections/{id}', () => {
  const upsert = async (path: string, body: Record<string, unknown>, key = server.a.key) => {
    const answer = await call(server, 'POST', path, { key, body });
    expect(answer.status, answer.text).toBe(201);
    return answer.body.id as string;
  };
  const product = async (id: string) => (await call(server, 'GET', `/products${query({ $filter: `id eq '${id}'` })}`, { key: server.a.key })).body.items[0];

  it('deletes a collection and removes it from its products; deletes a product and its links', async () => {
    const summer = await upsert('/collections', { title: unique('Summer ') });
    const winter = await upsert('/collections', { title: unique('Winter ') });
    const jacket = await upsert('/products', { title: unique('Jacket '), tags: ['outer'], collectionIds: [summer, winter] });
    expect((await call(server, 'DELETE', `/collections/${summer}`, { key: server.a.key })).status).toBe(204);
    expect((await product(jacket)).collections.map((c: { id: string }) => c.id)).toEqual([winter]);
    const inSummer = await call(server, 'GET', `/products${query({ $filter: `collectionIds eq '${summer}'` })}`, { key: server.a.key });
    expect(inSummer.body.meta.maxResults).toBe(0);
    expect((await call(server, 'DELETE', `/products/${jacket}`, { key: server.a.key })).status).toBe(204);
    expect(await product(jacket)).toBeUndefined();
    const { db } = server.database;
    expect(await db.selectFrom('product_collections').selectAll().where('product_id', '=', jacket).execute()).toEqual([]);
    expect(await db.selectFrom('product_tags').selectAll().where('product_id', '=', jacket).execute()).toEqual([]);
    const winterListed = await call(server, 'GET', `/collections${query({ $filter: `id eq '${winter}'` })}`, { key: server.a.key });
    expect(winterListed.body.meta.maxResults).toBe(1);
    expect((await call(server, 'DELETE', `/products/${jacket}`, { key: server.a.key })).status).toBe(404);
  });

  it('answers 404 across workspaces and 403 without products:read-write', async () => {
    const theirs = await upsert('/products', { title: 'Theirs' }, server.b.key);
    const theirCollection = await upsert('/collections', { title: 'Theirs' }, server.b.key);
    const notFound = await call(server, 'DELETE', `/products/${theirs}`, { key: server.a.key });
    expect(notFound.status).toBe(404);
    expect(notFound.body.message).toBe('Product not found');
    expect((await call(server, 'DELETE', `/collections/${theirCollection}`, { key: server.a.key })).body.message).toBe('Collection not found');
    const readOnly = await server.keyWith(server.b, ['products:read-only']);
    expect((await call(server, 'DELETE', `/products/${theirs}`, { key: readOnly })).status).toBe(403);
    expect((await call(server, 'DELETE', `/collections/${theirCollection}`, { key: readOnly })).status).toBe(403);
  });
});
