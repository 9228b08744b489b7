/**
 * The plan's look-ups as a session of messages (issue 20 point 6), run by each look-up worker (lookup-worker.ts,
 * started by lookup-workers.ts for plan-worker.ts): `lookupSession(post)` returns the handler of the messages the
 * planner hands it. `start` (the connection, the key's budget channel, the reserve, and the reading of the budget this
 * one takes over from, if any) makes a
 * typed client on a `RateBudget` of its own, joined to that BroadcastChannel, so the tabs count its requests as
 * another tab's, and starts `findExisting` over an `ItemFeed`; `filters` feed it as the cleaning finds keys; `end`
 * says no more come. `post` gets `progress` (at most every 100 ms, and at the end), then `done` with the existing
 * contacts (`Existing`: ids and tags) and the budget's last reading (null while no answer carried a limit), or `error` with the first failure's message (worded by the typed client,
 * src/api/api-error.ts). Framework-free (browser workers and Node).
 */
import { createApiClient } from '@/api/client';
import type { FilterNode } from '@/api/filter/ast';
import { type RateLimitReading, createRateBudget } from '@/api/rate-budget';
import { ItemFeed } from '@/lib/run-pool';
import type { Existing } from './existing';
import { findExisting } from './find-existing';

export type LookupRequest =
  | { type: 'start'; baseUrl: string; apiKey: string; channelName: string; reserve: number; reading?: RateLimitReading }
  | { type: 'filters'; filters: FilterNode[] }
  | { type: 'end' };
export type LookupMessage =
  | { type: 'progress'; done: number; total: number }
  | { type: 'done'; existing: Existing; requests: number; rateLimit: number | null; reading: RateLimitReading | null }
  | { type: 'error'; message: string };

export function lookupSession(post: (message: LookupMessage) => void): (message: LookupRequest) => void {
  const feed = new ItemFeed<FilterNode>();
  let shownAt = 0;
  return (message) => {
    if (message.type === 'filters') return feed.push(...message.filters);
    if (message.type === 'end') return feed.end();
    const budget = createRateBudget({ channelName: message.channelName, reserve: message.reserve, ...(message.reading ? { initial: message.reading } : {}) });
    const api = createApiClient({ baseUrl: message.baseUrl, apiKey: message.apiKey, budget });
    const onProgress = (done: number, total: number) => {
      const now = performance.now();
      if (now - shownAt < 100) return;
      shownAt = now;
      post({ type: 'progress', done, total });
    };
    findExisting(api, feed, { onProgress })
      .then(
        ({ existing, requests, rateLimit }) => {
          post({ type: 'progress', done: feed.size, total: feed.size });
          const { limit, remaining, resetAt } = budget.state();
          post({ type: 'done', existing, requests, rateLimit, reading: limit !== null && remaining !== null && resetAt !== null ? { limit, remaining, resetAt } : null });
        },
        (error: unknown) => post({ type: 'error', message: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => budget.close());
  };
}
