/**
 * How long a job has left, as a range that does not swing (issue 34 point 6). The old figure was the steps settled
 * since the run began over the time since; with a key of 60 requests a minute a job gets its share in a burst at the
 * start of each window and then waits for the refill, so that figure jumped (50 -> 54 -> 2 h 8 min -> 26 -> 53 min).
 *
 * Here the rate is measured over whole samples of `periodMs` (the budget's window, a minute on the hosted service,
 * when the key has a limit: every
 * sample then holds one burst and one wait) and smoothed with an exponentially weighted mean and variance (time
 * constant four samples: West's incremental form, `alpha = 1 - exp(-dt / tau)`). Until the first sample completes the
 * rate is the job's share of the budget (`BudgetShare`: the key's limit less the person's reserve), the most it can
 * get. The time left is a range: the smoothed rate widened by twice its standard deviation, at least 15% either way,
 * and half a sample either side (the work left may end in this window or at the next refill), so a rate that
 * jitters moves the estimate by less than the range it said (job-estimate.test.ts checks it).
 *
 * Time spent waiting on a 429 or a lost connection (`JobRecord.waitingUntil`) is not counted as a slow rate: the
 * sample restarts when the wait ends, and the wait still ahead is added to the range. `waitReason` says why a job
 * waits. Framework-free and pure (unit-tested).
 */

/** The smoothed rate of one job's run. Times are epoch ms; `rate` in steps a second, null until a sample completed. */
export type RateEstimate = {
  rate: number | null;
  /** Exponentially weighted variance of the samples' rates (steps² a second²). */
  variance: number;
  /** Where the current sample began. */
  sampleAt: number;
  sampleSettled: number;
  /** Samples completed. */
  samples: number;
};

/**
 * The key's budget as a job sees it: `limit` requests a window of `windowMs` (a minute on the hosted service, when
 * not yet seen), of which the `reserve` share is kept for the person.
 */
export type BudgetShare = { limit: number | null; reserve: number; windowMs?: number | null };

/** Sample length without a known limit (a service that paces by 429s alone, or none): the rate is smooth enough. */
export const FREE_PERIOD_MS = 5_000;
/** A budget's window until one is seen: the hosted service's minute (docs/decisions.md section 4). */
export const WINDOW_PERIOD_MS = 60_000;
/** The smallest half-width of the range, as a share of the rate. */
export const MIN_SPREAD = 0.15;
/** The largest, so the slow end stays finite. */
export const MAX_SPREAD = 0.6;
const TAU_SAMPLES = 4;

/** The sample length for a budget: its window when the key has a limit (a minute until seen), else `FREE_PERIOD_MS`. */
export function samplePeriod(budget: BudgetShare | null): number {
  return budget?.limit ? (budget.windowMs ?? WINDOW_PERIOD_MS) : FREE_PERIOD_MS;
}

/** The most steps a second a job can get from `budget` (one request a step), or null when it has no known limit. */
export function budgetRate(budget: BudgetShare | null): number | null {
  if (!budget?.limit) return null;
  return (budget.limit * (1 - budget.reserve) * 1000) / samplePeriod(budget);
}

/** A new estimate for a run at `settled` steps at time `at`. */
export function startEstimate(at: number, settled: number): RateEstimate {
  return { rate: null, variance: 0, sampleAt: at, sampleSettled: settled, samples: 0 };
}

/**
 * The estimate after seeing `settled` steps at time `at`: unchanged until a sample of `periodMs` has passed, then
 * that sample's rate folded into the smoothed mean and variance. `waiting`: the job is waiting out a 429 or a lost
 * connection; the sample then restarts, so the wait does not read as a slow rate. A `settled` lower than the
 * sample's start (another run) restarts the estimate.
 */
