/**
 * Chunk sizes adapted by time, for the writes of docs/decisions.md section 12 that touch many contacts in one request
 * (`POST /contacts/batch`, `POST /contacts/tags`), a revert's runs of contact creates (section 11, db/revert.ts) and
 * the search index's merge steps (db/search-upkeep.ts): each chunk is one transaction, holding the database's write lock
 * (SQLite) or the workspace's row lock (PostgreSQL, `lockWorkspace`) while it runs, so its length is what another
 * writer may wait. The bound is 200 ms (issue 35, "Measure"); chunks aim at `targetMs` (50 ms by default),
 * well under it, whatever the machine's speed or load, instead of a fixed count that is too many on a loaded machine
 * and too few on a quiet one.
 */
export class TimedChunks {
  private size: number;
  /** The time an item took, averaged over the chunks so far (the last one weighing a third). */
  private perItemMs: number | null = null;

  /**
   * `first` items in the first chunk; then as many as fit in `targetMs` at the average time per item, at most twice the
   * last size (one fast chunk does not jump to `max`) and between `min` and `max`. Averaged, so that one chunk slowed
   * by something else (a collection, another process on the machine) does not shrink the next ones to a few items,
   * whose commits would then cost more than their writes.
   */
  constructor(
    first: number,
    private readonly targetMs = 50,
    private readonly min = 1,
    private readonly max = 2000,
  ) {
    this.size = Math.max(min, Math.min(max, first));
  }

  /** How many items the next chunk takes. */
  next(): number {
    return this.size;
  }

  /** Records that the last chunk wrote `count` items in `ms`, and sizes the next one from it. */
  record(count: number, ms: number): void {
    if (count <= 0) return;
    const last = Math.max(ms, 0.001) / count;
    this.perItemMs = this.perItemMs === null ? last : (2 * this.perItemMs + last) / 3;
    this.size = Math.max(this.min, Math.min(this.max, 2 * count, Math.floor(this.targetMs / this.perItemMs)));
  }
}

/** Lets the event loop serve what waits (another request's write) before the next chunk takes the lock again. */
export const yieldToOthers = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
