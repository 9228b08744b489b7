/**
 * Waiting out a busy export service (issue 16, console): the service runs `EXPORT_CONCURRENCY` exports at once
 * and answers any more with 503 and `Retry-After` (issue 12 point 10; docs/decisions.md section 3 error body), so the
 * export button waits the time it is told and tries again by itself, with a countdown and a way to cancel,
 * instead of failing. Our service queues those exports (issue 21 point 2, docs/exports.md): its 503 carries a
 * ticket and the queue position; each retry sends the ticket back so the export keeps its place, and the dialog
 * shows the position. Framework-free, so it is unit-tested without a browser; its texts are the `contacts-export`
 * catalog's, in the language shown (issue 23).
 */
import { isApiError } from '@/api/api-error';
import { t } from '@/i18n/i18n';

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

/** A wait before the next try: its length in seconds and the queue position (null when the service gave none). */
export type BusyWait = { seconds: number; position: number | null };

/**
 * The countdown shown while waiting, `seconds` (rounded up, at least 1) before the next try, with the export's
 * place in the service's queue when known (`position`, 1 = next).
 */
export function busyText(seconds: number, position: number | null = null): string {
  const shown = Math.max(1, Math.ceil(seconds));
  return position === null ? t('contacts-export.busy', { seconds: shown }) : t('contacts-export.queued', { position, seconds: shown });
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
 * the seconds it was told (reporting them and the queue position to `onWait`, then null when the wait is over)
 * and tries again, at most MAX_BUSY_RETRIES times, passing `attempt` the queue ticket of the last busy answer
 * (undefined on the first try, or when the answer carried none) to send back. Rejects with any other failure,
 * or with the AbortError as soon as `signal` aborts.
 */
export async function withBusyRetries<T>(attempt: (ticket: string | undefined) => Promise<T>, signal: AbortSignal, onWait: (wait: BusyWait | null) => void): Promise<T> {
  let ticket: string | undefined;
  for (let retry = 0; ; retry++) {
    try {
      return await attempt(ticket);
    } catch (error) {
      const seconds = busyRetrySeconds(error);
      if (seconds === null || retry >= MAX_BUSY_RETRIES || signal.aborted) throw error;
      const queue = isApiError(error) ? error.exportQueue : null;
      ticket = queue?.ticket;
      onWait({ seconds, position: queue?.position ?? null });
      try {
        await waitUnlessAborted(seconds * 1000, signal);
      } finally {
        onWait(null);
      }
    }
  }
}
