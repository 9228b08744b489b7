/**
 * The contact search index's upkeep on SQLite (server/db/search-upkeep.ts): when it merges, that a merge leaves one
 * segment and the same search answers, that erasure still erases after it, and that the scheduler runs it. On a real
 * migrated SQLite file. SQLite only: PostgreSQL has no such index.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contactCreateSchema } from '../../src/api/contacts';
import { openMigratedDatabase } from '../database';
import { ActivityStore } from '../db/activity';
import type { ServiceDatabase } from '../db/connection';
import { ContactStore } from '../db/contacts';
import { PostStore } from '../db/posts';
import { SearchIndexUpkeep, needsMerge, searchLeafPages, searchSegments } from '../db/search-upkeep';
import { createOrganization, createWorkspace } from '../db/workspaces';
import { startScheduler } from '../scheduler';
import { TEST_DATABASE } from './test-database';

const CITIES = ['Oslo', 'Bergen', 'Trondheim', 'Stavanger', 'Tromsø'];

describe('needsMerge', () => {
  it('merges when the other segments hold a quarter of the largest or more, above the smallest size worth it', () => {
    expect(needsMerge([], 0)).toBe(false);
    expect(needsMerge([5000])).toBe(false);
    expect(needsMerge([5000, 1000, 249])).toBe(false);
    expect(needsMerge([5000, 1000, 250])).toBe(true);
    expect(needsMerge([6709, 4940, 4916, 4916, 4909, 3974, 2066, 2050, 2047, 1169, 634, 631, 630, 628, 175, 108])).toBe(true);
    expect(needsMerge([400, 300, 200])).toBe(false);
    expect(needsMerge([400, 300, 200], 0)).toBe(true);
  });
});

describe.skipIf(TEST_DATABASE !== 'sqlite')('merging the SQLite contact search index', () => {
  let dir: string;
  let file: string;
  let database: ServiceDatabase;
  let contacts: ContactStore;
  let workspaceId: string;
  const search = async (text: string) =>
    (await sql<{ rowid: number }>`select rowid from contacts_search where name like ${`%${text}%`} or city like ${`%${text}%`} order by rowid`.execute(database.db)).rows.map((row) => row.rowid);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wsa-search-upkeep-'));
    file = join(dir, 'service.sqlite');
    database = await openMigratedDatabase(file);
    contacts = new ContactStore(database.db, database.dialect);
    const organization = await createOrganization(database.db, 'Upkeep Org');
    workspaceId = (await createWorkspace(database.db, { organizationId: organization.id, name: 'Upkeep' })).id;
    // 40 transactions: FTS5 writes a segment for each and merges only some, so several are left.
    for (let round = 0; round < 40; round++) {
      const items = Array.from({ length: 25 }, (_, i) => contactCreateSchema.parse({ name: `Person ${round}-${i} Hansen`, email: `upkeep-${round}-${i}@example.com`, city: CITIES[(round + i) % CITIES.length] }));
      await contacts.createMany(workspaceId, items);
    }
  });
  /** `rounds` transactions of 25 contacts named `word` each: FTS5 writes a segment for each and merges only some. */
  const addSegments = async (rounds: number, word: string) => {
    for (let round = 0; round < rounds; round++) {
      const items = Array.from({ length: 25 }, (_, i) => contactCreateSchema.parse({ name: `${word} ${round}-${i}`, email: `${word.toLowerCase()}-${round}-${i}@example.com` }));
      await contacts.createMany(workspaceId, items);
    }
  };
  afterAll(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves one segment, with the same answers to a search, and a second run has nothing to do', async () => {
    const before = await searchSegments(database.db);
    expect(before.length).toBeGreaterThan(1);
    // Every leaf page, the doclist-only ones included, which the `_idx` rows do not count.
    expect(await searchLeafPages(database.db)).toBeGreaterThanOrEqual(before.reduce((sum, pages) => sum + pages, 0));
    const answers = { hansen: await search('hansen'), bergen: await search('ergen'), one: await search('son 3-1') };
    expect(answers.hansen).toHaveLength(1000);
    const upkeep = new SearchIndexUpkeep(database.db, 0);
    const run = await upkeep.mergeIfNeeded();
    expect(run).toMatchObject({ complete: true });
    expect(await searchSegments(database.db)).toHaveLength(1);
    expect({ hansen: await search('hansen'), bergen: await search('ergen'), one: await search('son 3-1') }).toEqual(answers);
    expect(await upkeep.mergeIfNeeded()).toBeNull();
    const integrity = sql`insert into contacts_search(contacts_search, rank) values ('integrity-check', 1)`;
    await expect(integrity.execute(database.db)).resolves.toBeDefined();
  });

  it('with a write between every two steps, completes the merge without the segments piling up (SQLITE_FULL at 2,000)', async () => {
    await addSegments(40, 'Steady');
    expect(needsMerge(await searchSegments(database.db), 0)).toBe(true);
    // Steps of at most 20 pages: a merge of this index takes several, and a create lands between each two.
    const upkeep = new SearchIndexUpkeep(database.db, 0, undefined, 20);
    let finished = false;
    const running = upkeep.run().finally(() => (finished = true));
    let most = 0;
    let writes = 0;
    for (; !finished && writes < 400; writes++) {
      await contacts.createMany(workspaceId, [contactCreateSchema.parse({ name: `Beside ${writes}`, email: `beside-${writes}@example.com` })]);
      most = Math.max(most, (await searchSegments(database.db)).length);
      // As requests arriving from the network would, the next write comes on a later turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Before: every negative step after a write began the merge anew, one more segment each time, and never ended.
    expect(finished).toBe(true);
    expect(await running).toMatchObject({ complete: true });
    expect(writes).toBeGreaterThan(5);
    expect(most).toBeLessThan(30);
    const integrity = sql`insert into contacts_search(contacts_search, rank) values ('integrity-check', 1)`;
    await expect(integrity.execute(database.db)).resolves.toBeDefined();
  });

  it('does not merge while the WAL is past its limit (readers holding old snapshots), and merges once it is not', async () => {
    // A quarter of the index again, in transactions of their own: segments worth a merge.
    await addSegments(30, 'Walled');
    const segments = await searchSegments(database.db);
    expect(needsMerge(segments, 0)).toBe(true);
    // A reader on another connection holds its snapshot while the service writes: the WAL cannot restart and grows.
    const reader = new SQLite(file, { readonly: true });
    try {
      reader.prepare('begin').run();
      reader.prepare('select count(*) from contacts').get();
      await sql`create table if not exists filler (body blob)`.execute(database.db);
      await sql`insert into filler (body) select randomblob(3900) from (with recursive n(i) as (select 1 union all select i + 1 from n where i < 600) select i from n)`.execute(database.db);
      const paused = new SearchIndexUpkeep(database.db, 0, 1024 * 1024);
      expect(await paused.mergeIfNeeded()).toBeNull();
      expect(await paused.run()).toMatchObject({ steps: 0, complete: false });
      expect(await searchSegments(database.db)).toEqual(segments);
    } finally {
      reader.prepare('commit').run();
      reader.close();
    }
    await sql`drop table filler`.execute(database.db);
    // The reader gone, a truncating checkpoint empties the WAL (as the worker's checkpoints and `journal_size_limit` do
    // in time); the merge then runs.
    await contacts.checkpoint();
    expect(await new SearchIndexUpkeep(database.db, 0, 1024 * 1024).mergeIfNeeded()).toMatchObject({ complete: true });
    expect(await searchSegments(database.db)).toHaveLength(1);
  });

  it('an erasure after the merge still leaves nothing of the person in the files', async () => {
    const [erased] = await contacts.createMany(workspaceId, [contactCreateSchema.parse({ name: 'Quintessa Upkeepdottir', email: 'quintessa.upkeep@example.com', city: 'Kautokeino' })]);
    if (!erased || !('id' in erased)) throw new Error('create refused');
    await new SearchIndexUpkeep(database.db, 0).run();
    await contacts.erase(workspaceId, erased.id);
    const bytes = Buffer.concat([readFileSync(file), readFileSync(`${file}-wal`, { flag: 'a+' })]);
    for (const value of ['Upkeepdottir', 'quintessa.upkeep', 'Kautokeino']) expect(bytes.includes(value), value).toBe(false);
  });

  it('the scheduler merges an index that needs it, and its stop waits for the merge under way', async () => {
    await addSegments(40, 'Later');
    expect(needsMerge(await searchSegments(database.db), 0)).toBe(true);
    const logged: string[] = [];
    const log = { info: (_: unknown, message: string) => logged.push(message), error: (_: unknown, message: string) => logged.push(message) } as unknown as FastifyBaseLogger;
    const stop = startScheduler({ posts: new PostStore(database.db, database.dialect), activity: new ActivityStore(database.db, database.dialect), retentionDays: 0, search: new SearchIndexUpkeep(database.db, 0) }, 20, log);
    try {
      await vi.waitFor(() => expect(logged.length).toBeGreaterThan(0), { timeout: 10_000, interval: 20 });
    } finally {
      await stop();
    }
    expect(logged).toEqual(['merged the contact search index']);
    expect(await searchSegments(database.db)).toHaveLength(1);
  });
});
