/**
 * The posts page's state in the URL (docs/style.md, lists): page, page size, sort, text search, date range, the open
 * tab and the public panel's `limit`, parsed with zod so a bad URL falls back to defaults. Also the `$filter`
 * tree (built with the AST builders) and the page caps of `GET /posts` (`$limit` 30, `$offset` 100).
 */
import dayjs from 'dayjs';
import * as z from 'zod/mini';
import { POSTS_PAGE_CAPS } from '@/api/common';
import { type FilterNode, and, between, compare, literalLike, or } from '@/api/filter/ast';
import type { OrderByItem } from '@/api/filter/order-by';

/** Page sizes offered, all within `$limit` 30. */
export const POST_PAGE_SIZES = [10, 20, 30] as const;

/** The sort choices and their `$orderBy` (posts sort by `publishedDate` and `claps`, docs/decisions.md section 6). */
export const POST_SORTS = {
  newest: { label: 'Newest first', orderBy: [{ field: 'publishedDate', direction: 'desc' }] },
  oldest: { label: 'Oldest first', orderBy: [{ field: 'publishedDate', direction: 'asc' }] },
  'most-claps': { label: 'Most claps', orderBy: [{ field: 'claps', direction: 'desc' }] },
  'fewest-claps': { label: 'Fewest claps', orderBy: [{ field: 'claps', direction: 'asc' }] },
} as const satisfies Record<string, { label: string; orderBy: OrderByItem[] }>;
export type PostSort = keyof typeof POST_SORTS;

/** A calendar day `YYYY-MM-DD` that exists (`2026-02-30` does not). */
const isoDay = z.string().check(
  z.regex(/^\d{4}-\d{2}-\d{2}$/),
  z.refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }),
);

const searchSchema = z.object({
  page: z.catch(z.coerce.number().check(z.int(), z.gte(1), z.lte(1000)), 1),
  size: z.catch(z.pipe(z.coerce.number(), z.union(POST_PAGE_SIZES.map((size) => z.literal(size)))), 10),
  sort: z.catch(z.enum(Object.keys(POST_SORTS) as [PostSort, ...PostSort[]]), 'newest'),
  q: z.catch(z.string().check(z.maxLength(200)), ''),
  from: z.catch(isoDay, ''),
  to: z.catch(isoDay, ''),
  tab: z.catch(z.enum(['published', 'public', 'planned']), 'published'),
  limit: z.catch(z.coerce.number().check(z.int(), z.gte(1), z.lte(30)), 10),
});
export type PostsSearch = z.infer<typeof searchSchema>;
export const POSTS_SEARCH_DEFAULTS: PostsSearch = searchSchema.parse({});

/** Reads the URL's search parameters; anything missing or invalid takes its default. */
export function parsePostsSearch(params: URLSearchParams): PostsSearch {
  return searchSchema.parse(Object.fromEntries(params));
}

/** The search parameters for `search`, defaults left out (so a clean URL stands for the defaults). */
export function postsSearchParams(search: PostsSearch): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of Object.keys(POSTS_SEARCH_DEFAULTS) as (keyof PostsSearch)[]) {
    if (search[key] !== POSTS_SEARCH_DEFAULTS[key]) params.set(key, String(search[key]));
  }
  return params;
}

/** The last page the caps let a list reach with this page size: its offset must be at most 100. */
export function maxReachablePage(size: number): number {
  return Math.floor((POSTS_PAGE_CAPS.maxOffset ?? 100) / size) + 1;
}

/** How many posts the caps let a list reach with this page size (110 with 10 a page, 120 with 20 or 30). */
export function reachableCount(size: number): number {
  return maxReachablePage(size) * size;
}

/** True when `from` is after `to` (the range is then ignored and the page says so). */
export function isReversedRange(search: Pick<PostsSearch, 'from' | 'to'>): boolean {
  return Boolean(search.from && search.to && search.from > search.to);
}

/**
 * The `$filter` for the search: header or text `like` the words (matched literally), and the published date
 * within the range of local days (`from` at 00:00, `to` at 23:59:59.999 in the user's time zone, sent in UTC).
 */
export function postsFilter(search: Pick<PostsSearch, 'q' | 'from' | 'to'>): FilterNode | undefined {
  const words = literalLike(search.q);
  const text = words ? or(compare('text', 'like', words), compare('header', 'like', words)) : undefined;
  let dates: FilterNode | undefined;
  if (!isReversedRange(search)) {
    const from = search.from ? dayjs(search.from).startOf('day').toISOString() : null;
    const to = search.to ? dayjs(search.to).endOf('day').toISOString() : null;
    if (from && to) dates = between('publishedDate', from, to);
    else if (from) dates = compare('publishedDate', 'ge', from);
    else if (to) dates = compare('publishedDate', 'le', to);
  }
  return and(text, dates);
}
