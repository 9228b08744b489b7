/**
 * Lists (docs/decisions.md section 6): paging sees every contact exactly once with an exact `meta.maxResults`,
 * `$orderBy` orders with `id` as the tie-breaker, and `$filter` selects exactly what its meaning says, checked
 * against the same predicate evaluated over the whole list in JavaScript.
 */
import { faker } from '@faker-js/faker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Contact } from '../../src/api/contacts';
import { fakeContacts, insertContacts } from '../db/seed';
import { type TestServer, call, query, startServer } from './harness';

let server: TestServer;
let all: Contact[];

async function list(params: Record<string, string | number | undefined>) {
  const response = await call(server, 'GET', `/contacts${query(params)}`, { key: server.a.key });
  expect(response.status, response.text).toBe(200);
  return response.body as { items: Contact[]; meta: { maxResults: number } };
}

/** Every contact matching `params`, walking pages of `limit`. */
async function walk(params: Record<string, string | undefined>, limit = 40): Promise<{ items: Contact[]; totals: number[] }> {
  const items: Contact[] = [];
  const totals: number[] = [];
  for (let offset = 0; ; offset += limit) {
    const page = await list({ ...params, $offset: offset, $limit: limit });
    totals.push(page.meta.maxResults);
    items.push(...page.items);
    if (offset + limit >= page.meta.maxResults) break;
  }
  return { items, totals };
}

beforeAll(async () => {
  server = await startServer();
  faker.seed(42);
  const rows = fakeContacts(server.a.id, 237);
  // Same creation time for a few rows, so the id tie-breaker matters; some with no city, name or email.
  for (const row of rows.slice(0, 12)) row.created = row.updated = '2026-01-01T00:00:00.000Z';
  for (const row of rows.slice(12, 20)) row.city = null;
  for (const row of rows.slice(20, 24)) row.name = null;
  rows[30]!.name = '100% Pure_Joy';
  rows[31]!.name = "O'Hara";
  await insertContacts(server.database.db, rows);
  await insertContacts(server.database.db, fakeContacts(server.b.id, 15, { idPrefix: 5000 }));
  all = (await walk({})).items;
});
afterAll(() => server.close());

const byCreatedDesc = (a: Contact, b: Contact) => (a.created < b.created ? 1 : a.created > b.created ? -1 : a.id < b.id ? -1 : 1);

describe('paging', () => {
  it('sees every contact exactly once and maxResults is exact on every page', async () => {
    for (const limit of [1, 7, 20, 100]) {
      const { items, totals } = limit === 1 ? await walk({}, 1).then((r) => r) : await walk({}, limit);
      expect(items).toHaveLength(237);
      expect(new Set(items.map((c) => c.id)).size).toBe(237);
      expect(new Set(totals)).toEqual(new Set([237]));
    }
  });

  it('orders by created desc then id by default', () => {
    expect(all.map((c) => c.id)).toEqual([...all].sort(byCreatedDesc).map((c) => c.id));
  });

  it('answers an empty page past the end with the total', async () => {
    expect(await list({ $offset: 1000 })).toEqual({ items: [], meta: { maxResults: 237 } });
  });

  it('uses 20 as the default page size', async () => {
    expect((await list({})).items).toHaveLength(20);
  });

  it('counts a new contact at once (the count cache follows writes)', async () => {
    const created = await call(server, 'POST', '/contacts', { key: server.b.key, body: { name: 'Counted' } });
    expect(created.status).toBe(201);
    const after = await call(server, 'GET', '/contacts', { key: server.b.key });
    expect(after.body.meta.maxResults).toBe(16);
  });
});

