/**
 * A key's request budget (issue 19 point 1), in its minimal form: what the overview and the cross-workspace search
 * of issue 24 need, in the shape the rate budget of issue 19 gives (`RequestPriority`, `BudgetSkippedError`,
 * `isBudgetSkipped`), to be replaced by that budget when it lands.
 *
 * The budget is fed by the `X-RateLimit-Limit`, `-Remaining` and `-Reset` (seconds until the window refills) of
 * every answer, and by a 429's `Retry-After`. Before a request is sent, `admit(priority)`:
 * - 'person' (what the person is waiting for) is always sent;
 * - 'job' waits while the remaining requests are at or under the reserve for the person (20% of the limit by
 *   default), until the window refills;
 * - 'speculative' (prefetches, counts, the overview) is refused at once when the remaining requests are at or under
 *   the reserve: it rejects with `BudgetSkippedError`, never queued behind the person.
 * A service that sends none of these headers (the demo with the limit off) leaves the budget unknown, and every
 * request is sent. Each admitted request counts against the remaining ones until its answer says otherwise, so a
 * burst of counts cannot spend the reserve between two answers.
 * Framework-free (browser and Node 20).
 */

/** Who is waiting for a request (issue 19 point 1): the person first, then jobs, then speculation. */
export type RequestPriority = 'person' | 'job' | 'speculative';

/** Thrown by `admit` for a 'speculative' request while the budget is low: nothing was sent. */
export class BudgetSkippedError extends Error {
  override name = 'BudgetSkippedError';
  /** Requests left in the window when the request was refused, and when the window refills (epoch ms). */
  constructor(
    readonly remaining: number,
    readonly resetAt: number,
  ) {
    super(`Skipped to keep requests for you: ${remaining} left until ${new Date(resetAt).toISOString()}`);
  }
}

/** True for the refusal of a speculative request by a low budget. */
export function isBudgetSkipped(error: unknown): error is BudgetSkippedError {
  return error instanceof BudgetSkippedError || (error instanceof Error && error.name === 'BudgetSkippedError');
}

/** What the budget knows: the window's limit and remaining requests, and when it refills (epoch ms); null when unknown. */
export type BudgetState = { limit: number; remaining: number; resetAt: number } | null;

/** A key's budget, as the typed client uses it (src/api/client.ts `ApiClientOptions.budget`). */
export type RateBudget = {
  /** Resolves when a request of `priority` may be sent; rejects with `BudgetSkippedError` or the signal's AbortError. */
  admit(priority: RequestPriority, signal?: AbortSignal): Promise<void>;
  /** Feeds the budget with an answer's status and headers. */
  observe(status: number, headers: Headers): void;
  /** The current state (null until an answer carried the headers). */
  state(): BudgetState;
};

/** Options: the share kept for the person (0..1, default 0.2, issue 19 point 4) and the clock (tests). */
export type RateBudgetOptions = { reserve?: number; now?: () => number };

const integer = (text: string | null): number | null => {
  if (text === null || !/^\s*\d+\s*$/.test(text)) return null;
  return Number(text);
};

/**
 * A new budget (see the module comment for the rules).
 */
export function createRateBudget(options: RateBudgetOptions = {}): RateBudget {
  const reserveShare = options.reserve ?? 0.2;
  const now = options.now ?? Date.now;
  let current: BudgetState = null;

  /** The state with an elapsed window refilled. */
  const fresh = (): BudgetState => {
    if (current && now() >= current.resetAt) current = { ...current, remaining: current.limit, resetAt: now() + 60_000 };
    return current;
  };
  const reserve = (limit: number) => Math.ceil(limit * reserveShare);

  return {
    async admit(priority, signal) {
      signal?.throwIfAborted();
      for (;;) {
        const state = fresh();
        if (!state || priority === 'person' || state.remaining > reserve(state.limit)) break;
        if (priority === 'speculative') throw new BudgetSkippedError(state.remaining, state.resetAt);
        await sleep(Math.max(50, state.resetAt - now()), signal);
      }
      if (current) current = { ...current, remaining: Math.max(0, current.remaining - 1) };
    },
    observe(status, headers) {
      const limit = integer(headers.get('x-ratelimit-limit'));
      const remaining = integer(headers.get('x-ratelimit-remaining'));
      const reset = integer(headers.get('x-ratelimit-reset'));
      if (limit !== null && remaining !== null) {
        current = { limit, remaining, resetAt: now() + (reset ?? 60) * 1000 };
      } else if (status === 429) {
        const retryAfter = integer(headers.get('retry-after')) ?? 60;
        current = { limit: current?.limit ?? 60, remaining: 0, resetAt: now() + retryAfter * 1000 };
      }
    },
    state: () => fresh(),
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}
