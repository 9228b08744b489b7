/**
 * Deep pages (issue 13): a page past the middle of a result is read from the other end in the reverse order, and
 * must be exactly the page the forward walk gives, for every order (nulls first ascending, last descending, `id`
 * as the tie-breaker: docs/decisions.md section 6) and filter. The forward walk is the one page of offset 0 holding the
 * whole result (at most 100 contacts), which is never reversed.
 */
import { faker } from '@faker-js/faker';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FilterNode } from '../../src/api/filter/ast';
import { type OrderByItem, parseOrderBy } from '../../src/api/filter/order-by';
import { parseFilter } from '../../src/api/filter/parse';
import { ContactStore, DEFAULT_CONTACT_ORDER } from '../db/contacts';
import type { Database } from '../db/schema';
import { fakeContacts, insertContacts } from '../db/seed';
import { type TestServer, call, query, startServer } from './harness';
import { TEST_DATABASE } from './test-database';

let server: TestServer;
const CONTACTS = 34;

beforeAll(async () => {
  server = await startServer();
  faker.seed(1313);
  const rows = fakeContacts(server.a.id, CONTACTS);
  // Ties on every sort field, so the id tie-breaker decides; nulls in every nullable sort field.
  rows.slice(0, 8).forEach((row, i) =>
    Object.assign(row, { created: '2026-03-01T00:00:00.000Z', updated: '2026-03-01T00:00:00.000Z', city: 'Oslo', name: 'Ann Same', email: `Same${i}@example.com`, email_key: `same${i}@example.com` }),
  );
  rows.slice(8, 14).forEach((row) => Object.assign(row, { name: null, city: null, email: null, email_key: null, phone: null }));
  rows.slice(14, 20).forEach((row) => Object.assign(row, { name: 'ann same', state: 'pending' }));
  rows.forEach((row, i) => {
    if (i % 3 === 0) row.tags = JSON.stringify(['vip']);
  });
  await insertContacts(server.database.db, rows);
  await insertContacts(server.database.db, fakeContacts(server.b.id, 10, { idPrefix: 7000 }));
});
afterAll(() => server.close());

/** Every sortable field, both directions, nullable ones among them; the even-numbered ones also with each filter. */
const ORDERS = ['', 'name desc', 'name asc', 'city desc, created asc', 'city asc', 'phone desc', 'email asc', 'updated asc', 'state asc, created desc', 'created asc'];
// The last two are an import's look-ups (issue 20): read through the key index, sorted without the order's index.
const FILTERS = [
  '', "state eq 'active'", "tags eq 'vip'", "name like 'an' or email like 'an'", "name like 'ann' or email like 'son' or city like 'osl'", "city like 'osl' and state eq 'active'",
  "email in ('SAME0@example.com', 'same1@example.com', 'same2@EXAMPLE.COM', 'same5@example.com', 'same7@example.com', 'nobody@example.com')",
  "state eq 'active' and email eq 'same3@example.com' or email in ('same4@example.com')",
];

const orderOf = (text: string): OrderByItem[] => (text ? parseOrderBy(text) : DEFAULT_CONTACT_ORDER);
const filterOf = (text: string): FilterNode | undefined => (text ? parseFilter(text) : undefined);

describe('every page equals the forward walk', () => {
  // A search the trigram indexes serve is also read each of the ways `searchDrive` chooses from (on PostgreSQL,
  // walking with a candidate set is not one of them).
  const stores = (db: Kysely<Database>) =>
    (TEST_DATABASE === 'sqlite' ? [undefined, 'scan' as const, 'order' as const, 'candidates' as const] : [undefined, 'scan' as const, 'candidates' as const]).map(
      (searchDrive) => new ContactStore(db, server.database.dialect, { searchDrive }),
    );

  it.each(FILTERS.map((filter) => [filter || 'no filter', filter]))('%s, in several orders, at every offset', async (_, filterText) => {
    for (const store of stores(server.database.db)) {
      for (const orderText of filterText ? ORDERS.filter((_, i) => i % 2 === 0) : ORDERS) {
        const base = { filter: filterOf(filterText), orderBy: orderOf(orderText) };
        const all = await store.list(server.a.id, { ...base, offset: 0, limit: 100 });
        expect(all.items.length).toBe(all.maxResults);
        // Pages of 3 at every offset: each contact three times, and the short pages at the end.
        for (let offset = 0; offset <= all.maxResults + 1; offset += 1) {
          const page = await store.list(server.a.id, { ...base, offset, limit: 3 });
          expect(page.maxResults).toBe(all.maxResults);
          expect(page.items, `${filterText} | ${orderText} | ${offset}`).toEqual(all.items.slice(offset, offset + 3));
        }
      }
    }
  }, 90_000); // hundreds of queries per filter: a minute on a busy machine with PostgreSQL

  it('reads a page past the middle in the reverse order (the id tie-breaker descending), and one before it forward', async () => {
    const statements: string[] = [];
    const db = server.database.db.withPlugin({
      transformQuery: (args) => {
        statements.push(server.database.db.getExecutor().compileQuery(args.node, args.queryId).sql);
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const store = new ContactStore(db, server.database.dialect);
    await store.list(server.a.id, { orderBy: DEFAULT_CONTACT_ORDER, offset: CONTACTS - 5, limit: 3 });
    expect(statements.join('\n')).toMatch(/"created" asc, "contacts"\."id" desc/);
    statements.length = 0;
    await store.list(server.a.id, { orderBy: DEFAULT_CONTACT_ORDER, offset: 5, limit: 3 });
    expect(statements.join('\n')).not.toMatch(/"id" desc/);
  });

  it('answers the last pages through the API as the forward walk has them', async () => {
    const get = async (params: Record<string, string | number>) => {
      const response = await call(server, 'GET', `/contacts${query(params)}`, { key: server.a.key });
      expect(response.status, response.text).toBe(200);
      return response.body as { items: { id: string }[]; meta: { maxResults: number } };
    };
    for (const $orderBy of ['name asc', 'city desc, created asc']) {
      const all = await get({ $orderBy, $limit: 100 });
      expect(all.items).toHaveLength(CONTACTS);
      for (const $offset of [CONTACTS - 7, CONTACTS - 3, CONTACTS - 1, CONTACTS]) {
        const page = await get({ $orderBy, $offset, $limit: 5 });
        expect(page.items.map((c) => c.id)).toEqual(all.items.slice($offset, $offset + 5).map((c) => c.id));
        expect(page.meta.maxResults).toBe(CONTACTS);
      }
    }
  });
});
