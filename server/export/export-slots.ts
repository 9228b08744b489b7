/**
 * How many spreadsheet exports one process runs at once, and the fair queue behind them (issue 12 point 10,
 * issue 21 point 2; the rule for clients: docs/exports.md).
 *
 * Each running export holds a database cursor or read connection and some MB of working memory (the xlsx writer
 * most), so one process runs at most `limit` (`EXPORT_CONCURRENCY`, default 3) at once. An export asked for
 * beyond that is not held open (a queued download would keep its connection with nothing to send): it answers
 * 503 at once, with the error body of docs/decisions.md section 3 and
 * - `Export-Ticket`: its place in the queue, a random id; the retry sends it back as the `Export-Ticket`
 *   request header to keep that place;
 * - `Export-Queue-Position`: 1 for the next export to run, 2 for the one after, ...;
 * - `Retry-After`: seconds until its turn, estimated from the exports ahead of it (the running ones and the
 *   waiting ones before it), each taken to last as long as recent exports did (`averageSeconds`).
 *
 * First come, first served: an export without a ticket runs at once only when a slot is free beyond those held
 * for the waiting tickets; otherwise it joins the end of the queue. A slot that frees is held for the ticket at
 * the head until it comes back. A ticket lapses when its holder does not come back within its `Retry-After` plus
 * TICKET_GRACE_SECONDS (each retry renews it), so a client that gave up never blocks the queue for long; an
 * unknown or lapsed ticket, or one of another workspace, counts as no ticket (the export joins the end).
 *
 * The queue is this process's: several processes over one PostgreSQL database (docs/deploy.md) each run
 * `limit` exports and keep their own queue, so a ticket holds its place only on the process that gave it (a
 * load balancer without affinity may send the retry to another process, where it joins the end).
 */
import { randomUUID } from 'node:crypto';
import { HttpError } from '../errors';

/**
 * Default of `EXPORT_CONCURRENCY`: three exports at once (issue 21: a team of three exporting together is
 * never refused). Three xlsx exports of 1,000,000 contacts together stay within the 300 MB peak RSS budget
 * under the V8 flags `npm start` sets (docs/benchmarks.md, "Memory under load").
 */
export const DEFAULT_EXPORT_CONCURRENCY = 3;

/** Seconds a ticket outlives its `Retry-After` before it lapses (a client's timer, a slow network, a retry's own latency). */
export const TICKET_GRACE_SECONDS = 10;

/** How long an export is taken to last before any has finished (seconds). */
export const INITIAL_EXPORT_SECONDS = 10;

/** Waiting tickets at most; beyond it an export is refused with a 503 that carries no ticket. */
export const MAX_WAITING = 1000;

/** The longest `Retry-After` given (seconds): a client comes back at least this often to renew its ticket. */
export const MAX_RETRY_AFTER_SECONDS = 60;

type Ticket = { id: string; workspaceId: string; lapsesAt: number };

/** What the queue says of a waiting export (for the 503 and the tests). */
export type QueuePlace = { ticket: string; position: number; waiting: number; retryAfterSeconds: number };

/** Ends a running export: `finished` when it ran to its end (its duration then feeds the estimate). */
export type ExportRelease = (finished: boolean) => void;

export class ExportSlots {
  /** Start times (ms) of the running exports. */
  private readonly running = new Set<{ startedAt: number }>();
  private readonly waiting: Ticket[] = [];
  /** Moving average of finished exports' durations, seconds (`INITIAL_EXPORT_SECONDS` until one finishes). */
  private average = INITIAL_EXPORT_SECONDS;

