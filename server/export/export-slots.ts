/**
 * How many spreadsheet exports one process runs at once (issue 12 point 10): each holds a database cursor or
 * read connection and tens of MB of working memory (the xlsx writer most), so without a bound a few clients
 * could push the process past its memory budget (300 MB peak RSS, bench:api). Beyond `limit` an export is
 * refused at once with 503 and `Retry-After` (decisions.md section 3 error body; the message says why), not
 * queued: a queued download would hold its connection open with nothing to send.
 */
import { HttpError } from '../errors';

/** Seconds a refused export is told to wait (`Retry-After`). */
export const EXPORT_RETRY_AFTER_SECONDS = 10;

/**
 * Default of `EXPORT_CONCURRENCY`: exports one process runs at once. One: an xlsx export of 1,000,000 contacts
 * takes a serving process from about 155 to 250 MB of RSS, and a second at the same time took it to 317 MB
 * (bench:api, docs/benchmarks.md), over the 300 MB budget. A small workspace's export lasts under a second, so
 * a second one rarely meets the first; a process with more memory can run more.
 */
export const DEFAULT_EXPORT_CONCURRENCY = 1;

export class ExportSlots {
  private running = 0;

  constructor(readonly limit: number) {}

  /**
   * Takes a slot; returns the function that gives it back (call it once, when the export ends whichever way).
   * Throws HttpError 503 with `Retry-After` when every slot is taken.
   */
  take(): () => void {
    if (this.running >= this.limit) {
      throw new HttpError(
        503,
        `Too many exports in progress: this server runs at most ${this.limit} at once; try again in ${EXPORT_RETRY_AFTER_SECONDS} seconds`,
        { 'Retry-After': String(EXPORT_RETRY_AFTER_SECONDS) },
      );
    }
    this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
    };
  }
}
