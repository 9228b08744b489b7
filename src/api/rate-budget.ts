/**
 * The request budget of one API key (issue 19; docs/style.md "Requests are a budget"): the hosted service gives a key 60
 * requests a minute (docs/decisions.md section 4), shared by every tab and job of the console. Every request the typed
 * client sends passes `RateBudget.run`, which sends it, waits, or refuses it by its priority:
 *
 * - `person`: what the person waits for. Sent while the key has requests left; otherwise it waits for the window to
 *   refill (or a 429's `Retry-After` to pass), ahead of everything else.
 * - `job`: a background job's write or look-up. Sent only while more than the person's reserve is left
 *   (`reserve`, 20% of the limit by default) and no person's request is waiting; otherwise it waits.
 * - `speculative`: a prefetch, a facet count, an overview figure. Sent only while the budget is not low (more than
 *   twice the reserve left, nothing waiting, not throttled); otherwise refused at once with `BudgetSkippedError`,
 *   never queued behind the person.
 *
 * What is left is read from each answer's `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`
 * (reset as delta seconds, as our service and the IETF draft send it, or as epoch seconds when it is larger than
 * 1e9, as some services send it; the draft's unprefixed `RateLimit-*` names are read too), and estimated between
 * answers by counting what is sent. A service that sends no such headers is paced by its 429s alone: `Retry-After`
 * when it sends one, else a backoff of 1 s doubling to 60 s.
 *
 * Tabs share one budget through a `BroadcastChannel` named after the key: each tab announces what it sends and every
 * reading it gets, so every tab's estimate counts the others' requests. While the service's answers carry no limit
 * (ours with `RATE_LIMIT_PER_MINUTE=0`), there is nothing to count and the sends are not announced. Framework-free
 * (browser and Node 20, which both have `BroadcastChannel`).
 */

export { BudgetSkippedError, type RequestPriority, isBudgetSkipped } from './budget-skipped';
import { BudgetSkippedError, type RequestPriority } from './budget-skipped';

/** One answer's rate-limit headers: requests per window, left in it, and when it refills (epoch ms). */
export type RateLimitReading = { limit: number; remaining: number; resetAt: number };

/** What the meter shows. Times are epoch ms; `limit`, `remaining`, `resetAt` are null until an answer tells. */
export type BudgetState = {
  limit: number | null;
  remaining: number | null;
  resetAt: number | null;
  /** Until when a 429 asked us to wait (0 when it does not apply); `guessed` when the service gave no Retry-After. */
  throttledUntil: number;
  guessed: boolean;
  /** Requests waiting in this tab, by priority (speculative ones never wait). */
  waiting: { person: number; job: number };
  /** The person's reserve as a share of the limit (0..1). */
  reserve: number;
  /**
   * The window's length in ms as far as seen: the longest time to a reset any reading gave (a reading at a window's
   * start tells it whole), rounded up to a second; null until an answer tells. Job estimates sample by it (issue 34).
   */
  windowMs: number | null;
};

export type RateBudget = {
  /**
   * Sends `send()` when `priority` allows (see the module comment) and reads the answer's headers. Rejects with
   * `BudgetSkippedError` for a refused speculative request, with `signal`'s reason when it aborts while waiting,
   * and with whatever `send` rejects with. `ownLimit`: a 429 of this request is a limit of its own, not the key's
   * rate limit (`GET /events`: 5 open streams a key, docs/decisions.md section 13), so it holds nothing else back.
   */
  run(priority: RequestPriority, send: () => Promise<Response>, signal?: AbortSignal, ownLimit?: boolean): Promise<Response>;
  /** Whether a request of `priority` would be sent now without waiting. */
  allows(priority: RequestPriority): boolean;
  /** The current state (the same object until something changes, for `useSyncExternalStore`). */
  state(): BudgetState;
  subscribe(listener: () => void): () => void;
  /** Sets the person's reserve, a share of the limit from 0 to 0.9. */
  setReserve(share: number): void;
  /** Closes the channel and forgets waiting timers (waiting requests stay pending). */
  close(): void;
};

export type RateBudgetOptions = {
  /** The BroadcastChannel name shared by the tabs using this key; none for a budget of this tab only. */
  channelName?: string;
  /** The person's reserve, a share of the limit (default 0.2). */
  reserve?: number;
  /**
   * A reading to start from: what a budget that this one takes over from knew last (the import's next look-up
   * worker, src/features/contacts/import/lookup-workers.ts), so its first requests are paced as the last ones were
   * instead of going out before any answer or other tab has told it the window.
   */
  initial?: RateLimitReading;
  now?: () => number;
};

