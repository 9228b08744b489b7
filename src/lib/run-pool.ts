/**
 * Runs many small requests a few at a time (issues 5 and 6: bulk tags, CSV import): at most `concurrency` at
 * once, in order of the items; when one is answered 429 every worker pauses for its `Retry-After` and the item
 * is tried again (up to `maxRetries` times); other failures are recorded with their reason (a sentence, issue 13:
 * src/lib/error-sentence.ts) and the run goes on. `onProgress` reports after each item and when a pause starts.
 * Stops early when `signal` aborts: no new item starts, a pause ends at once, and items already sent finish (a
 * write that reached the service is counted, never left unknown).
 */
import { isApiError } from '@/api/api-error';
import { errorSentence, loadErrorSentences } from './error-sentence';
import { backoffSeconds } from './throttle';

/** Waits `ms`, or less when `signal` aborts first. */
export function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export type PoolProgress = { done: number; total: number; failed: number; waitingUntil: number | null };
export type PoolFailure<Item> = { item: Item; index: number; reason: string; error: unknown };
export type PoolResult<Item, Result> = { results: (Result | undefined)[]; failures: PoolFailure<Item>[]; aborted: boolean };

export async function runPool<Item, Result>(
  items: readonly Item[],
  task: (item: Item, index: number) => Promise<Result>,
  options: { concurrency?: number; maxRetries?: number; onProgress?: (progress: PoolProgress) => void; signal?: AbortSignal; sleep?: (ms: number) => Promise<void> } = {},
): Promise<PoolResult<Item, Result>> {
  const { concurrency = 4, maxRetries = 5, onProgress, signal } = options;
  const sleep = options.sleep ?? ((ms: number) => sleepUnlessAborted(ms, signal));
  const results: (Result | undefined)[] = new Array(items.length);
  const failures: PoolFailure<Item>[] = [];
  let next = 0;
  let done = 0;
  let pausedUntil = 0;
  const report = () => onProgress?.({ done, total: items.length, failed: failures.length, waitingUntil: pausedUntil > Date.now() ? pausedUntil : null });

  const worker = async () => {
    while (next < items.length && !signal?.aborted) {
      const index = next++;
      const item = items[index]!;
      for (let attempt = 0; ; attempt++) {
        const wait = pausedUntil - Date.now();
        if (wait > 0) await sleep(wait);
        if (signal?.aborted) return;
        try {
          results[index] = await task(item, index);
          break;
        } catch (error) {
          if (isApiError(error) && error.status === 429 && attempt < maxRetries) {
            pausedUntil = Math.max(pausedUntil, Date.now() + (error.retryAfter ?? backoffSeconds(attempt)) * 1000);
            report();
            continue;
          }
          await loadErrorSentences();
          failures.push({ item, index, reason: errorSentence(error), error });
          break;
        }
      }
      done++;
      report();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  failures.sort((a, b) => a.index - b.index);
  return { results, failures, aborted: Boolean(signal?.aborted) };
}
