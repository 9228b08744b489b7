/**
 * Contact endpoints 2 to 6: success shapes and codes, and each error status of docs/decisions.md section 3 that can
 * occur on them, with the rules of section 7. Real server, temp SQLite file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactCreateResponseSchema, contactListSchema, contactTagListSchema, notificationSettingsResponseSchema } from '../../src/api/contacts';
import { type TestServer, call, query, startServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const create = (body: unknown, key = server.a.key) => call(server, 'POST', '/contacts', { key, body });
const byId = async (id: string, key = server.a.key) => {
  const response = await call(server, 'GET', `/contacts${query({ $filter: `id eq '${id}'` })}`, { key });
  return response.body.items[0];
};

describe('POST /contacts', () => {
  it('creates a pending contact and answers 201 with id, state, name, email, phone, image', async () => {
    const response = await create({ name: 'Ann Example', email: 'ann@example.com', phone: '+47 (123) 45-678', image: 'https://img.example.com/a.png' });
    expect(response.status).toBe(201);
    expect(contactCreateResponseSchema.parse(response.body)).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      state: 'pending',
      name: 'Ann Example',
      email: 'ann@example.com',
      phone: '+4712345678',
      image: 'https://img.example.com/a.png',
    });
  });

  it('starts a contact active with addDirectly and lists every field, absent ones as null', async () => {
    const response = await create({
      name: 'Full Field', email: 'full@example.com', phone: '+4790000001', source: 'import', systemSource: 'api', addDirectly: true,
      tags: [' vip ', 'vip', 'lead'], statusTags: { stage: 'won', score: 3 }, follows: ['brand-x'], bio: 'Bio', address: 'Street 1',
      city: 'Oslo', postalCode: '0150', region: 'Oslo', customMessage: 'Hi',
    });
    expect(response.status).toBe(201);
    expect(response.body.state).toBe('active');
    const listed = await byId(response.body.id);
    expect(listed).toEqual({
      id: response.body.id, feedId: server.a.id, name: 'Full Field', email: 'full@example.com', phone: '+4790000001', image: null,
      bio: 'Bio', address: 'Street 1', city: 'Oslo', postalCode: '0150', region: 'Oslo', source: 'import', systemSource: 'api',
      customMessage: 'Hi', state: 'active', tags: ['vip', 'lead'], statusTags: { stage: 'won', score: 3 }, follows: ['brand-x'],
      notificationSettings: { email: true, sms: true }, created: expect.any(String), updated: expect.any(String),
    });
    expect(listed.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(contactListSchema.safeParse({ items: [listed], meta: { maxResults: 1 } }).success).toBe(true);
  });

  it.each([
    ['email and phone', { email: 'd1@example.com', phone: '+4790000010' }, { email: true, sms: true }],
    ['email and phone preferring email', { email: 'd2@example.com', phone: '+4790000011', useEmailByDefault: true }, { email: true, sms: false }],
    ['only a phone', { phone: '+4790000012' }, { email: false, sms: true }],
    ['nothing to reach', { name: 'Nobody' }, { email: false, sms: false }],
    ['an explicit choice', { email: 'd3@example.com', phone: '+4790000013', notificationSettings: 'sms' }, { email: false, sms: true }],
    ['none', { email: 'd4@example.com', notificationSettings: 'none' }, { email: false, sms: false }],
    ['email,sms', { email: 'd5@example.com', phone: '+4790000014', notificationSettings: 'email,sms' }, { email: true, sms: true }],
  ])('sets notification settings from %s', async (_name, body, expected) => {
    const response = await create(body);
    expect(response.status).toBe(201);
    expect((await byId(response.body.id)).notificationSettings).toEqual(expected);
  });

  it.each([
    ['an invalid email', { email: 'not-an-email' }, 'email must be a valid email address'],
    ['a phone that is not E.164', { phone: '12345' }, 'phone must be an E.164 number'],
    ['a relative image URL', { image: '/a.png' }, 'image must be an absolute http(s) URL'],
    ['an ftp image URL', { image: 'ftp://x.test/a.png' }, 'image must be an absolute http(s) URL'],
    ['an empty tag', { tags: ['  '] }, 'tags.0 must not be empty'],
    ['a 65-character tag', { tags: ['x'.repeat(65)] }, 'tags.0 must be at most 64 characters long'],
    ['101 tags', { tags: Array.from({ length: 101 }, (_, i) => `t${i}`) }, 'tags must contain at most 100 items'],
    ['a name over 1,000 characters', { name: 'x'.repeat(1001) }, 'name must be at most 1000 characters long'],
    ['a bio over 5,000 characters', { bio: 'x'.repeat(5001) }, 'bio must be at most 5000 characters long'],
    ['an unknown field', { name: 'x', foo: 1 }, 'property foo should not exist'],
    ['a wrong type', { addDirectly: 'yes' }, 'addDirectly must be a boolean'],
    ['an unknown notification choice', { email: 'n1@example.com', notificationSettings: 'push' }, 'notificationSettings must be one of email, sms, email,sms, none'],
    ['email notifications without an email', { phone: '+4790000020', notificationSettings: 'email' }, 'notificationSettings: email needs an email address'],
    ['a body that is an array', [1, 2], 'body must be an object'],
  ])('answers 400 for %s', async (_name, body, message) => {
    const response = await create(body);
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(message);
  });

  it('answers 409 for a second contact with the same email in any letter case, and for the same phone', async () => {
    expect((await create({ email: 'dup@example.com', phone: '+4790000030' })).status).toBe(201);
    const email = await create({ email: 'DUP@Example.com' });
    expect(email.status).toBe(409);
    expect(email.body.message).toBe('A contact with email DUP@Example.com already exists');
    const phone = await create({ phone: '+47 900 00 030' });
    expect(phone.status).toBe(409);
    expect(phone.body.message).toBe('A contact with phone +4790000030 already exists');
  });

  it('allows the same email in another workspace', async () => {
    expect((await create({ email: 'shared@example.com' })).status).toBe(201);
    expect((await create({ email: 'shared@example.com' }, server.b.key)).status).toBe(201);
  });

  it('answers 415 for a body that is not JSON and 400 for malformed JSON', async () => {
    const text = await call(server, 'POST', '/contacts', { key: server.a.key, rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(text.status).toBe(415);
    const malformed = await call(server, 'POST', '/contacts', { key: server.a.key, rawBody: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/^Malformed JSON/);
  });

  it('answers 413 for a body over 2 MB', async () => {
    const response = await create({ bio: 'x'.repeat(2 * 1024 * 1024 + 10) });
    expect(response.status).toBe(413);
    expect(response.body.statusCode).toBe(413);
  });

  it('creates concurrent duplicates once: one 201, the rest 409', async () => {
    const responses = await Promise.all(Array.from({ length: 10 }, () => create({ email: 'race@example.com' })));
    expect(responses.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
  });

  it('answers a burst of creates each on its own, in two workspaces at once: the new ones 201 and listed with their tags, repeats 409, counts current', async () => {
    // SQLite commits creates that arrive together in one transaction (ContactStore.createInBatch): a refused one must
    // not take the others with it, and each must be answered as if sent alone.
    // The repeats repeat contacts made before the burst: concurrent requests have no order (PostgreSQL committed a
    // repeat before its original once), so a repeat of one in the burst could rightly win.
    for (const body of [{ email: 'burst-pre0@example.com' }, { phone: '+4792000001' }, { email: 'burst-pre2@example.com' }]) expect((await create(body)).status).toBe(201);
    const before = (await call(server, 'GET', `/contacts${query({ $filter: "tags eq 'burst'" })}`, { key: server.a.key })).body.meta.maxResults;
    const bodies = Array.from({ length: 30 }, (_, i) => ({ email: `burst${i}@example.com`, phone: `+4791${String(i).padStart(6, '0')}`, tags: ['burst', `b${i}`] }));
    const repeats = [{ email: 'BURST-PRE0@example.com' }, { phone: '+4792000001' }, { email: 'burst-pre2@example.com', tags: ['burst'] }];
    const responses = await Promise.all([
      ...bodies.map((body) => create(body)),
      ...repeats.map((body) => create(body)),
      create({ email: 'burst-b@example.com' }, server.b.key),
      create({ email: 'burst0@example.com' }, server.b.key), // another workspace: not a repeat
    ]);
    expect(responses.slice(0, 30).map((r) => r.status)).toEqual(Array(30).fill(201));
    expect(responses.slice(30, 33).map((r) => r.status)).toEqual([409, 409, 409]);
    expect(responses[30]!.body.message).toBe('A contact with email BURST-PRE0@example.com already exists');
    expect(responses[31]!.body.message).toBe('A contact with phone +4792000001 already exists');
    expect(responses.slice(33).map((r) => r.status)).toEqual([201, 201]);
    const listed = await call(server, 'GET', `/contacts${query({ $filter: "tags eq 'burst'", $limit: '100' })}`, { key: server.a.key });
    expect(listed.body.meta.maxResults).toBe(before + 30);
    const ids = new Set(responses.slice(0, 30).map((r) => r.body.id));
    expect(listed.body.items.filter((item: { id: string }) => ids.has(item.id))).toHaveLength(30);
    expect(await byId(responses[12]!.body.id)).toMatchObject({ email: 'burst12@example.com', phone: '+4791000012', tags: ['burst', 'b12'] });
    const inB = await call(server, 'GET', `/contacts${query({ $filter: "email in ('burst-b@example.com', 'burst0@example.com')" })}`, { key: server.b.key });
    expect(inB.body.meta.maxResults).toBe(2);
    // A look-up's total: the page's length when the page is not full (no count run), else the count.
    const lookup = (limit: string) => call(server, 'GET', `/contacts${query({ $filter: "email in ('BURST1@example.com', 'burst2@example.com', 'nobody@example.com', 'burst4@example.com')", $limit: limit })}`, { key: server.a.key });
    const whole = await lookup('10');
    expect(whole.body.items.map((item: { email: string }) => item.email).sort()).toEqual(['burst1@example.com', 'burst2@example.com', 'burst4@example.com']);
    expect(whole.body.meta.maxResults).toBe(3);
    const part = await lookup('2');
    expect(part.body.items).toHaveLength(2);
    expect(part.body.meta.maxResults).toBe(3);
  });
});

describe('GET /contacts/contacts-tags', () => {
  it('counts contacts per tag in the workspace, sorted by name', async () => {
    await create({ name: 'T1', tags: ['zeta', 'alpha'] });
    await create({ name: 'T2', tags: ['alpha'] });
    const response = await call(server, 'GET', '/contacts/contacts-tags', { key: server.b.key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
    const a = await call(server, 'GET', '/contacts/contacts-tags', { key: server.a.key });
    const tags = contactTagListSchema.parse(a.body);
    expect(tags.map((t) => t.name)).toEqual([...tags.map((t) => t.name)].sort());
    expect(tags.find((t) => t.name === 'alpha')?.count).toBe(2);
    expect(tags.find((t) => t.name === 'zeta')?.count).toBe(1);
  });

  it('follows tag edits at once (no stale cache)', async () => {
    const { body } = await create({ name: 'Cache', tags: ['fresh'] });
    const count = async () => (await call(server, 'GET', '/contacts/contacts-tags', { key: server.a.key })).body.find((t: { name: string }) => t.name === 'fresh')?.count;
    expect(await count()).toBe(1);
    await call(server, 'PATCH', `/contacts/${body.id}/tags`, { key: server.a.key, body: { tagsToRemove: ['fresh'] } });
    expect(await count()).toBeUndefined();
  });
});

describe('PATCH /contacts/{id}/tags', () => {
  it('adds and removes tags, answers 204 with an empty body, and the list shows the change', async () => {
    const { body } = await create({ name: 'Tagged', tags: ['a', 'b'] });
    const response = await call(server, 'PATCH', `/contacts/${body.id}/tags`, { key: server.a.key, body: { tagsToAdd: ['c', ' d '], tagsToRemove: ['a'] } });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect((await byId(body.id)).tags).toEqual(['b', 'c', 'd']);
    const filtered = await call(server, 'GET', `/contacts${query({ $filter: "tags eq 'd' and tags ne 'a'" })}`, { key: server.a.key });
    expect(filtered.body.items.map((c: { id: string }) => c.id)).toContain(body.id);
  });

  it('changes nothing when adding a present tag or removing an absent one', async () => {
    const { body } = await create({ name: 'Steady', tags: ['keep'] });
    const before = await byId(body.id);
    const response = await call(server, 'PATCH', `/contacts/${body.id}/tags`, { key: server.a.key, body: { tagsToAdd: ['keep'], tagsToRemove: ['absent'] } });
    expect(response.status).toBe(204);
    expect(await byId(body.id)).toEqual(before);
  });

  it.each([
    ['an empty body', {}, 'needs a non-empty tagsToAdd or tagsToRemove'],
    ['two empty lists', { tagsToAdd: [], tagsToRemove: [] }, 'needs a non-empty tagsToAdd or tagsToRemove'],
    ['a tag in both lists', { tagsToAdd: ['x'], tagsToRemove: ['x'] }, 'names x in both tagsToAdd and tagsToRemove'],
    ['an unknown field', { tagsToAdd: ['x'], tags: ['y'] }, 'property tags should not exist'],
    ['a tag that is not a string', { tagsToAdd: [1] }, 'tagsToAdd.0 must be a string'],
  ])('answers 400 for %s', async (_name, patch, message) => {
    const { body } = await create({ name: `Bad ${Math.random()}` });
    const response = await call(server, 'PATCH', `/contacts/${body.id}/tags`, { key: server.a.key, body: patch });
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(message);
  });

  it('answers 404 for an unknown contact', async () => {
    const response = await call(server, 'PATCH', '/contacts/00000000-0000-4000-8000-000000000000/tags', { key: server.a.key, body: { tagsToAdd: ['x'] } });
    expect(response.status).toBe(404);
    expect(response.body.message).toBe('Contact not found');
  });
});

describe('PATCH /contacts/{id}/notification-settings', () => {
  const patch = (id: string, body: unknown) => call(server, 'PATCH', `/contacts/${id}/notification-settings`, { headers: { authorization: server.a.basic }, body });

  it('updates the settings, activates a pending contact and answers the contact', async () => {
    const { body } = await create({ name: 'Pending', email: 'pending@example.com', phone: '+4790000040' });
    expect(body.state).toBe('pending');
    const response = await patch(body.id, { email: false, sms: true });
    expect(response.status).toBe(200);
    expect(notificationSettingsResponseSchema.parse(response.body)).toEqual({
      id: body.id, feedId: server.a.id, name: 'Pending', email: 'pending@example.com', phone: '+4790000040', image: null, state: 'active',
    });
    const listed = await byId(body.id);
    expect(listed.state).toBe('active');
    expect(listed.notificationSettings).toEqual({ email: false, sms: true });
  });

  it('keeps a setting that is not given', async () => {
    const { body } = await create({ name: 'Half', email: 'half@example.com', phone: '+4790000041' });
    await patch(body.id, { sms: false });
    expect((await byId(body.id)).notificationSettings).toEqual({ email: true, sms: false });
  });

  it.each([
    ['an empty body', {}, 'needs email or sms'],
    ['email on without an email', { email: true }, 'email cannot be turned on for a contact without an email'],
    ['a non-boolean', { sms: 'yes' }, 'sms must be a boolean'],
    ['an unknown field', { push: true }, 'property push should not exist'],
  ])('answers 400 for %s and leaves the contact pending', async (_name, settings, message) => {
    const { body } = await create({ name: `NoEmail ${Math.random()}`, phone: `+479${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}` });
    const response = await patch(body.id, settings);
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(message);
    expect((await byId(body.id)).state).toBe('pending');
  });

  it('answers 404 for an unknown contact', async () => {
    const response = await patch('no-such-contact', { sms: false });
    expect(response.status).toBe(404);
  });
});
