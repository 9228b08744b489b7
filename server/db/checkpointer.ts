/**
 * SQLite's WAL checkpoints off the event loop. A commit in WAL mode appends the transaction's pages to the `-wal` file;
 * a checkpoint copies them into the database file. By default SQLite runs that copy inside the commit that takes the
 * WAL past 1,000 pages, on the writing connection: on a database of 1,000,000 contacts that was 0.3 of the time of
 * `POST /contacts/batch` and of `POST /contacts/tags` (docs/benchmarks.md, "Checkpoints off the write path"), spent
 * on the event loop and under the write lock.
 *
 * Here one worker thread per process keeps a connection to every SQLite file the process has open and runs
 * `wal_checkpoint(PASSIVE)` on each every `CHECKPOINT_INTERVAL_MS`: a passive checkpoint never waits for and never
 * blocks a reader or a writer, and it runs on another core. The service's own connection keeps SQLite's automatic
 * checkpoint only as a bound (`SAFETY_PAGES`), reached when the worker cannot keep up (a reader holding an old snapshot
 * for minutes, an export, stops every checkpoint from reaching the WAL's end, as it did before).
 *
 * `holdCheckpoints(file)` registers a file and answers the function that releases it (a promise that settles once
 * the worker has closed its connection, so a caller can delete the file after it). Counted per file: two
 * connections of one process to one file share the worker's one connection. The worker never keeps the process alive.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the worker checkpoints each file, ms. */
export const CHECKPOINT_INTERVAL_MS = 100;

/** The automatic checkpoint of the service's own connection, kept as a bound on the WAL (pages of 4 KiB: 64 MiB). */
export const SAFETY_PAGES = 16_384;

/** The worker, as CommonJS source: given the better-sqlite3 module's path, it needs nothing of this bundle. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const files = new Map();
parentPort.on('message', ({ open, close, catchUp, id }) => {
  if (catchUp) {
    let done = false;
    try {
      const connection = files.get(catchUp);
      const [result] = connection ? connection.pragma('wal_checkpoint(PASSIVE)') : [];
      done = Boolean(result) && result.busy === 0 && result.log === result.checkpointed;
    } catch {}
    parentPort.postMessage({ caughtUp: id, done });
  }
  if (open) {
    try {
      const connection = new Database(open, { fileMustExist: true });
      connection.pragma('busy_timeout = 0');
      files.set(open, connection);
    } catch {}
  }
  if (close) {
    const connection = files.get(close);
    files.delete(close);
    try { connection && connection.close(); } catch {}
    parentPort.postMessage({ closed: close });
  }
});
setInterval(() => {
  for (const connection of files.values()) {
    try { connection.pragma('wal_checkpoint(PASSIVE)'); } catch {}
  }
}, workerData.intervalMs);
`;

let worker: Worker | null = null;
const holders = new Map<string, number>();
const closing = new Map<string, (() => void)[]>();
/** `checkpointCaughtUp` calls waiting for the worker's answer, by id. */
const catchingUp = new Map<number, (done: boolean) => void>();
let lastCatchUp = 0;

/** Lets the process exit around `running` again once no close nor catch-up awaits its answer. */
function unrefWhenIdle(running: Worker): void {
  if (!closing.size && !catchingUp.size) running.unref();
}

function checkpointWorker(): Worker {
  if (worker) return worker;
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const started = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, intervalMs: CHECKPOINT_INTERVAL_MS } });
  started.on('message', ({ closed, caughtUp, done }: { closed?: string; caughtUp?: number; done?: boolean }) => {
    if (caughtUp !== undefined) {
      catchingUp.get(caughtUp)?.(done === true);
      catchingUp.delete(caughtUp);
    }
    if (closed) {
      const waiting = closing.get(closed) ?? [];
      closing.delete(closed);
      for (const finish of waiting) finish();
    }
    unrefWhenIdle(started);
  });
  // A worker that fails (it should not: every checkpoint's error is caught) leaves the bound of SAFETY_PAGES to the
  // service's connection; everyone waiting for a close is let go, and the next file registered starts a new worker.
  const lost = () => {
    if (worker === started) worker = null;
    holders.clear();
    for (const waiting of closing.values()) for (const done of waiting) done();
    closing.clear();
    for (const answer of catchingUp.values()) answer(false);
    catchingUp.clear();
  };
  started.on('error', lost);
  started.on('exit', lost);
  // After the listeners: attaching a 'message' listener refs the worker again.
  started.unref();
  worker = started;
  return started;
}

/**
 * Checkpoints `file` (an absolute path of an SQLite database in WAL mode) from the worker until the answered function
 * is called; that function resolves once the worker's connection to `file` is closed.
 */
export function holdCheckpoints(file: string): () => Promise<void> {
  const running = checkpointWorker();
  const count = holders.get(file) ?? 0;
  holders.set(file, count + 1);
  if (count === 0) running.postMessage({ open: file });
  let released = false;
  return () => {
    if (released) return Promise.resolve();
    released = true;
    const left = (holders.get(file) ?? 1) - 1;
    if (left > 0) {
      holders.set(file, left);
      return Promise.resolve();
    }
    holders.delete(file);
    if (worker !== running) return Promise.resolve();
    return new Promise<void>((done) => {
      // Referenced while a close is awaited, so that the answer can arrive in a process with nothing else to do.
      running.ref();
      closing.set(file, [...(closing.get(file) ?? []), done]);
      running.postMessage({ close: file });
    });
  };
}

/**
 * Asks the worker to checkpoint `file` now, off the event loop; resolves true when every frame of its WAL is then in
 * the database file, so that the next write starts the WAL over instead of growing it. False when it is not (a reader
 * holds an older snapshot, a write came in meanwhile), when `file` is not held, or when no answer came within
 * `timeoutMs` (1,000).
 *
 * What it is for: a long job written in chunks (retention, `POST /contacts/tags`) awaits it between its chunks. Writes
 * back to back never leave the worker a moment in which its copy reaches the WAL's end, so the WAL grew until
 * `SAFETY_PAGES` made a commit run SQLite's own checkpoint on the writing connection, 117 to 156 ms of that commit
 * while another writer waited (docs/benchmarks.md, "A merged seed, and a batch's entries read by their index").
 */
export function checkpointCaughtUp(file: string, timeoutMs = 1000): Promise<boolean> {
  const running = worker;
  if (!running || !holders.has(file)) return Promise.resolve(false);
  const id = ++lastCatchUp;
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => {
      catchingUp.delete(id);
      // A worker that never answers must not keep the process alive (the answer would have let it go).
      unrefWhenIdle(running);
      resolve(false);
    }, timeoutMs);
    catchingUp.set(id, (done) => {
      clearTimeout(timer);
      resolve(done);
    });
    // Referenced while an answer is awaited, as for a close.
    running.ref();
    running.postMessage({ catchUp: file, id });
  });
}
