/**
 * Waiting out a busy export service (issue 16, console): the service runs `EXPORT_CONCURRENCY` exports at once
 * and answers any more with 503 and `Retry-After` (issue 12 point 10; decisions.md section 3 error body), so the
 * export button waits the time it is told and tries again by itself, with a countdown and a way to cancel,
 * instead of failing. Framework-free, so it is unit-tested without a browser.
 */
import { isApiError } from '@/api/api-error';

/** Tries after the first refusal before the export gives up and shows the error (10 minutes at 10 s each). */
export const MAX_BUSY_RETRIES = 60;
/** A longer `Retry-After` is waited this long at most (seconds), then the export is tried again. */
export const MAX_BUSY_WAIT_SECONDS = 60;

/**
 * Seconds to wait before trying `error`'s export again: its `Retry-After` (at least 1, at most
 * MAX_BUSY_WAIT_SECONDS) when it is a 503 that carries one; null for anything else (then it is a failure).
 */
export function busyRetrySeconds(error: unknown): number | null {
  if (!isApiError(error) || error.status !== 503 || error.retryAfter === null) return null;
  return Math.min(MAX_BUSY_WAIT_SECONDS, Math.max(1, Math.ceil(error.retryAfter)));
}

/** The countdown shown while waiting, `seconds` (rounded up, at least 1) before the next try. */
export function busyText(seconds: number): string {
  return `The service is busy with another export; retrying in ${Math.max(1, Math.ceil(seconds))} s`;
}

/** Resolves after `ms` milliseconds; rejects with `signal`'s reason (the AbortError) as soon as it aborts. */
export function waitUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal.addEventListener('abort', stop, { once: true });
  });
}

/**
 * Runs `attempt` until it succeeds; when it fails with the service's busy answer (`busyRetrySeconds`), waits
 * the seconds it was told (reporting them to `onWait`, then null when the wait is over) and tries again, at most
 * MAX_BUSY_RETRIES times. Rejects with any other failure, or with the AbortError as soon as `signal` aborts.
 */
export async function withBusyRetries<T>(attempt: () => Promise<T>, signal: AbortSignal, onWait: (seconds: number | null) => void): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      const seconds = busyRetrySeconds(error);
      if (seconds === null || retry >= MAX_BUSY_RETRIES || signal.aborted) throw error;
      onWait(seconds);
      try {
        await waitUnlessAborted(seconds * 1000, signal);
      } finally {
        onWait(null);
      }
    }
  }
}
