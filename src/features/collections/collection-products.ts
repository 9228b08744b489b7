/**
 * A collection's products (issue 34 point 10: "a collection cannot list or add its products"), framework-free so it is
 * unit-tested. The interface gives a collection no list of its products: a product names its collections
 * (docs/contract.md section 2, a listed product's `collections`, `[{ id, collectionTitle }]`), `GET /products` filters
 * on `collectionIds` with `eq` meaning "contains" and `ne` "does not contain" (docs/decisions.md section 6), and the
 * one write is the product's upsert, whose `collectionIds` replaces the product's collections whole
 * (docs/decisions.md section 7). So:
 *
 * - `inCollection(id)` / `notInCollection(id, title)`: the `$filter`s of the drawer's list and of its "add a product"
 *   search (titles containing the words typed, case-insensitive, as the products list's search);
 * - `collectionsWith` / `collectionsWithout`: the `collectionIds` of the upsert that adds the product to a collection
 *   or takes it out, every other collection of the product kept (the caller reads the product fresh first, so the
 *   window in which another write could be lost is one request long: the interface has no conditional write);
 * - `productsListSearch(id)`: the products list's URL state (src/features/products/product-search.ts, `collection`)
 *   showing the products of the collection, for the drawer's link to the whole list.
 */
import type { Product, ProductUpsert } from '@/api/catalog';
import { type FilterNode, and, compare } from '@/api/filter/ast';
import { containsFilter } from '@/lib/list-facets';

/** Products a page of the drawer's list holds. */
export const COLLECTION_PRODUCTS_PAGE = 10;
/** Products the "add a product" search offers at once (the closest titles; typing more narrows them). */
export const PRODUCT_CHOICES = 20;

/** `collectionIds eq '<id>'`: the products in collection `collectionId`. */
export function inCollection(collectionId: string): FilterNode {
  return compare('collectionIds', 'eq', collectionId);
}

/** The products not in collection `collectionId`, with `words` in their title when any are given. */
export function notInCollection(collectionId: string, words: string): FilterNode {
  return and(compare('collectionIds', 'ne', collectionId), containsFilter('title', words));
}

/** The ids of the collections `product` is in, in its order. */
function collectionIdsOf(product: Pick<Product, 'collections'>): string[] {
  return product.collections.map((collection) => collection.id);
}

/** The upsert putting `product` into collection `collectionId` as well (its other collections kept); null when it is in it already. */
export function collectionsWith(product: Pick<Product, 'id' | 'collections'>, collectionId: string): ProductUpsert | null {
  const ids = collectionIdsOf(product);
  return ids.includes(collectionId) ? null : { id: product.id, collectionIds: [...ids, collectionId] };
}

/** The upsert taking `product` out of collection `collectionId` (its other collections kept); null when it is not in it. */
export function collectionsWithout(product: Pick<Product, 'id' | 'collections'>, collectionId: string): ProductUpsert | null {
  const ids = collectionIdsOf(product);
  return ids.includes(collectionId) ? { id: product.id, collectionIds: ids.filter((id) => id !== collectionId) } : null;
}

/** The query string of the products list filtered by collection `collectionId` (`?collection=<id>`). */
export function productsListSearch(collectionId: string): string {
  return `?${new URLSearchParams({ collection: collectionId }).toString()}`;
}

/** The offset of the page to show: `offset`, or the last page's (paged by `size`) when `total` items now end before it; 0 for none. */
export function lastPageOffset(offset: number, size: number, total: number): number {
  if (total <= 0) return 0;
  const last = Math.floor((total - 1) / size) * size;
  return Math.min(offset, last);
}
