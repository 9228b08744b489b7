/**
 * Throttling (issues 4 and 15): how long to wait after a 429, and the state of the visible notice. The query
 * client's retry policy reports each 429 it waits out with `reportThrottle`; `useThrottle()` gives the notice
 * what to show.
 *
 * The wait is the `Retry-After` the service sent; a service that sends none (a hosted one answers
 * `{"statusCode":429,"message":"ThrottlerException: Too Many Requests"}` without it, issue 15) gets exponential
 * backoff: 1 s, doubling with each retry, at most 60 s (`backoffSeconds`), and the notice says so.
 */
import { useSyncExternalStore } from 'react';

export { MAX_BACKOFF_SECONDS, backoffSeconds } from './backoff';

/** What the notice shows: until when (epoch ms, 0 when not throttled) and whether the wait is our own guess. */
export type ThrottleState = { until: number; guessed: boolean };

let state: ThrottleState = { until: 0, guessed: false };
const listeners = new Set<() => void>();

function update(next: ThrottleState): void {
  state = next;
  for (const listener of listeners) listener();
}

/** Records a wait of `seconds`: from `Retry-After`, or `guessed` (backoff, the service did not say). */
export function reportThrottle(seconds: number, guessed = false): void {
  const until = Date.now() + seconds * 1000;
  if (until > state.until) update({ until, guessed });
}

/** Clears the notice early (a request succeeded after waiting). */
export function clearThrottle(): void {
  if (state.until !== 0) update({ until: 0, guessed: false });
}

/** The current throttle state; `until` is 0 when not throttled. */
export function useThrottle(): ThrottleState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );
}
