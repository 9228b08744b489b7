/**
 * The backoff after a 429 that carries no `Retry-After` (issue 15): 1 s, doubling with each retry, at most 60 s.
 * Framework-free, for workers too (the import's look-ups in plan-worker.ts); src/lib/throttle.ts re-exports it.
 */

/** Longest backoff without a `Retry-After`, in seconds (issue 15). */
export const MAX_BACKOFF_SECONDS = 60;

/** Seconds to wait before retry number `retry` (0 for the first) when the service did not say: 1, 2, 4, ... 60. */
export function backoffSeconds(retry: number): number {
  return Math.min(MAX_BACKOFF_SECONDS, 2 ** Math.max(0, retry));
}
