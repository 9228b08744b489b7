/**
 * Runs many small requests a few at a time (the import's look-ups, issue 20): at most `concurrency` at
 * once, in order of the items; when one is answered 429 every worker pauses for its `Retry-After` and the item
 * is tried again (up to `maxRetries` times); other failures are recorded with their error and the run goes on. `onProgress` reports after each item and when a pause starts.
 * Stops early when `signal` aborts: no new item starts, a pause ends at once, and items already sent finish (a
 * write that reached the service is counted, never left unknown). The items are an array, or an `ItemFeed` whose
 * items arrive while the pool runs (the import's look-ups, made while the file is still being cleaned).
 */
import { isApiError } from '@/api/api-error';
import { backoffSeconds } from './backoff';

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

/**
 * Items that arrive while a pool runs: `push` adds, `end` says no more will come. The pool's workers take them in
 * order and wait for the next one until the feed has ended. `size` is the number pushed so far.
 */
export class ItemFeed<Item> {
  /** Taken items are let go (`undefined`), so a long feed does not keep what the pool has done with. */
  private readonly items: (Item | undefined)[] = [];
  private taken = 0;
  private ended = false;
  private waiting: (() => void)[] = [];

  /** A feed of `items` that has already ended. */
  static of<Item>(items: readonly Item[]): ItemFeed<Item> {
    const feed = new ItemFeed<Item>();
    feed.push(...items);
    feed.end();
    return feed;
  }

  get size(): number {
    return this.items.length;
  }

  push(...items: Item[]): void {
    for (const item of items) this.items.push(item);
    this.wake();
  }

  end(): void {
    this.ended = true;
    this.wake();
  }

  /** The next item and its index; null once the feed has ended and every item is taken, or when `signal` aborts. */
  async take(signal?: AbortSignal): Promise<{ item: Item; index: number } | null> {
    while (this.taken >= this.items.length) {
      if (this.ended || signal?.aborted) return null;
      await new Promise<void>((resolve) => {
        const wake = () => {
          signal?.removeEventListener('abort', wake);
          resolve();
        };
        this.waiting.push(wake);
        signal?.addEventListener('abort', wake, { once: true });
      });
    }
    const index = this.taken++;
    const item = this.items[index] as Item;
    this.items[index] = undefined;
    return { item, index };
  }

  private wake() {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }
}

export type PoolProgress = { done: number; total: number; failed: number; waitingUntil: number | null };
export type PoolFailure<Item> = { item: Item; index: number; error: unknown };
export type PoolResult<Item, Result> = { results: (Result | undefined)[]; failures: PoolFailure<Item>[]; aborted: boolean };

export async function runPool<Item, Result>(
  items: readonly Item[] | ItemFeed<Item>,
  task: (item: Item, index: number) => Promise<Result>,
  options: { concurrency?: number; maxRetries?: number; onProgress?: (progress: PoolProgress) => void; signal?: AbortSignal; sleep?: (ms: number) => Promise<void> } = {},
): Promise<PoolResult<Item, Result>> {
  const { concurrency = 4, maxRetries = 5, onProgress, signal } = options;
  const sleep = options.sleep ?? ((ms: number) => sleepUnlessAborted(ms, signal));
  const feed = items instanceof ItemFeed ? items : ItemFeed.of(items);
  const results: (Result | undefined)[] = [];
  const failures: PoolFailure<Item>[] = [];
  let done = 0;
  let pausedUntil = 0;
  const report = () => onProgress?.({ done, total: feed.size, failed: failures.length, waitingUntil: pausedUntil > Date.now() ? pausedUntil : null });

  const worker = async () => {
    while (!signal?.aborted) {
      const next = await feed.take(signal);
      if (!next) return;
      const { item, index } = next;
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
          failures.push({ item, index, error });
          break;
        }
      }
      done++;
      report();
    }
  };
  const workers = items instanceof ItemFeed ? concurrency : Math.min(concurrency, items.length);
  await Promise.all(Array.from({ length: workers }, worker));
  results.length = feed.size;
  failures.sort((a, b) => a.index - b.index);
  return { results, failures, aborted: Boolean(signal?.aborted) };
}
