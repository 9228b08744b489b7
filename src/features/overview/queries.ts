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
 *
 * Where the service names the extension `stats` (docs/decisions.md section 12; issue 35 point 5), `fromStats` reads
 * every count of the overview from one `GET /stats` at the person's priority (one request, shared by the figures
 * that mount or refresh together), with the weeks as the service counts them (ISO weeks in UTC, `utcWeekBuckets`)
 * and the products by status in place of the two for-sale counts; the lists (most clapped posts, the claps chart,
 * the collections and their product counts) are asked as before, once that answer is in, so the figures come first.
 */
import type { QueryClient, QueryKey, UseQueryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@/api/client';
import type { ContactTag } from '@/api/contacts';
import type { Stats } from '@/api/stats';
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

/**
 * One `GET /stats` shared by the figures read together (docs/decisions.md section 12): `read` sends it at the
 * person's priority unless one is in flight; `after` resolves once an answer (or a failure) is in, sending one only
 * when none was ever asked. No caller's signal aborts it: another figure may be waiting for the same answer.
 */
export function sharedStats(api: Pick<ApiClient, 'stats'>) {
  let inFlight: Promise<Stats> | null = null;
  let last: Promise<Stats> | null = null;
  const read = (): Promise<Stats> => {
    if (!inFlight) {
      const sent = api.stats({ priority: 'person' });
      inFlight = last = sent;
      sent.then(() => (inFlight = null), () => (inFlight = null));
    }
    return inFlight;
  };
  const after = (): Promise<void> => (last ?? read()).then(() => undefined, () => undefined);
  return { read, after };
}

/** A section of the stats answer, or an error when the key cannot read it (the section then is not shown anyway). */
function section<K extends keyof Stats>(stats: Stats, name: K): NonNullable<Stats[K]> {
  const value = stats[name];
  if (value === undefined) throw new Error(`GET /stats answered no ${String(name)} section`);
  return value as NonNullable<Stats[K]>;
}

/**
 * The overview's figures for one workspace, for the weeks given (see the module comment for what each costs).
 * `fromStats`: the counts come from one `GET /stats` (the service names `stats`); the weeks should then be
 * `utcWeekBuckets`, as the service counts them.
 */
export function overviewFigures(api: ApiClient, workspaceId: string, weeks: readonly WeekBucket[], now: Date, fromStats = false) {
  const key = (...parts: unknown[]): QueryKey => ['ws', workspaceId, 'overview', ...parts];
  const stats = sharedStats(api);
  /** A count read from the stats answer (`fromStats`), else with `ask`. */
  const counted = (name: QueryKey, fromAnswer: (answer: Stats) => number, ask: Figure<number>['read']): Figure<number> => ({
    queryKey: key(...name),
    read: fromStats ? async () => fromAnswer(await stats.read()) : ask,
  });
  /** A list asked as before; with `fromStats`, once the stats answer is in, so the figures come first. */
  const listed = <T>(name: QueryKey, ask: Figure<T>['read']): Figure<T> => ({
    queryKey: key(...name),
    read: fromStats ? async (priority, signal) => (await stats.after(), ask(priority, signal)) : ask,
  });
  const countContacts = (name: QueryKey, filter?: FilterNode): Figure<number> => ({
    queryKey: key('contacts', ...name),
    read: async (priority, signal) => (await api.listContacts({ limit: 1, filter, priority, signal })).meta.maxResults,
  });
  const countProducts = (name: QueryKey, filter?: FilterNode): Figure<number> => ({
    queryKey: key('products', ...name),
    read: async (priority, signal) => (await api.listProducts({ limit: 1, filter, priority, signal })).meta.maxResults,
  });
  const contactsOf = (answer: Stats) => section(answer, 'contacts');
  const weekCount = (week: WeekBucket) => (answer: Stats) => contactsOf(answer).createdByWeek.find((item) => item.weekStart === week.start.toISOString().slice(0, 10))?.count ?? 0;
  const monthAgo = daysBefore(now, 30);
  // The day, not the instant: the key and the filter stay the same for a whole day, so the cache serves them.
  monthAgo.setHours(0, 0, 0, 0);

  // The figures read from stats have keys of their own (`stats` in them): a week there is a UTC week, and a count
  // cached by the request-per-figure way is never shown as one of these, nor the other way round.
  const via = fromStats ? ['stats'] : [];
  const contactCount = (name: QueryKey, fromAnswer: (answer: Stats) => number, filter?: FilterNode) =>
    counted(['contacts', ...via, ...name], fromAnswer, countContacts(name, filter).read);
  const topTags: Figure<ContactTag[]> = {
    queryKey: key('contacts', ...via, 'tags'),
    read: fromStats
      ? async () => contactsOf(await stats.read()).topTags.slice(0, TOP_TAGS)
      : async (priority, signal) =>
        (await api.listContactTags({ priority, signal })).toSorted((a, b) => b.count - a.count || a.name.localeCompare(b.name)).slice(0, TOP_TAGS),
  };
  const contacts = {
    total: contactCount(['total'], (answer) => contactsOf(answer).total),
    active: contactCount(['state', 'active'], (answer) => contactsOf(answer).byState.active, stateFilter('active')),
    pending: contactCount(['state', 'pending'], (answer) => contactsOf(answer).byState.pending, stateFilter('pending')),
    weeks: weeks.map((week) => contactCount(['week', week.start.toISOString()], weekCount(week), weekFilter(week))),
    tags: topTags,
  };
  const posts = {
    lastMonth: counted(
      ['posts', ...via, 'since', monthAgo.toISOString()],
      (answer) => section(answer, 'posts').publishedLast30Days,
      async (priority, signal) => (await api.listPosts({ limit: 1, filter: publishedSinceFilter(monthAgo), priority, signal })).meta.maxResults,
    ),
    topClaps: listed(['posts', 'top-claps'], async (priority, signal) => (await api.listPosts({ limit: TOP_POSTS, orderBy: 'claps desc', priority, signal })).items) satisfies Figure<Post[]>,
    newest: listed(['posts', 'newest'], async (priority, signal) => (await api.listPosts({ limit: CHART_POSTS, orderBy: 'publishedDate desc', priority, signal })).items) satisfies Figure<Post[]>,
  };
  const productCount = (name: QueryKey, fromAnswer: (answer: Stats) => number, filter?: FilterNode) =>
    counted(['products', ...via, ...name], fromAnswer, countProducts(name, filter).read);
  const catalog = {
    products: productCount(['total'], (answer) => section(answer, 'products').total),
    forSale: countProducts(['for-sale', true], forSaleFilter(true)),
    notForSale: countProducts(['for-sale', false], forSaleFilter(false)),
    /** With `fromStats`: the products by status, in place of `forSale` and `notForSale`. */
    byStatus: fromStats
      ? (['active', 'draft', 'archived'] as const).map((status) => ({ status, figure: productCount(['status', status], (answer) => section(answer, 'products').byStatus[status]) }))
      : null,
    /** With `fromStats`: the collections' total from the stats answer, else from the first page's `maxResults`. */
    collectionsTotal: fromStats ? counted(['collections', 'stats', 'total'], (answer) => section(answer, 'collections').total, async () => 0) : null,
    collections: listed(['collections', 'first-page'], async (priority, signal) => {
      const page = await api.listCollections({ limit: COLLECTIONS_COUNTED, priority, signal });
      return { total: page.meta.maxResults, items: page.items.map((item) => ({ id: item.id, title: item.title ?? null })) };
    }) satisfies Figure<{ total: number; items: { id: string; title: string | null }[] }>,
    /** The products of one collection: a figure per collection of the first page. */
    inCollection: (collectionId: string) => countProducts(['collection', collectionId], inCollectionFilter(collectionId)),
  };
  return { contacts, posts, catalog, tagFilter };
}

export type OverviewFigures = ReturnType<typeof overviewFigures>;