export function observe(estimate: RateEstimate, at: number, settled: number, periodMs: number, waiting = false): RateEstimate {
  if (settled < estimate.sampleSettled || at < estimate.sampleAt) return startEstimate(at, settled);
  if (waiting) return { ...estimate, sampleAt: at, sampleSettled: settled };
  const elapsed = at - estimate.sampleAt;
  if (elapsed < periodMs) return estimate;
  const sample = ((settled - estimate.sampleSettled) * 1000) / elapsed;
  if (estimate.rate === null) {
    // A first sample's spread is unknown: a quarter of it, so the first range is wide.
    return { rate: sample, variance: (sample / 4) ** 2, sampleAt: at, sampleSettled: settled, samples: 1 };
  }
  const alpha = 1 - Math.exp(-elapsed / (TAU_SAMPLES * periodMs));
  const delta = sample - estimate.rate;
  const rate = estimate.rate + alpha * delta;
  const variance = (1 - alpha) * (estimate.variance + alpha * delta * delta);
  return { rate, variance, sampleAt: at, sampleSettled: settled, samples: estimate.samples + 1 };
}

/** Seconds left as a range (`low` <= `high`), with the steps a second it assumes. */
export type TimeLeft = { low: number; high: number; rate: number };

/**
 * The time `left` steps take at `estimate`'s rate (or, before any sample, the job's share of `budget`), as a range;
 * `waitMs` still to wait is added to both ends. Null when neither rate is known or the rate is zero. The rate is
 * capped at the whole budget (a job cannot get more than the key's limit).
 */
export function timeLeft(estimate: RateEstimate, left: number, budget: BudgetShare | null, waitMs = 0): TimeLeft | null {
  if (left <= 0) return { low: 0, high: 0, rate: estimate.rate ?? 0 };
  const share = budgetRate(budget);
  const ceiling = budget?.limit ? (budget.limit * 1000) / samplePeriod(budget) : Infinity;
  let rate: number;
  let spread: number;
  if (estimate.rate !== null && estimate.rate > 0) {
    rate = Math.min(estimate.rate, ceiling);
    spread = Math.min(MAX_SPREAD, Math.max(MIN_SPREAD, (2 * Math.sqrt(estimate.variance)) / estimate.rate));
  } else if (estimate.rate === null && share) {
    // No sample yet: the most the budget gives it, and up to half that (the person's own requests, look-ups).
    rate = share;
    spread = 0.5;
  } else return null;
  const wait = Math.max(0, waitMs) / 1000;
  // Half a sample either way: what is left may end in this window or at the next refill.
  const slack = samplePeriod(budget) / 2000;
  return { low: wait + Math.max(0, left / (rate * (1 + spread)) - slack), high: wait + left / (rate * (1 - spread)) + slack, rate };
}

/** Why a job waits: the service asked to slow down (a 429), the key's budget is spent until it refills, no connection. */
export type WaitReason = 'throttled' | 'budget' | 'offline';

/** What `waitReason` reads of the budget (src/api/rate-budget.ts's `BudgetState`). */
export type BudgetView = {
  limit: number | null;
  remaining: number | null;
  resetAt: number | null;
  throttledUntil: number;
  reserve: number;
  waiting: { job: number };
};

/**
 * Why a running job waits now, or null when it does not: `offline` when the browser is offline or the job waits
 * after a lost answer, `throttled` while a 429 is waited out, `budget` while the key has no more than the person's
 * reserve left before the window refills (or this tab holds a job's request back for it).
 */
export function waitReason(job: { state: string; waitingUntil: number | null }, budget: BudgetView | null, online: boolean, now: number): WaitReason | null {
  if (job.state !== 'running') return null;
  if (!online) return 'offline';
  const throttled = Boolean(budget && budget.throttledUntil > now);
  if (job.waitingUntil !== null && job.waitingUntil > now) return throttled ? 'throttled' : 'offline';
  if (throttled) return 'throttled';
  if (!budget) return null;
  if (budget.waiting.job > 0) return 'budget';
  const { limit, remaining, resetAt } = budget;
  if (limit && remaining !== null && resetAt !== null && resetAt > now && remaining <= Math.ceil(limit * budget.reserve)) return 'budget';
  return null;
}
