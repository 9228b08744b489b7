/**
 * Deep pages read from anchors (issue 39 point 1, server/db/deep-pages.ts): on random filters, orders, offsets
 * and page sizes, with contact writes (creations with ties and nulls, tag edits, erasures) interleaved, every page
 * a store reading pages 3 or more rows deep from anchors gives equals the page of a store reading every page with a
 * plain OFFSET (`anchorsFrom: 0`, the reference checked by deep-pages.test.ts), byte for byte, and so does its total.
 */
import { faker } from '@faker-js/faker';
import fc from 'fast-check';
import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OrderByItem, parseOrderBy } from '../../src/api/filter/order-by';
import { parseFilter } from '../../src/api/filter/parse';
import { ContactStore, DEFAULT_CONTACT_ORDER } from '../db/contacts';
import { fakeContacts, insertContacts } from '../db/seed';
import { type TestServer, startServer } from './harness';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  faker.seed(3939);
  const rows = fakeContacts(server.a.id, 60);
  rows.slice(0, 10).forEach((row, i) => Object.assign(row, { created: '2026-03-01T00:00:00.000Z', updated: '2026-03-01T00:00:00.000Z', city: 'Oslo', name: 'Ann Same', email: `same${i}@example.com`, email_key: `same${i}@example.com` }));
  rows.slice(10, 18).forEach((row) => Object.assign(row, { name: null, city: null, email: null, email_key: null, phone: null }));
  rows.slice(18, 26).forEach((row) => Object.assign(row, { name: 'ann same', state: 'pending' }));
  rows.forEach((row, i) => {
    if (i % 3 === 0) row.tags = JSON.stringify(['vip']);
  });
  await insertContacts(server.database.db, rows);
  await insertContacts(server.database.db, fakeContacts(server.b.id, 10, { idPrefix: 7000 }));
});
afterAll(() => server.close());

const ORDERS = ['', 'name desc', 'name asc', 'city desc, created asc', 'city asc', 'phone desc', 'email asc', 'updated asc', 'state asc, created desc', 'created asc'];
const FILTERS = ['', "state eq 'active'", "tags eq 'vip'", "state eq 'pending' or city eq 'Oslo'", "not (tags eq 'vip')"];
const orderOf = (text: string): OrderByItem[] => (text ? parseOrderBy(text) : DEFAULT_CONTACT_ORDER);

type Write = { kind: 'create'; name: string | null; city: string | null; vip: boolean } | { kind: 'tag'; index: number } | { kind: 'erase'; index: number } | null;

const write: fc.Arbitrary<Write> = fc.oneof(
  fc.constant(null),
  fc.record({ kind: fc.constant('create' as const), name: fc.constantFrom(null, 'Ann Same', 'bo', 'Zed'), city: fc.constantFrom(null, 'Oslo', 'Bergen'), vip: fc.boolean() }),
  fc.record({ kind: fc.constant('tag' as const), index: fc.nat(200) }),
  fc.record({ kind: fc.constant('erase' as const), index: fc.nat(200) }),
);

