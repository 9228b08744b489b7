/**
 * Kept counts (issue 39 point 2, migration 0010): after random writes through the API (creations one by one and in
 * batches, tag edits, bulk tags over a filter or ids, corrections, activation through the notification settings, erasures,
 * reverts of random activity entries) and bulk inserts beside it, `contact_counts` holds exactly what a scan of the
 * contacts and their tag rows gives, for every workspace, with no row of count 0; and every count the service reads from
 * it (`meta.maxResults` of no filter, `state eq`, `state in`, `tags eq`; `GET /contacts/contacts-tags`; `GET /stats`)
 * equals a plain count over the contacts.
 */
import { faker } from '@faker-js/faker';
import fc from 'fast-check';
import { type Kysely, sql } from 'kysely';
import { seedContacts, seedContactsPostgres } from '../../bench/seed-contacts';
import { openMigratedDatabase } from '../database';
import type { Database } from '../db/schema';
import { createOrganization, createWorkspace } from '../db/workspaces';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeContacts, insertContacts } from '../db/seed';
import { type TestServer, call, call as send, query, startServer } from './harness';
import { TEST_DATABASE, createMigratedTestDatabase } from './test-database';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  faker.seed(3940);
  await insertContacts(server.database.db, fakeContacts(server.a.id, 30));
  await insertContacts(server.database.db, fakeContacts(server.b.id, 10, { idPrefix: 7000 }));
});
afterAll(() => server.close());

const TAGS = ['vip', 'VIP', 'oslo', 'lead'];
const tagList = fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 3 });
type Person = { name: string; mail: number; tags: string[]; addDirectly: boolean };
const person: fc.Arbitrary<Person> = fc.record({ name: fc.constantFrom('Ann', 'Bo', 'Kari'), mail: fc.nat(60), tags: tagList, addDirectly: fc.boolean() });

type Write =
  | { kind: 'create'; contact: Person }
  | { kind: 'batch'; contacts: Person[] }
  | { kind: 'tags'; index: number; add: string[]; remove: string[] }
  | { kind: 'bulk'; filter: string; add: string[]; remove: string[] }
  | { kind: 'correct'; index: number; name: string }
  | { kind: 'activate'; index: number }
  | { kind: 'erase'; index: number }
  | { kind: 'revert'; index: number }
  | { kind: 'insert'; n: number }
  | { kind: 'cascade'; index: number };

