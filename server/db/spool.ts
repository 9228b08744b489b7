/**
 * A long SQLite read let go of its snapshot (issue 37; docs/deploy.md, "The WAL under long exports").
 *
 * An export is read at its client's pace: 1,000,000 contacts as xlsx take half a minute on a quiet machine and
 * minutes under load or on a slow link. A read transaction that long keeps SQLite's WAL from starting over (every
 * frame since the reader's snapshot must stay), so under steady writes and back-to-back exports the WAL grew by
 * gigabytes (stop 48's soak: 5 MB/s). `spool` ends such a read early: it reads the rest of the rows ahead, as fast
 * as the event loop allows, into a private temporary database, lets the reader go, and hands the rows out from
 * there at the consumer's pace. The rows are those of the reader's snapshot, in its order, so an export stays one
 * consistent picture. The temporary database is SQLite's anonymous one (an empty file name): a file in SQLite's
 * temporary directory (`SQLITE_TMPDIR`, else `TMPDIR`, else /var/tmp or /tmp) that is deleted when it closes,
 * with a 2 MiB page cache, so memory stays flat whatever the export's size.
 */
import { deserialize, serialize } from 'node:v8';
import SQLite from 'better-sqlite3';
import { yieldToOthers } from './timed-chunks';

/**
 * How long (ms) an export is served straight from its snapshot before the rest is spooled. Spooling costs about
 * 5 µs a row of export columns (serializing, writing and reading back: 1,000,000 rows read in 6.4 to 7.5 s straight,
 * 11.4 to 13.2 s spooled), so an export that ends within this (a CSV of 1,000,000 contacts on a quiet machine, 12 to 14 s)
 * pays nothing, and one held longer (an xlsx, a slow client, a loaded machine) lets its snapshot go after 15 s.
 */
export const SPOOL_AFTER_MS = 15_000;

/**
 * How long (ms) the read-ahead keeps the event loop per turn: chunks of 1,000 rows (about 5 ms each) until this has
 * passed. One chunk a turn took three minutes to spool three exports of 1,000,000 contacts under the soak's load (a
 * turn of the loop is tens of ms there), and the WAL grew all that while (to 800 MB).
 */
export const FILL_TURN_MS = 15;

/** Up to `count` rows of `rows`; fewer only at the end. */
export function take(rows: Iterator<unknown[]>, count: number): unknown[][] {
  const chunk: unknown[][] = [];
  while (chunk.length < count) {
    const next = rows.next();
    if (next.done) break;
    chunk.push(next.value);
  }
  return chunk;
}

/**
 * `head` (chunks already read and mapped), then the rest of `rows` (an open raw iterator), `chunkSize` rows at a time,
 * each chunk handed out as `map(chunk)`, in order. The rest is read ahead into a temporary database in chunks of
 * `chunkSize` (as many as fit in FILL_TURN_MS per event-loop turn), each mapped as it is read: a chunk mapped to a
 * string is stored as that text, anything else as a V8 serialization (which costs more: a CSV export spools its
 * records' text, not its rows). Once `rows` is exhausted (or the consumer stops, or reading fails) `release` is called,
 * which must end the read (return the iterator, close its connection) and may be called more than once. A read error
 * (or `map`'s) is thrown to the consumer after the chunks before it. Stopping the iteration early stops the read-ahead
 * and deletes the file.
 */
export async function* spool<T>(rows: Iterator<unknown[]>, chunkSize: number, release: () => void, map: (rows: unknown[][]) => T, head: T[] = []): AsyncGenerator<T> {
  const file = new SQLite('');
  let stopped = false;
  let filling: Promise<void> = Promise.resolve();
  try {
    file.pragma('journal_mode = OFF');
    file.pragma('synchronous = OFF');
    file.pragma('cache_size = -2048');
    // One row per chunk (rowid 1, 2, ...): its text, or its rows serialized as V8 values (a BLOB). A row of the spool
    // per row read doubled the read's cost (6.4 s more for 1,000,000 contacts' export columns).
    file.exec('create table spool (chunk not null)');
    const insert = file.prepare('insert into spool (chunk) values (?)');
    const read = file.prepare('select chunk from spool where rowid = ?').pluck();
    let written = 0;
    let filled = false;
    let failure: { error: unknown } | null = null;
    let wake: (() => void) | null = null;
    const notify = () => {
      wake?.();
      wake = null;
    };
    filling = (async () => {
      try {
        for (let turnEnds = performance.now() + FILL_TURN_MS; !stopped; ) {
          const chunk = take(rows, chunkSize);
          if (chunk.length) {
            const mapped = map(chunk);
            insert.run(typeof mapped === 'string' ? mapped : serialize(mapped));
            written++;
          }
          notify();
          if (chunk.length < chunkSize) break;
          if (performance.now() >= turnEnds) {
            await yieldToOthers();
            turnEnds = performance.now() + FILL_TURN_MS;
          }
        }
      } catch (error) {
        failure = { error };
      } finally {
        release();
        filled = true;
        notify();
      }
    })();
    yield* head;
    for (let handed = 0; ; ) {
      if (handed < written) {
        handed++;
        const stored = read.get(handed) as string | Buffer;
        yield (typeof stored === 'string' ? stored : deserialize(stored)) as T;
      } else if (failure) throw (failure as { error: unknown }).error;
      else if (filled) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    stopped = true;
    await filling;
    release();
    file.close();
  }
}