describe('a deep page read from anchors', () => {
  it('equals the plain OFFSET page on random filters, orders, offsets and interleaved writes', async () => {
    const anchored = new ContactStore(server.database.db, server.database.dialect, { anchorsFrom: 3 });
    const plain = new ContactStore(server.database.db, server.database.dialect, { anchorsFrom: 0 });
    const writer = new ContactStore(server.database.db, server.database.dialect);
    const ids = async () => (await server.database.db.selectFrom('contacts').select('id').where('workspace_id', '=', server.a.id).orderBy('id').execute()).map((row) => row.id);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...FILTERS), fc.constantFrom(...ORDERS), fc.array(fc.tuple(fc.nat(80), fc.integer({ min: 1, max: 7 }), write), { minLength: 1, maxLength: 12 }), async (filterText, orderText, steps) => {
        const base = { filter: filterText ? parseFilter(filterText) : undefined, orderBy: orderOf(orderText) };
        for (const [offset, limit, change] of steps) {
          if (change?.kind === 'create') await writer.create(server.a.id, { name: change.name ?? undefined, city: change.city ?? undefined, tags: change.vip ? ['vip'] : [] } as never);
          else if (change) {
            const all = await ids();
            const id = all[change.index % all.length];
            if (id && change.kind === 'tag') await writer.patchTags(server.a.id, id, ['vip'], []);
            else if (id && all.length > 20) await writer.erase(server.a.id, id);
          }
          const expected = await plain.list(server.a.id, { ...base, offset, limit });
          const actual = await anchored.list(server.a.id, { ...base, offset, limit });
          expect(actual, `${filterText} | ${orderText} | ${offset} | ${limit}`).toEqual(expected);
        }
      }),
      { numRuns: 60, seed: 39 },
    );
  }, 120_000);

  it('reads a deep page by seeking from its anchor', async () => {
    const { db, statements } = traced();
    const store = new ContactStore(db, server.database.dialect, { anchorsFrom: 3 });
    await store.list(server.a.id, { orderBy: DEFAULT_CONTACT_ORDER, offset: 7, limit: 2 });
    expect(statements.map((statement) => statement.sql).join('\n')).toMatch(/"contacts"\."created" <= /);
  });
});

/**
 * The database of the tests, as a Kysely whose every statement (compiled by the store or run by a query builder) is
 * pushed onto the returned list with its parameters.
 */
function traced() {
  const statements: { sql: string; parameters: readonly unknown[] }[] = [];
  const db = server.database.db.withoutPlugins();
  const executor = db.getExecutor();
  const executeQuery = executor.executeQuery.bind(executor) as (query: CompiledQuery) => Promise<unknown>;
  executor.executeQuery = ((query: CompiledQuery) => (statements.push({ sql: query.sql, parameters: query.parameters }), executeQuery(query))) as typeof executor.executeQuery;
  return { db, statements };
}

describe('the statements of a deep page', () => {
  it('reads the data version once for the count, the anchor and the page, and no more statements than a first page and its count', async () => {
    const { db, statements } = traced();
    const store = new ContactStore(db, server.database.dialect, { anchorsFrom: 3 });
    // The second workspace's 10 contacts, which the writes above leave alone: a page at 4 of 10 is read forward.
    const query = { orderBy: orderOf('name asc'), limit: 2 };
    const first = await store.list(server.b.id, { ...query, offset: 4 }); // lays the page's anchor down
    expect(statements).toHaveLength(4); // the data version, the count, the walk to the page's first row (its anchor), the page
    statements.length = 0;
    expect(await store.list(server.b.id, { ...query, offset: 4 })).toEqual(first);
    expect(statements.filter((statement) => statement.sql.includes('contacts_version'))).toHaveLength(1);
    expect(statements).toHaveLength(2); // the data version (the count and the anchor then come from memory) and the page
    // Read as a first page is: its own rows only, not the ids first and each row looked up again.
    expect(statements[1]!.sql).not.toMatch(/"contacts"\."id" in \(select/);
  });

  it("finds a new page's anchor from the nearest one before it, walking only the rows between", async () => {
    const { db, statements } = traced();
    const store = new ContactStore(db, server.database.dialect, { anchorsFrom: 3 });
    const plain = new ContactStore(server.database.db, server.database.dialect, { anchorsFrom: 0 });
    const query = { orderBy: orderOf('name desc'), limit: 1 };
    await store.list(server.b.id, { ...query, offset: 3 });
    statements.length = 0;
    // Both read forward (the page at 4 of 10 ends before the middle): the same key's anchors.
    expect(await store.list(server.b.id, { ...query, offset: 4 })).toEqual(await plain.list(server.b.id, { ...query, offset: 4 }));
    // The version, the walk from the anchor at 3 (an OFFSET of 1; from the start it would be 4), the page.
    expect(statements).toHaveLength(3);
    expect(statements[1]!.sql).toMatch(/ offset (\?|\$\d+)$/i);
    expect(statements[1]!.parameters.at(-1)).toBe(1);
  });
});
