/**
 * A long read let go of its snapshot (server/db/spool.ts, issue 37): an SQLite read still being consumed after
 * `spoolAfterMs` is read to its end into a temporary file, so the WAL can start over while the consumer is still
 * reading, and the consumer still gets every row of the snapshot it began with, in order. Against the real
 * `openDatabase` on a temporary file. SQLite only (PostgreSQL's cursor has no WAL to hold back).
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ServiceDatabase, openDatabase } from '../db/connection';
import { TEST_DATABASE } from './test-database';
import { type ExportFormat, writeContactsExport } from '../export/contacts-export';
import { readZipEntryText } from '../../bench/xlsx-rows';

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

  const direct = () => other.prepare(query.sql).raw().all(...query.parameters) as unknown[][];
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

  it('with `map`, hands out each chunk mapped once, in order, a string spooled as its text', async () => {
    const line = (row: unknown[]) => `${row[0]}|${row[1]}|${row[2] === null ? 'null' : Buffer.from(row[2] as Buffer).toString('hex')}\n`;
    const expected = direct().map(line).join('');
    let calls = 0;
    const text = (rows: unknown[][]) => {
      calls++;
      return rows.map(line).join('');
    };
    let received = '';
    for await (const chunk of database.streamRows(query, { chunkSize: 500, spoolAfterMs: 0, map: text })) {
      expect(typeof chunk).toBe('string');
      received += chunk;
    }
    expect(received).toBe(expected);
    expect(calls).toBe(ROWS / 500);
    // Not a string: spooled as V8 values, blobs and nulls as they were.
    const pairs: unknown[][] = [];
    for await (const chunk of database.streamRows(query, { chunkSize: 700, spoolAfterMs: 0, map: (rows) => rows.map((row) => [row[0], row[2]]) })) pairs.push(...chunk);
    expect(pairs).toEqual(direct().map((row) => [row[0], row[2]]));
    // A map that throws ends the read with its error, after the chunks before it.
    let handed = 0;
    const failing = database.streamRows(query, {
      chunkSize: 500,
      spoolAfterMs: 0,
      map: (rows) => {
        if (++handed === 3) throw new Error('map failed');
        return rows.length;
      },
    });
    const got: unknown[] = [];
    await expect(
      (async () => {
        for await (const chunk of failing) got.push(chunk);
      })(),
    ).rejects.toThrow('map failed');
    expect(got).toEqual([500, 500]);
    expect(truncate()[0].busy).toBe(0);
  });

  it('a spooled export writes the same CSV and sheet as one read straight (the writers spool their text)', async () => {
    const exported = async (format: ExportFormat, spoolAfterMs: number | undefined) => {
      const out = new PassThrough();
      const chunks: Buffer[] = [];
      out.on('data', (chunk: Buffer) => chunks.push(chunk));
      await writeContactsExport(format, (map) => database.streamRows(query, { chunkSize: 300, spoolAfterMs, map }), out, new AbortController().signal);
      const bytes = Buffer.concat(chunks);
      if (format === 'csv') return bytes.toString('utf8');
      writeFileSync(join(dir, 'book.xlsx'), bytes);
      return readZipEntryText(join(dir, 'book.xlsx'), 'xl/worksheets/sheet1.xml');
    };
    for (const format of ['csv', 'xlsx'] as const) {
      const straight = await exported(format, undefined);
      expect(straight.length).toBeGreaterThan(ROWS * 10);
      // Not toBe: a failure would print some megabytes of both.
      expect((await exported(format, 0)) === straight).toBe(true);
    }
    // The last row of the sheet is numbered after every row before it (and the header), across the chunks read ahead.
    const sheet = await exported('xlsx', 0);
    expect(sheet.includes(`<row r="${direct().length + 1}" `) && !sheet.includes(`<row r="${direct().length + 2}" `)).toBe(true);
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
