/**
 * What this tab knew of a key's request budget, kept across a reload (the budget of issue 19, docs/console.md "The
 * request budget"). A reloaded page makes a new `RateBudget` (src/api/rate-budget.ts) that knows nothing, and such a
 * budget sends at once: its first requests (GET /authorization, GET /extensions, the list) went out into a window a
 * job had just spent, and met a 429 (issue 38's CI run: e2e/jobs.spec.ts, "keeps paging", after its `page.goto`).
 * Restored, the budget makes them wait for the window to refill instead.
 *
 * Kept in this tab's sessionStorage (a reload keeps it, other tabs tell each other over the budget's channel
 * instead), at the budget's channel name (`workspace-admin.budget.<hash of base URL and key>`, never the key itself),
 * as the last `RateLimitReading` with its `resetAt` in epoch ms: a record whose window has ended is ignored, so a
 * stale one expires by itself. A 429 without rate-limit headers (a service that announces no limit) is not kept.
 * Storage failures leave the budget to this page alone.
 */
import type { RateBudget, RateLimitReading } from '@/api/rate-budget';
import { readLocal, writeLocal } from './local-state';

/** A kept reading and when it was kept (epoch ms); a record kept "later" than now (the clock went back) is ignored. */
type Kept = RateLimitReading & { savedAt: number };

const tabStorage = (): Storage | undefined => (typeof sessionStorage === 'undefined' ? undefined : sessionStorage);

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * The reading kept at `name` in `storage` (default this tab's sessionStorage) while its window lasts: `limit` and
 * `remaining` in requests, `resetAt` in epoch ms after `now`; undefined when none is kept, it is unreadable, or its
 * window has ended.
 */
export function keptReading(name: string, now = Date.now(), storage = tabStorage()): RateLimitReading | undefined {
  if (!storage) return undefined;
  const kept = readLocal<Partial<Kept> | null>(name, null, storage);
  if (!kept || typeof kept !== 'object') return undefined;
  const { limit, remaining, resetAt, savedAt } = kept;
  if (!isCount(limit) || limit === 0 || !isCount(remaining) || remaining > limit || !isCount(resetAt) || !isCount(savedAt)) return undefined;
  if (resetAt <= now || savedAt > now) return undefined;
  return { limit, remaining, resetAt };
}

/**
 * Keeps `budget`'s reading at `name` in `storage` (default this tab's sessionStorage) whenever it changes, for
 * `keptReading` after a reload; a budget that knows no window (no limit told, or its window refilled) removes the
 * record. Returns the function that stops keeping it.
 */
export function keepBudget(name: string, budget: RateBudget, storage = tabStorage(), now: () => number = Date.now): () => void {
  if (!storage) return () => undefined;
  let written = '';
  const write = () => {
    const { limit, remaining, resetAt } = budget.state();
    const reading = limit !== null && remaining !== null && resetAt !== null ? { limit, remaining, resetAt } : null;
    const text = JSON.stringify(reading);
    if (text === written) return; // a job's requests change the state often; the record only when the reading does
    written = text;
    writeLocal(name, reading ? ({ ...reading, savedAt: now() } satisfies Kept) : undefined, storage);
  };
  write();
  return budget.subscribe(write);
}
