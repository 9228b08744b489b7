/**
 * Chunk sizes adapted by time, for the writes of docs/decisions.md section 12 that touch many contacts in one request
 * (`POST /contacts/batch`, `POST /contacts/tags`), a revert's runs of contact creates (section 11, db/revert.ts) and
 * the search index's merge steps (db/search-upkeep.ts): each chunk is one transaction, holding the database's write lock
 * (SQLite) or the workspace's row lock (PostgreSQL, `lockWorkspace`) while it runs, so its length is what another
 * writer may wait. The bound is 200 ms (issue 35, "Measure"); chunks aim at `targetMs` (50 ms by default),
 * well under it, whatever the machine's speed or load, instead of a fixed count that is too many on a loaded machine
 * and too few on a quiet one.
 */

/**
 * The fewest items a chunk takes unless the caller says otherwise: on a loaded machine (stop 58) a chunk of 20 contact
 * creates undone took no longer than one of 4 (20 to 50 ms, nearly all of it the fixed part), and even a slow item
 * (1 ms) leaves 20 well under the 200 ms another writer may wait.
 */
const MIN_ITEMS = 20;

/** How much a chunk's weight in the fit shrinks with each later chunk: the last few chunks decide. */
const DECAY = 0.8;

export class TimedChunks {
  private size: number;
  /**
   * The chunks so far as weighted sums for a least-squares fit of `ms = fixed + perItem * count` (each older chunk
   * weighing DECAY times the next): w, Σx, Σy, Σx², Σxy with x the count and y the ms.
   */
  private readonly sums = { w: 0, x: 0, y: 0, xx: 0, xy: 0 };
  /**
   * Whether the next chunk takes the whole fitted size (else 80% of it): chunks differ in size by turns, so that the fit
   * can tell the parts apart, and none is sized past the target.
   */
  private up = false;
  /** The time an item took counting the whole chunk's time, averaged (the last chunk weighing a third): before any fit. */
  private perItemMs: number | null = null;

  /**
   * `first` items in the first chunk; then as many as fit in `targetMs` by the fit of the chunks so far, at most twice
   * the last size (one fast chunk does not jump to `max`) and between `min` and `max`.
   *
   * A chunk's time is a fixed part (its transaction: begin, locks, commit, and on a loaded machine the waits for a
   * core between its statements) and a part per item. Sizing by the time per item alone (the whole chunk's time over
   * its items) took the fixed part for the items' cost: on a loaded machine a revert's chunks of 80 contact creates took
   * 38 ms and chunks of 8 took 35, so the chunks shrank to a few items, each paying the whole fixed part, and 2,000
   * creates took over 60 s instead of 1 (stop 58). So the two parts are fitted apart, and the items get the time the
   * fixed part leaves of the target, and at least half the target: where the fixed part alone is as long as the
   * target, smaller chunks would only pay it more often. Nor below `min` (MIN_ITEMS unless said): with a few items a
   * chunk, how long the items take is lost in the noise of the fixed part, and the fit could not see it.
   */
  constructor(
    first: number,
    private readonly targetMs = 50,
    private readonly min = MIN_ITEMS,
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
    ms = Math.max(ms, 0.001);
    const sums = this.sums;
    // A chunk that took twice what the fit foretold (and over the target), or half: the machine or the work changed
    // (another process took the cores or left them, the items got heavier or lighter), and the chunks before say
    // nothing of it.
    const before = this.fit();
    const foretold = before === null ? null : before.fixedMs + Math.max(before.perItemMs, 0) * count;
    const forget = foretold !== null && ((ms > this.targetMs && ms > 2 * foretold) || 2 * ms < foretold);
    for (const key of ['w', 'x', 'y', 'xx', 'xy'] as const) sums[key] = forget ? 0 : sums[key] * DECAY;
    if (forget) this.perItemMs = null;
    sums.w += 1;
    sums.x += count;
    sums.y += ms;
    sums.xx += count * count;
    sums.xy += count * ms;
    this.perItemMs = this.perItemMs === null ? ms / count : (2 * this.perItemMs + ms / count) / 3;
    const fit = this.fit();
    let size: number;
    if (!fit) size = this.targetMs / this.perItemMs;
    else if (fit.perItemMs <= 0) size = count; // the items' cost lost in the noise: the size stays, nudged as always
    else size = Math.max(this.targetMs - fit.fixedMs, this.targetMs / 2) / fit.perItemMs;
    this.up = !this.up;
    this.size = Math.max(this.min, Math.min(this.max, 2 * count, Math.floor(size * (this.up ? 1 : 0.8))));
  }

  /**
   * The least-squares line through the weighted chunks, or null while their sizes are too alike to tell the fixed part
   * from the items' (a spread under a tenth of their mean size). A negative fixed part (noise) is taken as none.
   */
  private fit(): { fixedMs: number; perItemMs: number } | null {
    const { w, x, y, xx, xy } = this.sums;
    const meanX = x / w;
    const varianceX = xx / w - meanX * meanX;
    if (w < 1.5 || varianceX < (0.1 * meanX) ** 2) return null;
    const perItemMs = (xy / w - meanX * (y / w)) / varianceX;
    const fixedMs = y / w - perItemMs * meanX;
    return fixedMs >= 0 ? { fixedMs, perItemMs } : { fixedMs: 0, perItemMs: xy / xx };
  }
}

/** Lets the event loop serve what waits (another request's write) before the next chunk takes the lock again. */
export const yieldToOthers = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
