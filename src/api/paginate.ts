/**
 * Walking a paged list (interface document, "Pagination, sorting and filtering" rule 1; docs/decisions.md section 6):
 * raise `$offset` page by page until `meta.maxResults` is covered, within the endpoint's caps.
 */
import { DEFAULT_PAGE_CAPS, type PageCaps } from './common';

/** The page `paginate` asks `fetchPage` for: spread it into a list call (`client.listContacts({ ...page, filter })`). */
export type PageRequest = { offset: number; limit: number; signal?: AbortSignal };

/** What `fetchPage` answers: a list envelope (`{ items, meta: { maxResults } }`), extra fields allowed. */
export type PageResponse<Item> = { items: readonly Item[]; meta: { maxResults: number } };

/**
 * Options of `paginate`.
 * - `caps`: the endpoint's caps, `DEFAULT_PAGE_CAPS` (default) or `POSTS_PAGE_CAPS`;
 * - `pageSize`: items per request, default `caps.maxLimit` (fewest requests), lowered to `caps.maxLimit`;
 * - `maxItems`: stop after yielding this many (the last request then asks only for what is still wanted);
 * - `signal`: passed to every `fetchPage` call and checked between pages.
 */
export type PaginateOptions = { pageSize?: number; maxItems?: number; caps?: PageCaps; signal?: AbortSignal };

/** Why a walk ended; the generator's return value. */
export type PaginateStop = 'end' | 'empty-page' | 'max-items' | 'offset-cap';

/** Return value of `paginate` (visible to callers driving it with `next()`): items yielded, last `maxResults`, and why it stopped. */
export type PaginateSummary = { yielded: number; maxResults: number | null; stop: PaginateStop };

/**
 * Yields every item of a list, one page after another. Page n starts at the number of items received so far
 * (so a service that returns fewer items than asked skips none). It stops when:
 * - the next offset reaches `meta.maxResults` of the latest page (`end`);
 * - a page comes back empty (`empty-page`), e.g. rows were deleted during the walk;
 * - `maxItems` items were yielded (`max-items`);
 * - the next offset would exceed `caps.maxOffset` (`offset-cap`): on the posts lists (`$offset` at most 100,
 *   `$limit` at most 30) at most `maxOffset + pageSize` items are reachable; the walk ends there instead of
 *   provoking a 400.
 * Rows inserted or deleted during a walk can shift pages (an item seen twice or missed); walk a stable order.
 *
 * @throws RangeError for a `pageSize` that is not a positive integer or a `maxItems` that is not a non-negative
 *   integer (`maxItems` 0 yields nothing and fetches nothing).
 * @throws whatever `fetchPage` throws (an `ApiError`, the AbortError), and the abort reason when `signal` aborts
 *   between pages.
 */
export async function* paginate<Item>(
  fetchPage: (page: PageRequest) => Promise<PageResponse<Item>>,
  options: PaginateOptions = {},
): AsyncGenerator<Item, PaginateSummary, undefined> {
  const caps = options.caps ?? DEFAULT_PAGE_CAPS;
  const pageSize = Math.min(options.pageSize ?? caps.maxLimit, caps.maxLimit);
  const maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`pageSize must be a positive integer, not ${String(options.pageSize)}`);
  if (maxItems !== Number.POSITIVE_INFINITY && (!Number.isInteger(maxItems) || maxItems < 0)) {
    throw new RangeError(`maxItems must be a non-negative integer, not ${String(options.maxItems)}`);
  }
  let offset = 0;
  let yielded = 0;
  let maxResults: number | null = null;
  if (maxItems === 0) return { yielded, maxResults, stop: 'max-items' };
  for (;;) {
    options.signal?.throwIfAborted();
    const limit = Math.min(pageSize, maxItems - yielded);
    const page = await fetchPage(options.signal ? { offset, limit, signal: options.signal } : { offset, limit });
    maxResults = page.meta.maxResults;
    if (page.items.length === 0) return { yielded, maxResults, stop: 'empty-page' };
    for (const item of page.items) {
      yield item;
      yielded += 1;
      if (yielded >= maxItems) return { yielded, maxResults, stop: 'max-items' };
    }
    offset += page.items.length;
    if (offset >= maxResults) return { yielded, maxResults, stop: 'end' };
    if (caps.maxOffset !== undefined && offset > caps.maxOffset) return { yielded, maxResults, stop: 'offset-cap' };
  }
}
