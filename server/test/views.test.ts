/**
 * Shared views (docs/decisions.md section 13, issue 36) on both databases, against a real listening server: the
 * routes and their answers, validation (the filter and order of section 6, names, columns, page sizes), names unique
 * in the workspace ignoring case (also when two requests race), the workspace's keys sharing views, scopes, activity
 * entries and change events, and no 500 whatever the body.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_VIEWS_PER_WORKSPACE } from '../../src/api/live';
import { openEvents } from './event-stream';
import { type TestServer, call, query, startServer, unique } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const oslo = { filter: "city eq 'Oslo' and tags eq 'lead'", orderBy: 'created desc', columns: ['name', 'email', 'city'], pageSize: 50 };

const createView = (body: unknown, key = server.a.key) => call(server, 'POST', '/views', { key, body });

describe('POST /views, GET /views', () => {
  it('creates a view with every member answered, seen by every key of the workspace and no other', async () => {
    const name = unique('Oslo leads');
    const created = await createView({ name: `  ${name}  `, query: oslo });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      viewId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name,
      resource: 'contacts',
      query: oslo,
      keyHint: `…${server.a.key.slice(-4)}`,
      created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      updated: created.body.created,
    });
    const reader = await server.keyWith(server.a, ['contacts:read-only']);
    const listed = await call(server, 'GET', '/views', { key: reader });
    expect(listed.status).toBe(200);
    expect(listed.body.items).toContainEqual(created.body);
    expect(listed.body.meta.maxResults).toBe(listed.body.items.length);
    const other = await call(server, 'GET', '/views', { key: server.b.key });
    expect(other.body.items.map((view: { viewId: string }) => view.viewId)).not.toContain(created.body.viewId);
  });

  it('fills a query left short with the defaults', async () => {
    const created = await createView({ name: unique('Everyone'), resource: 'contacts', query: {} });
    expect(created.status, created.text).toBe(201);
    expect(created.body.query).toEqual({ filter: null, orderBy: null, columns: [], pageSize: 20 });
  });

  it('lists views by name ignoring case', async () => {
    const key = await server.keyWith(server.b, ['contacts:read-write']);
    for (const name of ['beta', 'Alpha', 'gamma']) expect((await createView({ name, query: {} }, key)).status).toBe(201);
    const listed = await call(server, 'GET', '/views', { key });
    expect(listed.body.items.map((view: { name: string }) => view.name)).toEqual(['Alpha', 'beta', 'gamma']);
  });

  it('refuses a name another view of the workspace has, ignoring case, with a 409; another workspace may have it', async () => {
    const name = unique('Bergen VIPs');
    expect((await createView({ name, query: {} })).status).toBe(201);
    const clash = await createView({ name: name.toUpperCase(), query: {} });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe(`A view named ${name.toUpperCase()} already exists`);
    expect((await createView({ name, query: {} }, server.b.key)).status).toBe(201);
  });

  it('lets one of two requests racing for a name win, the other a 409', async () => {
    const name = unique('Race');
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => createView({ name: i % 2 ? name : name.toLowerCase(), query: {} })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });

  it.each([
    ['an empty name', { name: '   ', query: {} }, 'name'],
    ['a name over 100 characters', { name: 'x'.repeat(101), query: {} }, 'name'],
    ['no query', { name: 'x' }, 'query'],
    ['another resource', { name: 'x', resource: 'products', query: {} }, 'resource'],
    ['a filter that does not parse', { name: 'x', query: { filter: "city eqq 'Oslo'" } }, 'query.filter: unexpected token'],
    ['a filter on an unknown field', { name: 'x', query: { filter: "nope eq 'x'" } }, 'query.filter:'],
    ['a filter comparing a date with a number', { name: 'x', query: { filter: 'created gt 5' } }, 'query.filter:'],
    ['a filter over the length limit', { name: 'x', query: { filter: `name eq '${'x'.repeat(2001)}'` } }, 'query.filter'],
    ['an order by a field the list cannot sort by', { name: 'x', query: { orderBy: 'tags asc' } }, 'query.orderBy'],
    ['an order that does not parse', { name: 'x', query: { orderBy: 'name sideways' } }, 'query.orderBy'],
    ['a page size of 0', { name: 'x', query: { pageSize: 0 } }, 'query.pageSize'],
    ['a page size of 101', { name: 'x', query: { pageSize: 101 } }, 'query.pageSize'],
    ['a fractional page size', { name: 'x', query: { pageSize: 1.5 } }, 'query.pageSize'],
    ['a repeated column', { name: 'x', query: { columns: ['name', 'name'] } }, 'query.columns'],
    ['a column that is not a field name', { name: 'x', query: { columns: ['name; drop'] } }, 'query.columns'],
    ['51 columns', { name: 'x', query: { columns: Array.from({ length: 51 }, (_, i) => `c${i}`) } }, 'query.columns'],
    ['an unknown member', { name: 'x', query: {}, shared: true }, 'shared'],
    ['an unknown query member', { name: 'x', query: { search: 'x' } }, 'search'],
  ])('refuses %s with a 400 naming it', async (_name, body, named) => {
    const answer = await createView(body);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.message).toContain(named);
  });

  it('needs contacts:read-write to create, contacts:read-only to list', async () => {
    const reader = await server.keyWith(server.a, ['contacts:read-only']);
    const products = await server.keyWith(server.a, ['products:read-write']);
    expect((await createView({ name: unique('x'), query: {} }, reader)).status).toBe(403);
    expect((await call(server, 'GET', '/views', { key: products })).status).toBe(403);
    expect((await call(server, 'GET', '/views')).status).toBe(401);
  });
});

describe('PUT /views/{viewId}, DELETE /views/{viewId}', () => {
  it('replaces a view (any read-write key of the workspace), keeping who made it and when', async () => {
    const made = (await createView({ name: unique('Trondheim'), query: oslo })).body;
    const colleague = await server.keyWith(server.a, ['contacts:read-write']);
    const name = unique('Trondheim leads');
    const replaced = await call(server, 'PUT', `/views/${made.viewId}`, { key: colleague, body: { name, query: { filter: "city eq 'Trondheim'" } } });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toEqual({ ...made, name, query: { filter: "city eq 'Trondheim'", orderBy: null, columns: [], pageSize: 20 }, updated: expect.any(String) });
    expect(replaced.body.updated >= made.updated).toBe(true);
    // Its own name in another case is no clash.
    expect((await call(server, 'PUT', `/views/${made.viewId}`, { key: colleague, body: { name: name.toUpperCase(), query: {} } })).status).toBe(200);
  });

  it('answers 409 for a name another view has, 404 for a view of another workspace or none, 400 for a bad body', async () => {
    const first = (await createView({ name: unique('First'), query: {} })).body;
    const second = (await createView({ name: unique('Second'), query: {} })).body;
    const clash = await call(server, 'PUT', `/views/${second.viewId}`, { key: server.a.key, body: { name: first.name.toLowerCase(), query: {} } });
    expect(clash.status).toBe(409);
    const elsewhere = await call(server, 'PUT', `/views/${first.viewId}`, { key: server.b.key, body: { name: 'mine now', query: {} } });
    expect([elsewhere.status, elsewhere.body.message]).toEqual([404, 'View not found']);
    expect((await call(server, 'PUT', '/views/nope', { key: server.a.key, body: { name: 'x', query: {} } })).status).toBe(404);
    expect((await call(server, 'PUT', `/views/${first.viewId}`, { key: server.a.key, body: { name: 'x', query: { filter: 'x' } } })).status).toBe(400);
    expect((await call(server, 'DELETE', `/views/${first.viewId}`, { key: server.b.key })).status).toBe(404);
  });

  it('deletes a view: 204, then gone from the list, a second delete 404', async () => {
    const made = (await createView({ name: unique('Short-lived'), query: {} })).body;
    const reader = await server.keyWith(server.a, ['contacts:read-only']);
    expect((await call(server, 'DELETE', `/views/${made.viewId}`, { key: reader })).status).toBe(403);
    const deleted = await call(server, 'DELETE', `/views/${made.viewId}`, { key: server.a.key });
    expect([deleted.status, deleted.text]).toEqual([204, '']);
    const listed = await call(server, 'GET', '/views', { key: server.a.key });
    expect(listed.body.items.map((view: { viewId: string }) => view.viewId)).not.toContain(made.viewId);
    expect((await call(server, 'DELETE', `/views/${made.viewId}`, { key: server.a.key })).status).toBe(404);
    // The name is free again.
    expect((await createView({ name: made.name, query: {} })).status).toBe(201);
  });
});

describe('activity and events', () => {
  it('records each create, change and delete, and sends them as view events', async () => {
    const stream = await openEvents(server.baseUrl, server.a.key);
    try {
      await stream.next((frame) => frame.event === 'reset');
      const made = (await createView({ name: unique('Logged'), query: oslo })).body;
      const name = unique('Logged again');
      expect((await call(server, 'PUT', `/views/${made.viewId}`, { key: server.a.key, body: { name, query: oslo } })).status).toBe(200);
      expect((await call(server, 'DELETE', `/views/${made.viewId}`, { key: server.a.key })).status).toBe(204);
      const history = await call(server, 'GET', `/activity${query({ $filter: `resourceId eq '${made.viewId}'`, $orderBy: 'created asc' })}`, { key: server.a.key });
      expect(history.body.items.map((entry: { resource: string; action: string; changes: unknown }) => [entry.resource, entry.action, entry.changes])).toEqual([
        ['view', 'create', { name: [null, made.name], query: [null, oslo] }],
        ['view', 'update', { name: [made.name, name] }],
        ['view', 'delete', { name: [name, null], query: [oslo, null] }],
      ]);
      await stream.next((frame) => frame.event === 'change' && frame.data.action === 'delete');
      const seen = stream.frames.filter((frame) => frame.event === 'change' && frame.data.resource === 'view');
      expect(seen.flatMap((frame) => (frame.data.ids as string[]).map((id) => `${frame.data.action} ${id}`))).toEqual([`create ${made.viewId}`, `update ${made.viewId}`, `delete ${made.viewId}`]);
      // Not revertible: a view is put back by saving it again.
      const reverted = await call(server, 'POST', '/activity/revert', { key: server.a.key, body: { activityId: history.body.items[1].activityId } });
      expect(reverted.body).toMatchObject({ reverted: 0, conflicts: [{ reason: 'not-revertible' }] });
      // A key that cannot read contacts sees no view entries.
      const products = await server.keyWith(server.a, ['products:read-only']);
      const hidden = await call(server, 'GET', `/activity${query({ $filter: `resourceId eq '${made.viewId}'` })}`, { key: products });
      expect(hidden.body.meta.maxResults).toBe(0);
    } finally {
      stream.close();
    }
  });
});

describe('limits and hostile bodies', () => {
  it(`holds at most ${MAX_VIEWS_PER_WORKSPACE} views in a workspace`, async () => {
    const full = await server.keyWith(server.b, ['contacts:read-write']);
    const existing = (await call(server, 'GET', '/views', { key: full })).body.meta.maxResults as number;
    for (let i = existing; i < MAX_VIEWS_PER_WORKSPACE; i++) expect((await createView({ name: `bulk ${i}`, query: {} }, full)).status).toBe(201);
    const over = await createView({ name: 'one too many', query: {} }, full);
    expect([over.status, over.body.message]).toEqual([409, `A workspace may hold at most ${MAX_VIEWS_PER_WORKSPACE} views`]);
  }, 60_000);

  it('never answers a 500, whatever the body', async () => {
    const value = fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }));
    const body = fc.oneof(
      fc.record({ name: fc.string({ maxLength: 120 }), query: fc.record({ filter: fc.option(fc.string({ maxLength: 60 })), orderBy: fc.option(fc.string({ maxLength: 30 })), columns: fc.array(fc.string({ maxLength: 70 }), { maxLength: 4 }), pageSize: fc.oneof(fc.integer(), fc.double()) }, { requiredKeys: [] }) }, { requiredKeys: [] }),
      fc.dictionary(fc.string({ maxLength: 8 }), value, { maxKeys: 4 }),
      value,
    );
    const samples = fc.sample(body, { numRuns: 150, seed: 36 });
    for (const sample of samples) {
      const answer = await call(server, 'POST', '/views', { key: server.a.key, body: sample });
      expect(answer.status, `${JSON.stringify(sample)} => ${answer.text}`).toBeLessThan(500);
    }
    for (const path of ['/views/%00', `/views/${'a'.repeat(501)}`, '/views/%FF', "/views/' or 1=1 --"]) {
      const answer = await call(server, 'PUT', path, { key: server.a.key, body: { name: 'x', query: {} } });
      expect(answer.status, path).toBeLessThan(500);
    }
  });
});