/** Default share of the limit kept for the person while jobs run (issue 19, point 4). */
export const DEFAULT_RESERVE = 0.2;
const MAX_BACKOFF_MS = 60_000;

function headerNumber(headers: Headers, name: string): number | null {
  const text = headers.get(`x-ratelimit-${name}`) ?? headers.get(`ratelimit-${name}`);
  if (text === null || text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? value : null;
}

/**
 * The rate-limit reading of an answer's headers, or null when it has no limit and remaining. A missing reset is
 * taken as a minute from `now`.
 */
export function readRateLimit(headers: Headers, now = Date.now()): RateLimitReading | null {
  const limit = headerNumber(headers, 'limit');
  const remaining = headerNumber(headers, 'remaining');
  if (limit === null || remaining === null || limit === 0) return null;
  const reset = headerNumber(headers, 'reset');
  const resetAt = reset === null ? now + 60_000 : reset > 1e9 ? reset * 1000 : now + reset * 1000;
  return { limit, remaining: Math.min(remaining, limit), resetAt };
}

/** Seconds from a 429's `Retry-After` (delta seconds or an HTTP date), or null. */
function retryAfterMs(headers: Headers, now: number): number | null {
  const value = headers.get('retry-after');
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

type Message = { t: 'spend' } | { t: 'read'; reading: RateLimitReading } | { t: 'throttle'; until: number; guessed: boolean } | { t: 'hello' };
type Waiter = { priority: 'person' | 'job'; go: () => void };

/** Creates a budget (see `RateBudget`); the tabs of one key share it through `options.channelName`. */
export function createRateBudget(options: RateBudgetOptions = {}): RateBudget {
  const now = options.now ?? Date.now;
  let reserve = options.reserve ?? DEFAULT_RESERVE;
  let limit: number | null = null;
  let remaining: number | null = null;
  let resetAt: number | null = null;
  let windowMs: number | null = null;
  // The last answer was a success without rate-limit headers: the service announces no limit, so no tab counts
  // requests and this tab's need not be announced (a job without a limit sends hundreds a second).
  let unannounced = false;
  let throttledUntil = 0;
  let guessed = false;
  let backoff = 0;
  const waiters: Waiter[] = [];
  const listeners = new Set<() => void>();
  let snapshot: BudgetState | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const channel = options.channelName && typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel(options.channelName) : null;

  const changed = () => {
    snapshot = null;
    for (const listener of listeners) listener();
  };

  /** Requests left now (the window refilled once `resetAt` has passed), or null when unknown. */
  const left = (): number | null => {
    if (limit !== null && resetAt !== null && now() >= resetAt) {
      remaining = limit;
      resetAt = null;
    }
    return remaining;
  };
  const reserved = () => (limit === null ? 0 : Math.ceil(limit * reserve));
  const personWaiting = () => waiters.some((waiter) => waiter.priority === 'person');

  /** 0 when `priority` may go now, else the epoch ms to look again. */
  function wait(priority: RequestPriority): number {
    const time = now();
    if (time < throttledUntil) return throttledUntil;
    const count = left();
    // Unknown, or spent since a refill no answer has dated yet: the service's next answer (or 429) will tell.
    if (count === null || (resetAt === null && priority === 'person')) return 0;
    const floor = priority === 'person' ? 0 : priority === 'job' ? reserved() : Math.max(1, 2 * reserved());
    if (count > floor && (priority === 'person' || !personWaiting())) return 0;
    return resetAt ?? time + 1000;
  }

  function spend(announce: boolean) {
    const count = left();
    if (announce && !unannounced) channel?.postMessage({ t: 'spend' } satisfies Message);
    // Nothing to show changes while the limit is unknown (a service without rate-limit headers): no new state,
    // so the meter and the pages that read the budget do not render again for every request (issue 20 point 6:
    // a job sends hundreds a second).
    if (count === null) return;
    remaining = Math.max(0, count - 1);
    changed();
  }

  function apply(reading: RateLimitReading) {
    const count = left();
    // A reset later than ours (by more than clock jitter) is a new window; within one window, the lowest count wins.
    if (resetAt === null || count === null || reading.resetAt > resetAt + 2000) {
      remaining = reading.remaining;
      resetAt = reading.resetAt;
    } else remaining = Math.min(count, reading.remaining);
    limit = reading.limit;
    const span = Math.ceil((reading.resetAt - now()) / 1000) * 1000;
    if (span > 0 && span > (windowMs ?? 0)) windowMs = span;
    changed();
    pump();
  }

  function throttle(until: number, isGuess: boolean) {
    if (until <= throttledUntil) return;
    throttledUntil = until;
    guessed = isGuess;
    if (limit !== null) {
      remaining = 0;
      resetAt = Math.max(resetAt ?? 0, until);
    }
    changed();
    pump();
  }

  function pump() {
    clearTimeout(timer);
    timer = undefined;
    let earliest = Infinity;
    waiters.sort((a, b) => (a.priority === b.priority ? 0 : a.priority === 'person' ? -1 : 1));
    for (let index = 0; index < waiters.length; ) {
      const waiter = waiters[index]!;
      const until = wait(waiter.priority);
      if (until === 0) {
        waiters.splice(index, 1);
        spend(true); // counted as it is admitted, so the next waiter sees one request less
        waiter.go();
        continue;
      }
      earliest = Math.min(earliest, until);
      index += 1;
    }
    // Refill at the window's reset (so the meter shows it) and wake whoever waits then.
    if (resetAt !== null) earliest = Math.min(earliest, resetAt);
    if (throttledUntil > now()) earliest = Math.min(earliest, throttledUntil);
    if (earliest !== Infinity) {
      timer = setTimeout(() => {
        changed();
        pump();
      }, Math.max(0, earliest - now()) + 50);
    }
  }

  function observe(response: Response) {
    const time = now();
    const reading = readRateLimit(response.headers, time);
    if (response.status === 429) {
      const after = retryAfterMs(response.headers, time);
      const ms = after ?? Math.min(MAX_BACKOFF_MS, 1000 * 2 ** backoff++);
      const until = time + ms;
      throttle(until, after === null);
      channel?.postMessage({ t: 'throttle', until, guessed: after === null } satisfies Message);
      return;
    }
    backoff = 0;
    if (throttledUntil && time >= throttledUntil) throttledUntil = 0;
    unannounced = !reading && response.ok;
    if (reading) {
      apply(reading);
      channel?.postMessage({ t: 'read', reading } satisfies Message);
    }
  }

  if (channel) {
    channel.onmessage = (event: MessageEvent<Message>) => {
      const message = event.data;
      if (message.t === 'spend') spend(false);
      else if (message.t === 'read') apply(message.reading);
      else if (message.t === 'throttle') throttle(message.until, message.guessed);
      else if (message.t === 'hello' && limit !== null && remaining !== null && resetAt !== null) {
        channel.postMessage({ t: 'read', reading: { limit, remaining, resetAt } } satisfies Message);
      }
    };
    channel.postMessage({ t: 'hello' } satisfies Message);
  }
  if (options.initial) apply(options.initial);

  return {
    async run(priority, send, signal, ownLimit = false) {
      signal?.throwIfAborted();
      const mustWait = wait(priority) !== 0 || (priority === 'job' && waiters.length > 0);
      if (mustWait && priority === 'speculative') throw new BudgetSkippedError();
      if (mustWait) {
        await new Promise<void>((resolve, reject) => {
          const waiter: Waiter = {
            priority: priority as Waiter['priority'],
            go: () => {
              signal?.removeEventListener('abort', abort);
              resolve();
            },
          };
          const abort = () => {
            const index = waiters.indexOf(waiter);
            if (index >= 0) waiters.splice(index, 1);
            changed();
            reject(signal?.reason);
          };
          signal?.addEventListener('abort', abort, { once: true });
          waiters.push(waiter);
          changed();
          pump();
        });
      } else spend(true);
      const response = await send();
      if (!(ownLimit && response.status === 429)) observe(response);
      return response;
    },
    allows: (priority) => wait(priority) === 0,
    state() {
      if (!snapshot) {
        const count = left();
        snapshot = {
          limit,
          remaining: count,
          resetAt,
          throttledUntil: throttledUntil > now() ? throttledUntil : 0,
          guessed,
          waiting: { person: waiters.filter((w) => w.priority === 'person').length, job: waiters.filter((w) => w.priority === 'job').length },
          reserve,
          windowMs,
        };
      }
      return snapshot;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setReserve(share) {
      reserve = Math.min(0.9, Math.max(0, share));
      changed();
      pump();
    },
    close() {
      clearTimeout(timer);
      channel?.close();
    },
  };
}
