import { describe, expect, it } from 'vitest';
import { ApiError } from '@/api/api-error';
import { ItemFeed, runPool } from './run-pool';

const tooMany = (retryAfter: number) =>
  new ApiError({ status: 429, retryAfter, message: 'ThrottlerException: Too Many Requests', endpoint: 'PATCH /contacts/{contactId}/tags', url: '/api' });

describe('runPool', () => {
  it('never runs more than the concurrency at once and keeps results in item order', async () => {
    let running = 0;
    let peak = 0;
    const { results, failures } = await runPool([5, 1, 4, 2, 3, 6, 7], async (ms) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, ms));
      running--;
      return ms * 10;
    }, { concurrency: 3 });
    expect(peak).toBe(3);
    expect(results).toEqual([50, 10, 40, 20, 30, 60, 70]);
    expect(failures).toEqual([]);
  });

  it('pauses every worker for Retry-After on a 429 and then retries the item', async () => {
    const slept: number[] = [];
    let calls = 0;
    const { results, failures } = await runPool(['a', 'b'], async (item) => {
      calls++;
      if (item === 'a' && calls === 1) throw tooMany(2);
      return item.toUpperCase();
    }, { concurrency: 1, sleep: async (ms) => void slept.push(ms) });
    expect(results).toEqual(['A', 'B']);
    expect(failures).toEqual([]);
    expect(slept.length).toBeGreaterThanOrEqual(1);
    expect(slept[0]).toBeGreaterThan(1500);
  });

  it('records other failures with their error and goes on', async () => {
    const progress: number[] = [];
    const { results, failures } = await runPool([1, 2, 3], async (n) => {
      if (n === 2) throw new Error('Contact not found');
      return n;
    }, { onProgress: (p) => progress.push(p.done) });
    expect(results).toEqual([1, undefined, 3]);
    expect(failures.map((f) => [f.index, (f.error as Error).message])).toEqual([[1, 'Contact not found']]);
    expect(progress.at(-1)).toBe(3);
  });

  it('gives up on an item after maxRetries 429s and reports it failed', async () => {
    const { failures } = await runPool(['x'], async () => {
      throw tooMany(0);
    }, { maxRetries: 2, sleep: async () => undefined });
    expect(failures).toHaveLength(1);
    expect(failures[0]!.error).toMatchObject({ status: 429 });
  });

  it('ends a Retry-After pause at once when aborted', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 50);
    const { aborted, results } = await runPool(['a', 'b'], async () => {
      throw tooMany(30);
    }, { concurrency: 1, signal: controller.signal });
    expect(aborted).toBe(true);
    expect(results).toEqual([undefined, undefined]);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('stops taking new items once aborted', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const { aborted } = await runPool([1, 2, 3, 4, 5], async (n) => {
      seen.push(n);
      if (n === 2) controller.abort();
    }, { concurrency: 1, signal: controller.signal });
    expect(aborted).toBe(true);
    expect(seen).toEqual([1, 2]);
  });

  it('takes items from a feed as they are pushed, in order, and ends when the feed ends', async () => {
    const feed = new ItemFeed<number>();
    const started: number[] = [];
    const pool = runPool(feed, async (n) => {
      started.push(n);
      await new Promise((resolve) => setTimeout(resolve, 1));
      return n * 2;
    }, { concurrency: 2 });
    feed.push(1, 2, 3);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started).toEqual([1, 2, 3]); // the workers wait for more rather than ending
    feed.push(4);
    feed.end();
    const { results, failures } = await pool;
    expect(started).toEqual([1, 2, 3, 4]);
    expect(results).toEqual([2, 4, 6, 8]);
    expect(failures).toEqual([]);
  });

  it('stops waiting on a feed that never ends when the signal aborts', async () => {
    const feed = new ItemFeed<number>();
    const controller = new AbortController();
    const pool = runPool(feed, async (n) => n, { concurrency: 3, signal: controller.signal });
    feed.push(7);
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const { results, aborted } = await pool;
    expect(aborted).toBe(true);
    expect(results).toEqual([7]);
  });
});
