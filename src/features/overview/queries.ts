/**
 * The overview's figures as queries (issue 24 point 4): each figure is one request, a count asked with `$limit=1`
 * and read from `meta.maxResults` (or one small list), cached under `['ws', workspaceId, 'overview', ...]` with the
 * time it was read (React Query's `dataUpdatedAt`), fresh for `OVERVIEW_STALE_MS`.
 *
 * Priorities (issue 19 point 1): what the overview loads by itself is 'speculative', so the key's budget refuses it
 * before sending when the budget is low (`BudgetSkippedError`: the figure then says it was skipped and offers to
 * load it, never a false 0); what the person asks for with "Load" or "Refresh" is a 'job', which waits while the
 * budget is at or under the person's reserve instead of spending it, so the overview never pushes the person's own
 * clicks into a 429. Nothing here is 'person': a page of 30 counts must not outrank the person's next click.
 */
import type { QueryClient, QueryKey, UseQueryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@/api/client';
import type { ContactTag } from '@/api/contacts';
import type { FilterNode } from '@/api/filter/ast';
import type { Post } from '@/api/posts';
import { type RequestPriority, isBudgetSkipped } from '@/api/rate-budget';
import {
  daysBefore, forSaleFilter, inCollectionFilter, publishedSinceFilter, stateFilter, tagFilter, weekFilter,
} from './figures';
import type { WeekBucket } from './week-buckets';

/** How long a figure is fresh: 10 minutes (coming back to the overview meanwhile costs no request). */
export const OVERVIEW_STALE_MS = 10 * 60_000;
/** How many tags, posts and collections the overview ranks. */
export const TOP_TAGS = 10;
export const TOP_POSTS = 5;
/** Collections whose products are counted (one request each): the first page of `GET /collections`. */
export const COLLECTIONS_COUNTED = 10;
/** Posts on the claps chart: the newest, one page of `GET /posts` (its `$limit` cap, docs/decisions.md section 6). */
export const CHART_POSTS = 30;

/** One figure: its cache key and how to read it at a priority. */
export type Figure<T> = { queryKey: QueryKey; read: (priority: RequestPriority, signal?: AbortSignal) => Promise<T> };

/** A collection and the number of its products. */
export type CollectionCount = { id: string; title: string | null; products: number };

/**
 * The retry rule of a figure: never after a budget skip or any 4xx answer, a 429 included (a speculative figure does
 * not wait out a throttle: the budget has heard the 429 and the figure offers "Load"); twice after a network failure
 * or a 5xx. (Not src/lib/query-client.ts's rule, which waits out 429s for what the person asked for; importing it
 * here would also split TanStack Query's core out of the main chunk.)
 */
export function retryFigure(failureCount: number, error: unknown): boolean {
  if (isBudgetSkipped(error)) return false;
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) return false;
  return failureCount < 2;
}

/** Query options of a figure, loaded by itself as 'speculative'. */
export function figureOptions<T>(figure: Figure<T>): UseQueryOptions<T, Error, T, QueryKey> {
  return {
    queryKey: figure.queryKey,
    queryFn: ({ signal }) => figure.read('speculative', signal),
    staleTime: OVERVIEW_STALE_MS,
    gcTime: 3 * OVERVIEW_STALE_MS,
    retry: retryFigure,
  };
}

/** Reads `figures` again because the person asked ("Load", "Refresh"): as a 'job', into the same cache entries. */
export function loadFigures(queryClient: QueryClient, figures: readonly Figure<unknown>[]): Promise<unknown> {
  return Promise.allSettled(figures.map((figure) => queryClient.fetchQuery({ queryKey: figure.queryKey, queryFn: ({ signal }) => figure.read('job', signal), staleTime: 0, retry: false })));
}

/** The overview's figures for one workspace, for the weeks given (see the module comment for what each costs). */
export function overviewFigures(api: ApiClient, workspaceId: string, weeks: readonly WeekBucket[], now: Date) {
  const key = (...parts: unknown[]): QueryKey => ['ws', workspaceId, 'overview', ...parts];
  const countContacts = (name: QueryKey, filter?: FilterNode): Figure<number> => ({
    queryKey: key('contacts', ...name),
    read: async (priority, signal) => (await api.listContacts({ limit: 1, filter, priority, signal })).meta.maxResults,
  });
  const countProducts = (name: QueryKey, filter?: FilterNode): Figure<number> => ({
    queryKey: key('products', ...name),
    read: async (priority, signal) => (await api.listProducts({ limit: 1, filter, priority, signal })).meta.maxResults,
  });
  const monthAgo = daysBefore(now, 30);
  // The day, not the instant: the key and the filter stay the same for a whole day, so the cache serves them.
  monthAgo.setHours(0, 0, 0, 0);

  const contacts = {
    total: countContacts(['total']),
    active: countContacts(['state', 'active'], stateFilter('active')),
    pending: countContacts(['state', 'pending'], stateFilter('pending')),
    weeks: weeks.map((week) => countContacts(['week', week.start.toISOString()], weekFilter(week))),
    tags: {
      queryKey: key('contacts', 'tags'),
      read: async (priority, signal) =>
        (await api.listContactTags({ priority, signal })).toSorted((a, b) => b.count - a.count || a.name.localeCompare(b.name)).slice(0, TOP_TAGS),
    } satisfies Figure<ContactTag[]>,
  };
  const posts = {
    lastMonth: {
      queryKey: key('posts', 'since', monthAgo.toISOString()),
      read: async (priority, signal) => (await api.listPosts({ limit: 1, filter: publishedSinceFilter(monthAgo), priority, signal })).meta.maxResults,
    } satisfies Figure<number>,
    topClaps: {
      queryKey: key('posts', 'top-claps'),
      read: async (priority, signal) => (await api.listPosts({ limit: TOP_POSTS, orderBy: 'claps desc', priority, signal })).items,
    } satisfies Figure<Post[]>,
    newest: {
      queryKey: key('posts', 'newest'),
      read: async (priority, signal) => (await api.listPosts({ limit: CHART_POSTS, orderBy: 'publishedDate desc', priority, signal })).items,
    } satisfies Figure<Post[]>,
  };
  const catalog = {
    products: countProducts(['total']),
    forSale: countProducts(['for-sale', true], forSaleFilter(true)),
    notForSale: countProducts(['for-sale', false], forSaleFilter(false)),
    collections: {
      queryKey: key('collections', 'first-page'),
      read: async (priority, signal) => {
        const page = await api.listCollections({ limit: COLLECTIONS_COUNTED, priority, signal });
        return { total: page.meta.maxResults, items: page.items.map((item) => ({ id: item.id, title: item.title ?? null })) };
      },
    } satisfies Figure<{ total: number; items: { id: string; title: string | null }[] }>,
    /** The products of one collection: a figure per collection of the first page. */
    inCollection: (collectionId: string) => countProducts(['collection', collectionId], inCollectionFilter(collectionId)),
  };
  return { contacts, posts, catalog, tagFilter };
}

export type OverviewFigures = ReturnType<typeof overviewFigures>;
