/**
 * The products list's URL state (issue 6; docs/style.md, lists): page and size, a title search, status, type, vendor,
 * a price range, one collection and tags, parsed with zod so a malformed value falls back to its default, and
 * composed into one `$filter` AST with the shared builders. Fields and operators are those docs/decisions.md section 6
 * allows on `GET /products` (`like` on text, `between` on price, `eq` "has" on `collectionIds`, `in` "has any" on
 * `tags`). The endpoint has no `$orderBy`, so there is no sort state.
 */
import * as z from 'zod/mini';
import { PRODUCT_STATUSES } from '@/api/catalog';
import { type FilterNode, and, compare } from '@/api/filter/ast';
import { amountParam, anyOfFilter, commaListParam, containsFilter, pageParams, rangeFilter } from '@/lib/list-facets';

export const productSearchSchema = z.object({
  ...pageParams,
  /** Words of the title (contains, case-insensitive). */
  q: z._default(z.string().check(z.maxLength(200)), ''),
  status: z.optional(z.enum(PRODUCT_STATUSES)),
  type: z._default(z.string().check(z.maxLength(200)), ''),
  vendor: z._default(z.string().check(z.maxLength(200)), ''),
  /** Lowest price, inclusive. */
  min: z.optional(amountParam),
  /** Highest price, inclusive. */
  max: z.optional(amountParam),
  /** A collection id: products in it. */
  collection: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  /** Products with any of these tags. */
  tags: commaListParam,
});
export type ProductSearch = z.output<typeof productSearchSchema>;

/** The `$filter` for the search: every given facet, joined with `and`; undefined when none is given. */
export function productFilter(search: ProductSearch): FilterNode | undefined {
  return and(
    containsFilter('title', search.q),
    search.status ? compare('status', 'eq', search.status) : undefined,
    containsFilter('type', search.type),
    containsFilter('vendor', search.vendor),
    rangeFilter('price', search.min, search.max),
    search.collection ? compare('collectionIds', 'eq', search.collection) : undefined,
    anyOfFilter('tags', search.tags),
  );
}

/** True when any facet narrows the list. */
export function isProductFiltered(search: ProductSearch): boolean {
  return productFilter(search) !== undefined;
}

/** The patch that clears every facet (the page size stays). */
export const CLEAR_PRODUCT_FILTERS: Partial<ProductSearch> = {
  q: '', status: undefined, type: '', vendor: '', min: undefined, max: undefined, collection: undefined, tags: [],
};