const write: fc.Arbitrary<Write> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), contact: person }),
  fc.record({ kind: fc.constant('batch' as const), contacts: fc.array(person, { minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('tags' as const), index: fc.nat(500), add: tagList, remove: tagList }),
  fc.record({ kind: fc.constant('bulk' as const), filter: fc.constantFrom("state eq 'pending'", "tags eq 'vip'", "name eq 'Ann'", ''), add: tagList, remove: tagList }),
  fc.record({ kind: fc.constant('correct' as const), index: fc.nat(500), name: fc.constantFrom('Ann', 'Per') }),
  fc.record({ kind: fc.constant('activate' as const), index: fc.nat(500) }),
  fc.record({ kind: fc.constant('erase' as const), index: fc.nat(500) }),
  fc.record({ kind: fc.constant('revert' as const), index: fc.nat(50) }),
  fc.record({ kind: fc.constant('insert' as const), n: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('cascade' as const), index: fc.nat(500) }),
);

const body = (contact: Person) => ({ name: contact.name, email: `p${contact.mail}@example.com`, tags: contact.tags, addDirectly: contact.addDirectly });

let inserted = 0;
/** Sends `change` (its tags to remove without those it adds); every answer must be below 500. */
async function apply(change: Write): Promise<void> {
  const { key } = server.a;
  const call = async (...args: Parameters<typeof send>) => {
    const answer = await send(...args);
    expect(answer.status, `${args[1]} ${args[2]}: ${answer.text}`).toBeLessThan(500);
    return answer;
  };
  if (change.kind === 'tags' || change.kind === 'bulk') {
    const { add } = change;
    change = { ...change, remove: change.remove.filter((tag) => !add.includes(tag)) };
  }
  const ids = (await server.database.db.selectFrom('contacts').select('id').where('workspace_id', '=', server.a.id).orderBy('id').execute()).map((row) => row.id);
  const id = ids.length ? ids[('index' in change ? change.index : 0) % ids.length] : undefined;
  switch (change.kind) {
    case 'create':
      return void (await call(server, 'POST', '/contacts', { key, body: body(change.contact) }));
    case 'batch':
      return void (await call(server, 'POST', '/contacts/batch', { key, body: { items: change.contacts.map(body) } }));
    case 'tags':
      if (id) await call(server, 'PATCH', `/contacts/${id}/tags`, { key, body: { tagsToAdd: change.add, tagsToRemove: change.remove } });
      return;
    case 'bulk':
      if (change.add.length || change.remove.length) {
        await call(server, 'POST', '/contacts/tags', { key, body: { ...(change.filter ? { filter: change.filter } : { ids: ids.slice(0, 5) }), tagsToAdd: change.add, tagsToRemove: change.remove } });
      }
      return;
    case 'correct':
      if (id) await call(server, 'PATCH', `/contacts/${id}`, { key, body: { name: change.name } });
      return;
    case 'activate':
      if (id) await call(server, 'PATCH', `/contacts/${id}/notification-settings`, { headers: { authorization: server.a.basic }, body: { email: true } });
      return;
    case 'erase':
      if (id) await call(server, 'DELETE', `/contacts/${id}`, { key });
      return;
    case 'revert': {
      const { body: page } = await call(server, 'GET', `/activity${query({ $limit: 50 })}`, { key });
      const entry = page.items[change.index % Math.max(page.items.length, 1)];
      if (entry) await call(server, 'POST', '/activity/revert', { key, body: { activityId: entry.activityId } });
      return;
    }
    case 'insert': {
      const rows = fakeContacts(server.a.id, change.n, { idPrefix: 90_000 + inserted });
      inserted += change.n;
      return void (await insertContacts(server.database.db, rows));
    }
    case 'cascade': {
      // A contact row deleted beside the service with its tag rows still there: the foreign key's cascade deletes them.
      if (!id) return;
      await server.database.db.deleteFrom('contacts').where('id', '=', id).execute();
      await server.database.db.updateTable('workspaces').set((eb) => ({ contacts_version: eb('contacts_version', '+', 1) })).where('id', '=', server.a.id).execute();
      return;
    }
  }
}

/** `kind|workspace|name -> n` from `contact_counts`, and the same from a scan of contacts and contact_tags. */
async function keptAndScanned(db: Kysely<Database> = server.database.db): Promise<{ kept: Record<string, number>; scanned: Record<string, number> }> {
  const kept = await db.selectFrom('contact_counts').select(['workspace_id', 'kind', 'name', 'n']).execute();
  const { rows } = await sql<{ workspace_id: string; kind: string; name: string; n: number | string }>`
    select workspace_id, 'state' as kind, state as name, count(*) as n from contacts group by workspace_id, state
    union all select workspace_id, 'day', substr(created, 1, 10), count(*) from contacts group by workspace_id, substr(created, 1, 10)
    union all select t.workspace_id, 'tag:' || c.state, t.tag, count(*) from contact_tags t join contacts c on c.id = t.contact_id group by t.workspace_id, c.state, t.tag`.execute(db);
  const keyed = (list: { workspace_id: string; kind: string; name: string; n: number | string }[]) =>
    Object.fromEntries(list.map((row) => [`${row.kind}|${row.workspace_id}|${row.name}`, Number(row.n)]));
  return { kept: keyed(kept), scanned: keyed(rows) };
}

/** What the service answers for `filter`'s `meta.maxResults` and what a plain count over the contacts gives. */
async function maxResults(filter: string): Promise<number> {
  const { status, body: page } = await call(server, 'GET', `/contacts${query({ $filter: filter || undefined, $limit: 1 })}`, { key: server.a.key });
  expect(status).toBe(200);
  return page.meta.maxResults;
}

describe('kept counts', () => {
  it('equal a scan after random interleaved writes, and every count read from them equals a plain count', async () => {
    const db = server.database.db;
    const count = async (where: (q: any) => any) => Number((await where(db.selectFrom('contacts').select((eb) => eb.fn.countAll().as('n')).where('workspace_id', '=', server.a.id)).executeTakeFirstOrThrow()).n);
    const tagged = (tag: string) => (q: any) => q.where('id', 'in', db.selectFrom('contact_tags').select('contact_id').where('tag', '=', tag));
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 6 }), async (steps) => {
        for (const change of steps) await apply(change);
        const { kept, scanned } = await keptAndScanned();
        expect(kept).toEqual(scanned);
        expect(Object.values(kept).every((n) => n > 0)).toBe(true);

        expect(await maxResults('')).toBe(await count((q) => q));
        expect(await maxResults("state eq 'active'")).toBe(await count((q) => q.where('state', '=', 'active')));
        expect(await maxResults("state in ('pending', 'active', 'pending')")).toBe(await count((q) => q));
        for (const tag of TAGS) expect(await maxResults(`tags eq '${tag}'`), tag).toBe(await count(tagged(tag)));

        const { body: tags } = await call(server, 'GET', '/contacts/contacts-tags', { key: server.a.key });
        const scannedTags = await db
          .selectFrom('contact_tags')
          .select(['tag as name', (eb) => eb.fn.countAll<number>().as('count')])
          .where('workspace_id', '=', server.a.id)
          .groupBy('tag')
          .orderBy('tag')
          .execute();
        const expected = scannedTags.map((tag) => ({ name: tag.name, count: Number(tag.count) }));
        expect(tags).toEqual(expected);

        const { body: stats } = await call(server, 'GET', '/stats', { key: server.a.key });
        expect(stats.contacts.total).toBe(await count((q) => q));
        expect(stats.contacts.byState).toEqual({ pending: await count((q) => q.where('state', '=', 'pending')), active: await count((q) => q.where('state', '=', 'active')) });
        expect(stats.contacts.topTags).toEqual([...expected].sort((a, b) => b.count - a.count).slice(0, 20));

        // A tag filter's figures (issue 35: states kept per tag, tags from the tag rows alone) against a scan.
        for (const tag of TAGS) {
          const { status, body: figures } = await call(server, 'GET', `/contacts/stats${query({ $filter: `tags eq '${tag}'` })}`, { key: server.a.key });
          expect(status).toBe(200);
          const carrying = tagged(tag);
          const { rows: together } = await sql<{ name: string; count: number | string }>`
            select t2.tag as name, count(*) as count from contact_tags t1 join contact_tags t2 on t2.contact_id = t1.contact_id
            where t1.workspace_id = ${server.a.id} and t1.tag = ${tag} group by t2.tag`.execute(db);
          const topTags = together
            .map((row) => ({ name: row.name, count: Number(row.count) }))
            .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
            .slice(0, 20);
          expect(figures, tag).toMatchObject({
            total: await count(carrying),
            byState: { pending: await count((q) => carrying(q.where('state', '=', 'pending'))), active: await count((q) => carrying(q.where('state', '=', 'active'))) },
            topTags,
          });
        }
      }),
      { numRuns: 25, seed: 40 },
    );
  }, 180_000);

  it('stay exact under concurrent writes to one workspace, none answered 500 (PostgreSQL: no deadlock between count rows)', async () => {
    const { key } = server.a;
    const ids = (await server.database.db.selectFrom('contacts').select('id').where('workspace_id', '=', server.a.id).limit(12).execute()).map((row) => row.id);
    const answers = await Promise.all([
      // Tags in opposite orders, creations, bulk edits and erasures all at once.
      ...Array.from({ length: 8 }, (_, i) => send(server, 'POST', '/contacts', { key, body: { email: `c${i}@example.com`, tags: i % 2 ? ['oslo', 'lead', 'vip'] : ['vip', 'lead', 'oslo'] } })),
      send(server, 'POST', '/contacts/batch', { key, body: { items: [{ email: 'b1@example.com', tags: ['lead', 'oslo'] }, { email: 'b2@example.com', tags: ['oslo', 'lead'] }] } }),
      send(server, 'POST', '/contacts/tags', { key, body: { filter: "state eq 'pending'", tagsToAdd: ['lead'], tagsToRemove: ['vip'] } }),
      send(server, 'POST', '/contacts/tags', { key, body: { filter: "state eq 'active' or state eq 'pending'", tagsToAdd: ['vip'] } }),
      ...ids.slice(0, 6).map((id, i) => send(server, 'PATCH', `/contacts/${id}/tags`, { key, body: i % 2 ? { tagsToAdd: ['oslo', 'VIP'] } : { tagsToAdd: ['VIP', 'oslo'], tagsToRemove: ['lead'] } })),
      ...ids.slice(6, 9).map((id) => send(server, 'PATCH', `/contacts/${id}/notification-settings`, { headers: { authorization: server.a.basic }, body: { email: true } })),
      ...ids.slice(9, 12).map((id) => send(server, 'DELETE', `/contacts/${id}`, { key })),
    ]);
    for (const answer of answers) expect(answer.status, answer.text).toBeLessThan(500);
    const { kept, scanned } = await keptAndScanned();
    expect(kept).toEqual(scanned);
  }, 60_000);

  it('are exact after the benchmarks’ bulk seeding (bench/seed-contacts.ts), which loads without the triggers on SQLite', async () => {
    const target = await createMigratedTestDatabase(server.dir, 'seeded');
    let database = await openMigratedDatabase(target.url);
    try {
      const organization = await createOrganization(database.db, 'Seeded');
      const workspace = await createWorkspace(database.db, { organizationId: organization.id, name: 'Seeded' });
      await database.close();
      if (TEST_DATABASE === 'postgres') await seedContactsPostgres(target.url, workspace.id, 700);
      else seedContacts(target.url, workspace.id, 700);
      database = await openMigratedDatabase(target.url);
      const { kept, scanned } = await keptAndScanned(database.db);
      expect(Object.keys(kept).length).toBeGreaterThan(3);
      expect(kept).toEqual(scanned);
    } finally {
      await database.close();
      await target.drop();
    }
  }, 60_000);
});
