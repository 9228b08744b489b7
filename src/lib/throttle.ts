/**
 * Throttling state for the visible notice (issue 4): the query client's retry policy reports each 429 it waits
 * out with `reportThrottle(seconds)`; `useThrottle()` gives the time the notice should show until.
 */
import { useSyncExternalStore } from 'react';

let until = 0;
const listeners = new Set<() => void>();

/** Records that the service asked us to wait `seconds` (from Retry-After). */
export function reportThrottle(seconds: number): void {
  until = Math.max(until, Date.now() + seconds * 1000);
  for (const listener of listeners) listener();
}

/** Clears the notice early (a request succeeded after waiting). */
export function clearThrottle(): void {
  if (until === 0) return;
  until = 0;
  for (const listener of listeners) listener();
}

/** Epoch ms until which requests are being held back, 0 when not throttled. */
export function useThrottle(): number {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => until,
  );
}
