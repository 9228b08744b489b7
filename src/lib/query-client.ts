/**
 * The React Query client and its retry policy (issues 4 and 15): never retry a 4xx, except 429, which is retried
 * up to `THROTTLE_RETRIES` times, queries and mutations alike, after the `Retry-After` the service sent or, when
 * it sent none, after a backoff of 1 s doubling up to 60 s (throttle.ts), each wait reported to the throttle
 * notice; other failures are retried twice with backoff. Invalidations announced by other tabs apply here too
 * (data-changed.ts).
 */
import { type FetchQueryOptions, QueryClient, type QueryKey, type QueryMeta } from '@tanstack/react-query';
import { isApiError } from '@/api/api-error';
import { type RequestPriority, isBudgetSkipped } from '@/api/budget-skipped';
import { listenForChanges } from './data-changed';
import { backoffSeconds, clearThrottle, reportThrottle } from './throttle';

/**
 * How long a list's answer stays fresh, in ms (issue 19: going back to a list already seen costs no request while
 * it is fresh; the person's own writes invalidate it at once, and a job's end refreshes it everywhere). Posts turn
 * over as scheduled ones publish; the catalog, the organization's workspaces and the workspace's shared views (issue 36
 * point 8; a colleague's change to them arrives at once where the service names `events`) change seldom.
 */
export const LIST_STALE_MS = { contacts: 120_000, catalog: 300_000, posts: 60_000, workspaces: 300_000, views: 300_000 } as const;

/** The request priority of a query function's call: `speculative` when its query was prefetched (`prefetchSpeculative`). */
export function priorityOf(meta: QueryMeta | undefined): RequestPriority {
  return meta?.priority === 'speculative' ? 'speculative' : 'person';
}

/**
 * Prefetches `options` as a speculative request (issue 19): sent only while the key's budget is not low, never
 * queued behind the person, and never retried; its query function must read `priorityOf(meta)`. A refused prefetch
 * leaves the query to load when the person asks for it.
 */
export function prefetchSpeculative<TQueryFnData, TError, TData, TQueryKey extends QueryKey>(
  queryClient: QueryClient,
  options: FetchQueryOptions<TQueryFnData, TError, TData, TQueryKey>,
): Promise<void> {
  return queryClient.prefetchQuery({ ...options, retry: false, meta: { ...options.meta, priority: 'speculative' } });
}

/** Retries of a 429: enough for backoff to reach its 60 s cap (1 + 2 + 4 + 8 + 16 + 32 + 60 s). */
export const THROTTLE_RETRIES = 7;

const throttled = (error: unknown) => isApiError(error) && error.status === 429;

/** True when a failed query should be tried again; `failureCount` failures so far. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isBudgetSkipped(error)) return false;
  if (throttled(error)) return failureCount < THROTTLE_RETRIES;
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

/** True when a failed mutation should be tried again: only a 429 (the service refused it unseen). */
export function shouldRetryMutation(failureCount: number, error: unknown): boolean {
  return throttled(error) && failureCount < THROTTLE_RETRIES;
}

/**
 * Milliseconds to wait before retry `retry` (0 for the first): for a 429, `Retry-After` or the backoff, reported
 * to the notice (React Query asks before deciding to retry, so a 429 past the last retry reports nothing); else
 * exponential backoff up to 8 s.
 */
export function retryDelay(retry: number, error: unknown): number {
  if (isApiError(error) && error.status === 429) {
    if (retry >= THROTTLE_RETRIES) return 0;
    const seconds = error.retryAfter ?? backoffSeconds(retry);
    reportThrottle(seconds, error.retryAfter === null);
    return seconds * 1000 + 100;
  }
  return Math.min(1000 * 2 ** retry, 8000);
}

export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, retryDelay, staleTime: 15_000, refetchOnWindowFocus: false },
      mutations: { retry: shouldRetryMutation, retryDelay },
    },
  });
  // A success ends the notice unless another query is still waiting out a 429 (issue 13: pages now load several
  // queries at once, and one answering must not hide the wait of another).
  const waitingOnThrottle = () => client.getQueryCache().getAll().some((query) => query.state.fetchStatus === 'fetching' && throttled(query.state.fetchFailureReason));
  client.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'success' && !waitingOnThrottle()) clearThrottle();
  });
  listenForChanges(client);
  return client;
}
