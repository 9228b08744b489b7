/**
 * SQLite's checkpoints off the write path (server/db/checkpointer.ts): a commit that takes the WAL past SQLite's
 * default of 1,000 pages returns without copying anything into the database file (the copy was 0.3 of a batch's
 * time at 1,000,000 contacts), and the worker thread copies it soon after, so the WAL does not grow without bound.
 * Against the real `openDatabase` on a temporary file. SQLite only.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHECKPOINT_INTERVAL_MS, checkpointCaughtUp } from '../db/checkpointer';
import { type ServiceDatabase, openDatabase } from '../db/connection';
import { ContactStore } from '../db/contacts';
import { TEST_DATABASE } from './test-database';

/** Writes about `pages` pages of 4 KiB in one transaction of the service's connection. */
async function writePages(database: ServiceDatabase, pages: number) {
  await database.db.transaction().execute(async (trx) => {
    await sql`insert into filler (body) select randomblob(3900) from (with recursive n(i) as (select 1 union all select i + 1 from n where i < ${pages}) select i from n)`.execute(trx);
  });
}

describe.skipIf(TEST_DATABASE !== 'sqlite')('WAL checkpoints in the worker thread', () => {
  let dir: string;
  let file: string;
  let database: ServiceDatabase;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wsa-checkpoints-'));
    file = join(dir, 'service.sqlite');
    database = openDatabase(file);
    await sql`create table filler (id integer primary key, body blob)`.execute(database.db);
  });
  afterAll(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a commit of 2,000 pages leaves the database file as it was; the worker copies the pages in soon after', async () => {
    // A first write, checkpointed, so that the file's size is settled.
    await writePages(database, 100);
    await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThan(100 * 4096), { timeout: 5000, interval: 20 });
    const before = statSync(file).size;
    await writePages(database, 2000);
    // Read right after the commit: SQLite's own checkpoint (at 1,000 pages) would have grown the file within it.
    const right = statSync(file).size;
    expect(right).toBe(before);
    await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThanOrEqual(before + 2000 * 4096), { timeout: 20 * CHECKPOINT_INTERVAL_MS + 2000, interval: 20 });
  });

  it('keeps the WAL from growing: 12 commits of 1,000 pages a quarter of a second apart leave a WAL of under half of them', async () => {
    for (let i = 0; i < 12; i++) {
      await writePages(database, 1000);
      await new Promise((done) => setTimeout(done, 2.5 * CHECKPOINT_INTERVAL_MS));
    }
    const probe = new SQLite(file);
    try {
      // A passive checkpoint from outside answers [busy, frames in the WAL, frames checkpointed]: the worker's left
      // nothing to copy. And the WAL was restarted after the worker's checkpoints, not grown to 12,000 frames (with no
      // worker, the connection's own bound of SAFETY_PAGES would let it); how many commits one checkpoint spans depends
      // on the disk's speed, hence half.
      await vi.waitFor(
        () => {
          const [row] = probe.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
          expect(row?.busy).toBe(0);
          expect(row?.log).toBe(row?.checkpointed);
        },
        { timeout: 5000, interval: 20 },
      );
      expect(statSync(`${file}-wal`).size).toBeLessThan(6000 * 4096);
    } finally {
      probe.close();
    }
  });

  it('checkpointCaughtUp answers true once the worker has copied every frame, false for a file it does not hold', async () => {
    await writePages(database, 500);
    expect(await checkpointCaughtUp(file)).toBe(true);
    expect(await checkpointCaughtUp(join(dir, 'not-held.sqlite'))).toBe(false);
  });

  it('a job written in chunks back to back keeps the WAL short when it waits with betweenChunks (it grew to the bound without)', async () => {
    // 24 chunks of 1,000 pages, nothing between them but `betweenChunks`: the worker's own checkpoints never reach the
    // WAL's end between two writes, so without the wait for its copy the WAL grows to SAFETY_PAGES (16,384 frames) and
    // a commit runs SQLite's checkpoint. With it the WAL starts over every CATCH_UP_EVERY chunks.
    await writePages(database, 10);
    expect(await checkpointCaughtUp(file)).toBe(true);
    await writePages(database, 10); // starts the WAL over: its file keeps its size, its frames are new
    const walBefore = statSync(`${file}-wal`).size;
    for (let i = 0; i < 24; i++) {
      await writePages(database, 1000);
      await database.dialect.betweenChunks();
    }
    expect(statSync(`${file}-wal`).size).toBeLessThan(Math.max(walBefore, 12_000 * 4096));
  });

  it('close resolves after the worker let the file go, so the file can be removed at once', async () => {
    const other = openDatabase(join(dir, 'other.sqlite'));
    await sql`create table t (x)`.execute(other.db);
    await other.close();
    rmSync(join(dir, 'other.sqlite'));
    expect(() => statSync(join(dir, 'other.sqlite'))).toThrow();
  });
});

describe.skipIf(TEST_DATABASE !== 'sqlite')('an erasure checkpoint while the worker checkpoints', () => {
  it('waits its turn and empties the WAL, rather than answering busy and leaving stale frames', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wsa-checkpoint-turn-'));
    const file = join(dir, 'service.sqlite');
    const database = openDatabase(file);
    try {
      await sql`create table filler (id integer primary key, body blob)`.execute(database.db);
      const store = new ContactStore(database.db, database.dialect);
      // 12,000 pages (47 MiB, under the connection's own bound): the worker's passive checkpoint copies them for some
      // 40 ms. Asked at several delays after the commit, SQLite's truncation alone answered busy at once in about half
      // of them (the worker's checkpoint under way); each must empty the WAL all the same.
      for (const delay of [20, 40, 60, 80, 100, 120, 140, 160]) {
        await writePages(database, 12_000);
        await new Promise((done) => setTimeout(done, delay));
        expect(await store.checkpoint(), `${delay} ms after the commit`).toBe(true);
        expect(statSync(`${file}-wal`).size).toBe(0);
      }
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
    // 8 commits of 47 MiB and their checkpoints: 4 s on a quiet machine, 16.5 s with ten busy loops on its two cores,
    // over the default 20 s in a clean-clone run at a load of 12 (stop 58).
  }, 60_000);
});
