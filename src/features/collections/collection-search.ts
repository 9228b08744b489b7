/**
 * The collections list's URL state (issue 6; docs/style.md, lists): page and size, a title search, and created and
 * updated ranges of whole local days, parsed with zod so a malformed value falls back to its default, and
 * composed into one `$filter` AST with the shared builders (docs/decisions.md section 6: `like` on `title`, dates
 * compared as instants). `GET /collections` has no `$orderBy`, so there is no sort state.
 */
import * as z from 'zod/mini';
import { type FilterNode, and } from '@/api/filter/ast';
import { containsFilter, dayParam, dayRangeFilter, pageParams } from '@/lib/list-facets';

export const collectionSearchSchema = z.object({
  ...pageParams,
  /** Words of the title (contains, case-insensitive). */
  q: z._default(z.string().check(z.maxLength(200)), ''),
  createdFrom: z.optional(dayParam),
  createdTo: z.optional(dayParam),
  updatedFrom: z.optional(dayParam),
  updatedTo: z.optional(dayParam),
});
export type CollectionSearch = z.output<typeof collectionSearchSchema>;

/** The `$filter` for the search: every given facet, joined with `and`; undefined when none is given. */
export function collectionFilter(search: CollectionSearch): FilterNode | undefined {
  return and(
    containsFilter('title', search.q),
    dayRangeFilter('created', search.createdFrom, search.createdTo),
    dayRangeFilter('updated', search.updatedFrom, search.updatedTo),
  );
}

/** True when any facet narrows the list. */
export function isCollectionFiltered(search: CollectionSearch): boolean {
  return collectionFilter(search) !== undefined;
}

/** The patch that clears every facet (the page size stays). */
export const CLEAR_COLLECTION_FILTERS: Partial<CollectionSearch> = { q: '', createdFrom: undefined, createdTo: undefined, updatedFrom: undefined, updatedTo: undefined };