  /** `limit`: exports run at once (at least 1); `clock`: the time in ms (tests pass their own). */
  constructor(
    readonly limit: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Seconds an export is taken to last in the `Retry-After` estimate (moving average of finished ones). */
  get averageSeconds(): number {
    return this.average;
  }

  /**
   * Admits an export of `workspaceId` whose request carried `ticket` (the `Export-Ticket` header, or
   * undefined): returns the function that ends it (call it once, when the export ends whichever way). Throws
   * HttpError 503 with `Retry-After`, `Export-Ticket` and `Export-Queue-Position` when it must wait (see the
   * module's comment).
   */
  take(workspaceId: string, ticket?: string): ExportRelease {
    const now = this.clock();
    this.dropLapsed(now);
    const mine = ticket === undefined ? -1 : this.waiting.findIndex((entry) => entry.id === ticket && entry.workspaceId === workspaceId);
    const free = this.limit - this.running.size;
    if (mine >= 0 ? mine < free : this.waiting.length < free) {
      if (mine >= 0) this.waiting.splice(mine, 1);
      return this.start(now);
    }
    if (mine < 0 && this.waiting.length >= MAX_WAITING) {
      throw new HttpError(503, `Too many exports waiting: ${this.waiting.length} are queued on this server; try again in ${MAX_RETRY_AFTER_SECONDS} seconds`, {
        'Retry-After': String(MAX_RETRY_AFTER_SECONDS),
      });
    }
    const index = mine >= 0 ? mine : this.waiting.push({ id: randomUUID(), workspaceId, lapsesAt: 0 }) - 1;
    const entry = this.waiting[index]!;
    const place: QueuePlace = { ticket: entry.id, position: index + 1, waiting: this.waiting.length, retryAfterSeconds: this.estimate(index, now) };
    entry.lapsesAt = now + (place.retryAfterSeconds + TICKET_GRACE_SECONDS) * 1000;
    throw new HttpError(
      503,
      `Export queued: position ${place.position} of ${place.waiting} waiting; this server runs at most ${this.limit} exports at once. ` +
        `Try again in ${place.retryAfterSeconds} seconds with the header Export-Ticket: ${place.ticket} to keep your place`,
      { 'Retry-After': String(place.retryAfterSeconds), 'Export-Ticket': place.ticket, 'Export-Queue-Position': String(place.position) },
    );
  }

  /** The place of `ticket` without renewing it, or null (tests and diagnostics). */
  place(ticket: string): Omit<QueuePlace, 'retryAfterSeconds'> | null {
    this.dropLapsed(this.clock());
    const index = this.waiting.findIndex((entry) => entry.id === ticket);
    return index < 0 ? null : { ticket, position: index + 1, waiting: this.waiting.length };
  }

  /** Exports running now and tickets waiting now. */
  get counts(): { running: number; waiting: number } {
    this.dropLapsed(this.clock());
    return { running: this.running.size, waiting: this.waiting.length };
  }

  private start(now: number): ExportRelease {
    const run = { startedAt: now };
    this.running.add(run);
    return (finished) => {
      if (!this.running.delete(run)) return;
      if (finished) this.average = 0.7 * this.average + 0.3 * Math.max(0.1, (this.clock() - run.startedAt) / 1000);
    };
  }

  private dropLapsed(now: number) {
    for (let i = this.waiting.length - 1; i >= 0; i--) if (this.waiting[i]!.lapsesAt !== 0 && this.waiting[i]!.lapsesAt < now) this.waiting.splice(i, 1);
  }

  /**
   * Seconds until the waiting export at `index` can start: the slots free as the running exports reach the
   * average duration (at the earliest in 1 s) or at once when free; each export ahead in the queue takes the
   * earliest slot and holds it for the average duration; this one gets the next. At least 1, at most
   * MAX_RETRY_AFTER_SECONDS (it is asked again by then and told the rest).
   */
  private estimate(index: number, now: number): number {
    const averageMs = this.average * 1000;
    const slots = [...this.running].map((run) => Math.max(now + 1000, run.startedAt + averageMs));
    while (slots.length < this.limit) slots.push(now);
    for (let ahead = 0; ahead < index; ahead++) {
      slots.sort((a, b) => a - b);
      slots[0] = slots[0]! + averageMs;
    }
    const turn = Math.min(...slots);
    return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil((turn - now) / 1000)));
  }
}
