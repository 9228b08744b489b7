/**
 * A long read let go of its snapshot (server/db/spool.ts, issue 37): an SQLite read still being consumed after
 * `spoolAfterMs` is read to its end into a temporary file, so the WAL can start over while the consumer is still
 * reading, and the consumer still gets every row of the snapshot it began with, in order. Against the real
 * `openDatabase` on a temporary file. SQLite only (PostgreSQL's cursor has no WAL to hold back).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ServiceDatabase, openDatabase } from '../db/connection';
import { TEST_DATABASE } from './test-database';

const ROWS = 20_000;
const query = CompiledQuery.raw('select n, label, payload from numbers where n > ? order by n desc', [0]);

describe.skipIf(TEST_DATABASE !== 'sqlite')('a long read spooled to a temporary file', () => {
  let dir: string;
  let file: string;
  let database: ServiceDatabase;
  /**
   * A connection of the test's own, for checkpoints (as another process would run them), with no busy timeout: a
   * checkpoint waiting for a reader would hold this thread, and with it the read-ahead it waits for.
   */
  let other: SQLite.Database;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wsa-spool-'));
    file = join(dir, 'service.sqlite');
    database = openDatabase(file);
    await sql`create table numbers (n integer primary key, label text, payload blob)`.execute(database.db);
    await sql`insert into numbers (n, label, payload) select i, 'n' || i, case when i % 7 = 0 then null else randomblob(i % 50) end from (with recursive s(i) as (select 1 union all select i + 1 from s where i < ${ROWS}) select i from s)`.execute(
      database.db,
    );
    other = new SQLite(file, { timeout: 0 });
  });
  afterAll(async () => {
    other.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const direct = () => other.prepare(query.sql).raw().all(...query.parameters);
  const truncate = () => other.pragma('wal_checkpoint(TRUNCATE)') as [{ busy: number }];

  it('lets the WAL start over while the consumer is still reading, and hands out the snapshot it began with', async () => {
    const expected = direct();
    const rows = database.streamRows(query, { chunkSize: 500, spoolAfterMs: 0 });
    const received: unknown[][] = [];
    const first = await rows.next();
    received.push(...(first.value as unknown[][]));
    // Writes after the read began: not in what it hands out.
    await sql`update numbers set label = 'changed' where n % 2 = 0`.execute(database.db);
    await sql`delete from numbers where n < 100`.execute(database.db);
    // The consumer has taken 500 of 20,000 rows; the read-ahead lets go of the snapshot, and a checkpoint can then
    // copy every frame and cut the WAL to nothing. A reader still on its snapshot makes TRUNCATE answer busy.
    await vi.waitFor(() => expect(truncate()[0].busy).toBe(0), { timeout: 10_000, interval: 20 });
    expect(statSync(`${file}-wal`).size).toBe(0);
    for await (const chunk of rows) {
      expect(chunk.length).toBeLessThanOrEqual(500);
      received.push(...chunk);
    }
    expect(received).toEqual(expected);
  });

  it('stopped early, ends the read; a read that ends within spoolAfterMs hands out the same rows', async () => {
    const rows = database.streamRows(query, { chunkSize: 100, spoolAfterMs: 0 });
    await rows.next();
    await rows.next();
    await rows.return(undefined);
    expect(truncate()[0].busy).toBe(0);
    const whole: unknown[][] = [];
    for await (const chunk of database.streamRows(query, { chunkSize: 3000, spoolAfterMs: 60_000 })) whole.push(...chunk);
    expect(whole).toEqual(direct());
  });
});
