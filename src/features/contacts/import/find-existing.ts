/**
 * The plan's look-ups (issue 20 point 3): the `email in (...)` / `phone in (...)` filters (`lookupFilters`' rules) sent
 * as `GET /contacts` pages of 100 with priority `job` (the rate budget lets the person's own clicks go first),
 * 6 at a time, the connections a browser opens to one host over HTTP/1.1 (src/lib/run-pool.ts: a 429 pauses them
 * all for its Retry-After; with a limit, the budget paces them whatever their number). The key's `X-RateLimit-Limit`
 * (docs/decisions.md section 4) is read from the answers' headers, for the plan's time estimate. `lookups` is an array, or
 * an `ItemFeed` filled while the file is cleaned and ended once it is (plan-worker.ts). Each
 * answer is indexed as it comes (`indexExisting`: ids and tags only). Framework-free.
 * Rejects with the first failure's error (ApiError, network), or the AbortError when `signal` aborts.
 */
import type { ApiClient } from '@/api/client';
import type { FilterNode } from '@/api/filter/ast';
import { type ItemFeed, runPool } from '@/lib/run-pool';
import { type Existing, emptyExisting, indexExisting } from './existing';

export type LookupResult = { existing: Existing; requests: number; rateLimit: number | null };

export async function findExisting(
  api: ApiClient,
  lookups: readonly FilterNode[] | ItemFeed<FilterNode>,
  options: { signal?: AbortSignal; concurrency?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<LookupResult> {
  const { signal, concurrency = 6, onProgress } = options;
  const existing = emptyExisting();
  let requests = 0;
  let rateLimit: number | null = null;
  const onHeaders = (headers: Headers) => {
    const limit = Number(headers.get('x-ratelimit-limit'));
    if (Number.isFinite(limit) && limit > 0) rateLimit = limit;
  };
  const result = await runPool(
    lookups,
    async (filter) => {
      // Each value matches one contact at most (email and phone are unique in a workspace), so one page of 100
      // holds them all; further pages are read only if a service answers more.
      for (let offset = 0; ; offset += 100) {
        requests++;
        const page = await api.listContacts({ filter, limit: 100, offset, priority: 'job', signal, onHeaders });
        indexExisting(page.items, existing);
        if (!page.items.length || offset + page.items.length >= page.meta.maxResults) break;
      }
    },
    { concurrency, signal, onProgress: ({ done, total }) => onProgress?.(done, total) },
  );
  signal?.throwIfAborted();
  const failure = result.failures[0];
  if (failure) throw failure.error;
  return { existing, requests, rateLimit };
}