describe('$orderBy', () => {
  const text = (value: string | null) => (value === null ? null : value.toLowerCase());
  function compareBy(field: keyof Contact, direction: 'asc' | 'desc', lower = false) {
    return (a: Contact, b: Contact) => {
      const x = lower ? text(a[field] as string | null) : (a[field] as string | null);
      const y = lower ? text(b[field] as string | null) : (b[field] as string | null);
      if (x !== y) {
        // SQL puts nulls first in ascending order, last in descending order.
        if (x === null) return direction === 'asc' ? -1 : 1;
        if (y === null) return direction === 'asc' ? 1 : -1;
        return (x < y ? -1 : 1) * (direction === 'asc' ? 1 : -1);
      }
      return a.id < b.id ? -1 : 1;
    };
  }

  it.each([
    ['name asc', 'name', 'asc', true],
    ['name desc', 'name', 'desc', true],
    ['email', 'email', 'asc', false],
    ['city desc', 'city', 'desc', false],
    ['created asc', 'created', 'asc', false],
    ['updated DESC', 'updated', 'desc', false],
  ] as const)('orders by %s with id as the tie-breaker', async (orderBy, field, direction, lower) => {
    const { items } = await walk({ $orderBy: orderBy }, 100);
    expect(items.map((c) => c.id)).toEqual([...all].sort(compareBy(field, direction, lower)).map((c) => c.id));
  });

  it('orders by several fields', async () => {
    const { items } = await walk({ $orderBy: 'state asc, created desc' }, 100);
    const expected = [...all].sort((a, b) => (a.state !== b.state ? (a.state < b.state ? -1 : 1) : byCreatedDesc(a, b)));
    expect(items.map((c) => c.id)).toEqual(expected.map((c) => c.id));
  });

  it.each([
    ['bio', "cannot sort by 'bio'"],
    ['name sideways', "expected 'asc' or 'desc' after 'name'"],
    ['tags', "cannot sort by 'tags'"],
  ])('answers 400 for $orderBy=%s', async (orderBy, message) => {
    const response = await call(server, 'GET', `/contacts${query({ $orderBy: orderBy })}`, { key: server.a.key });
    expect(response.status).toBe(400);
    expect(response.body.message).toContain('$orderBy: ');
    expect(response.body.message).toContain(message);
  });
});

