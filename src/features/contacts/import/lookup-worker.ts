/**
 * The plan's look-ups in a module Web Worker (issue 20 point 6), so the main thread is free to clean the rest of the
 * file while they run: a fetch costs the thread that sends it about 3 ms of CPU, and 2,202 look-ups of a
 * 100,000-row file kept the main thread busy three quarters of the time, so cleaning beside them on the same thread
 * gained nothing (bench:import).
 * The worker sends them with its own typed client on its own `RateBudget`, joined to the key's BroadcastChannel
 * (src/lib/budgeted-client.ts `budgetChannelName`): the tabs' budgets count its requests as they count another
 * tab's, and its look-ups go with priority `job`, leaving the person's reserve (issue 19).
 * Messages in: `start` (the connection, the channel, the reserve), then `filters` as the cleaning finds keys, then
 * `end`. Messages out: `progress` (at most every 100 ms, and at the end), then `done` with the existing contacts
 * (`Existing`) or `error` with the first failure's message. No text here is for people but the error's message,
 * which the typed client words (src/api/api-error.ts). The main thread's side is lookup-client.ts.
 */
import { createApiClient } from '@/api/client';
import type { FilterNode } from '@/api/filter/ast';
import { createRateBudget } from '@/api/rate-budget';
import { ItemFeed } from '@/lib/run-pool';
import type { Existing } from './existing';
import { findExisting } from './find-existing';

export type LookupRequest =
  | { type: 'start'; baseUrl: string; apiKey: string; channelName: string; reserve: number }
  | { type: 'filters'; filters: FilterNode[] }
  | { type: 'end' };
export type LookupMessage =
  | { type: 'progress'; done: number; total: number }
  | { type: 'done'; existing: Existing; requests: number; rateLimit: number | null }
  | { type: 'error'; message: string };

const scope = self as unknown as { postMessage(message: LookupMessage): void; onmessage: ((event: MessageEvent<LookupRequest>) => void) | null };
const post = (message: LookupMessage) => scope.postMessage(message);
const feed = new ItemFeed<FilterNode>();
let shownAt = 0;

scope.onmessage = (event) => {
  const message = event.data;
  if (message.type === 'filters') return feed.push(...message.filters);
  if (message.type === 'end') return feed.end();
  const budget = createRateBudget({ channelName: message.channelName, reserve: message.reserve });
  const api = createApiClient({ baseUrl: message.baseUrl, apiKey: message.apiKey, budget });
  const onProgress = (done: number, total: number) => {
    const now = performance.now();
    if (now - shownAt < 100) return;
    shownAt = now;
    post({ type: 'progress', done, total });
  };
  findExisting(api, feed, { onProgress }).then(
    ({ existing, requests, rateLimit }) => {
      post({ type: 'progress', done: feed.size, total: feed.size });
      post({ type: 'done', existing, requests, rateLimit });
      budget.close();
    },
    (error: unknown) => {
      post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
      budget.close();
    },
  );
};