describe('$filter', () => {
  const someTag = () => all.flatMap((c) => c.tags)[0]!;
  const someCity = () => all.find((c) => c.city)!.city!;
  const someEmail = () => all.find((c) => c.email)!.email!;
  const inRange = (c: Contact, low: string, high: string) => c.created >= low && c.created <= high;
  const likes = (value: string | null, needle: string) => (value ?? '').toLowerCase().includes(needle.toLowerCase());

  const cases: [string, () => string, (c: Contact) => boolean][] = [
    ["state eq 'active'", () => "state eq 'active'", (c) => c.state === 'active'],
    ["STATE keyword case: state EQ 'pending'", () => "state EQ 'pending'", (c) => c.state === 'pending'],
    ['tags eq (has)', () => `tags eq '${someTag()}'`, (c) => c.tags.includes(someTag())],
    ['tags ne (has not)', () => `tags ne '${someTag()}'`, (c) => !c.tags.includes(someTag())],
    ['tags in (has any)', () => "tags in ('vip', 'lead')", (c) => c.tags.includes('vip') || c.tags.includes('lead')],
    ['tags eq null (no tags)', () => 'tags eq null', (c) => c.tags.length === 0],
    ['city ne keeps missing cities', () => `city ne '${someCity()}'`, (c) => c.city !== someCity()],
    ['not (city eq ...) keeps missing cities', () => `not (city eq '${someCity()}')`, (c) => c.city !== someCity()],
    ['city eq null', () => 'city eq null', (c) => c.city === null],
    ['name ne null', () => 'name ne null', (c) => c.name !== null],
    ['like is a case-insensitive contains', () => "name like 'AN'", (c) => likes(c.name, 'an')],
    ['like with % is a pattern', () => "name like 'a%'", (c) => (c.name ?? '').toLowerCase().startsWith('a')],
    ['like with \\% is a literal percent', () => "name like '100\\%'", (c) => likes(c.name, '100%')],
    ['like with \\_ is a literal underscore', () => "name like 'pure\\_'", (c) => likes(c.name, 'pure_')],
    ['like with a quote', () => "name like 'o''h'", (c) => likes(c.name, "o'h")],
    ['between is inclusive', () => "created between '2026-01-01' and '2026-01-01T00:00:00.000Z'", (c) => inRange(c, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')],
    ['dates compare as instants across offsets', () => "created ge '2026-01-01T01:00:00+01:00'", (c) => c.created >= '2026-01-01T00:00:00.000Z'],
    ['gt on dates', () => "created gt '2026-01-01'", (c) => c.created > '2026-01-01T00:00:00.000Z'],
    ['and binds tighter than or', () => "state eq 'active' and tags eq 'vip' or city eq null", (c) => (c.state === 'active' && c.tags.includes('vip')) || c.city === null],
    ['parentheses', () => "state eq 'active' and (tags eq 'vip' or city eq null)", (c) => c.state === 'active' && (c.tags.includes('vip') || c.city === null)],
    ['in on a column', () => "state in ('pending')", (c) => c.state === 'pending'],
    // A required tag is read from the tag's own index (server/db/contacts.ts): same rows and order as any filter.
    ['a tag and a state', () => "tags eq 'vip' and state eq 'active'", (c) => c.tags.includes('vip') && c.state === 'active'],
    ['a tag between two conditions', () => "state eq 'active' and tags eq 'lead' and city ne null", (c) => c.state === 'active' && c.tags.includes('lead') && c.city !== null],
    ['a tag that nobody has', () => "tags eq 'nobody-has-this'", () => false],
    ['not not', () => "not (not (state eq 'active'))", (c) => c.state === 'active'],
    ['id eq', () => `id eq '${all[5]!.id}'`, (c) => c.id === all[5]!.id],
    ['nothing matches', () => "email eq 'nobody@nowhere.test'", () => false],
    // Issue 20: an email is one contact in any letter case (docs/decisions.md section 7), so eq/ne/in ignore case.
    ['email eq ignores letter case', () => `email eq '${someEmail().toUpperCase()}'`, (c) => c.email?.toLowerCase() === someEmail().toLowerCase()],
    ['email in ignores letter case', () => `email in ('${someEmail().toUpperCase()}', 'NOBODY@NOWHERE.TEST')`, (c) => c.email?.toLowerCase() === someEmail().toLowerCase()],
    ['email ne ignores letter case', () => `email ne '${someEmail().toUpperCase()}'`, (c) => c.email?.toLowerCase() !== someEmail().toLowerCase()],
  ];

  it.each(cases)('selects exactly the matching contacts: %s', async (_name, filter, predicate) => {
    const { items, totals } = await walk({ $filter: filter() }, 100);
    const expected = all.filter(predicate);
    expect(totals[0]).toBe(expected.length);
    expect(items.map((c) => c.id)).toEqual(expected.map((c) => c.id));
  });

  it('finds a tag added later at its contact\'s place in the newest-first order, on every page', async () => {
    const oldest = all.at(-1)!;
    const tag = 'added-later';
    const patch = await call(server, 'PATCH', `/contacts/${oldest.id}/tags`, { key: server.a.key, body: { tagsToAdd: [tag] } });
    expect(patch.status).toBe(204);
    const newer = all[3]!;
    await call(server, 'PATCH', `/contacts/${newer.id}/tags`, { key: server.a.key, body: { tagsToAdd: [tag] } });
    const { items, totals } = await walk({ $filter: `tags eq '${tag}'` }, 1);
    expect(items.map((c) => c.id)).toEqual([newer.id, oldest.id]);
    expect(totals).toEqual([2, 2]);
    await call(server, 'PATCH', `/contacts/${newer.id}/tags`, { key: server.a.key, body: { tagsToRemove: [tag] } });
    expect((await walk({ $filter: `tags eq '${tag}'` })).items.map((c) => c.id)).toEqual([oldest.id]);
    await call(server, 'PATCH', `/contacts/${oldest.id}/tags`, { key: server.a.key, body: { tagsToRemove: [tag] } });
  });

  it('filters and sorts together', async () => {
    const { items } = await walk({ $filter: "state eq 'active'", $orderBy: 'name desc' }, 50);
    expect(items.every((c) => c.state === 'active')).toBe(true);
    expect(items).toHaveLength(all.filter((c) => c.state === 'active').length);
  });

  it.each([
    ["name eqq 'x'", "$filter: unexpected token 'eqq' at position 5"],
    ["bio eq 'x'", "$filter: unknown field 'bio'"],
    ["created eq 'yesterday'", "$filter: field 'created' expects an ISO 8601 date, got 'yesterday'"],
    ["tags like 'v'", '$filter: '],
    ['state eq 5', "$filter: field 'state' expects"],
  ])('answers 400 for $filter=%s naming the problem', async (filter, message) => {
    const response = await call(server, 'GET', `/contacts${query({ $filter: filter })}`, { key: server.a.key });
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(message);
  });
});

describe('GET /workspaces', () => {
  it('filters, sorts and pages the organization workspaces', async () => {
    const key = server.a.key;
    const byName = await call(server, 'GET', `/workspaces${query({ $orderBy: 'name desc' })}`, { key });
    expect(byName.body.items.map((w: { name: string }) => w.name)).toEqual(['Workspace B', 'Workspace A']);
    const filtered = await call(server, 'GET', `/workspaces${query({ $filter: "name like 'b'" })}`, { key });
    expect(filtered.body).toMatchObject({ items: [{ id: server.b.id, name: 'Workspace B', imageUrl: null, organizationId: server.organizationId }], meta: { maxResults: 1 } });
    const paged = await call(server, 'GET', `/workspaces${query({ $limit: 1, $offset: 1 })}`, { key });
    expect(paged.body.items.map((w: { name: string }) => w.name)).toEqual(['Workspace B']);
    expect(paged.body.meta.maxResults).toBe(2);
    const bad = await call(server, 'GET', `/workspaces${query({ $orderBy: 'id' })}`, { key });
    expect(bad.status).toBe(400);
  });
});
