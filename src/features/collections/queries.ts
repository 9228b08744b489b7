/**
 * Collections' query options (issue 6). Keys are led by the workspace (docs/style.md, queries):
 * `['ws', workspaceId, 'collections', 'list', params]`; the products page keeps its collection choices under the
 * same `all` prefix, so a saved collection refreshes them. `list` and `detail(id)` (one collection, issue 14 point 2)
 * are the catalog's shared ones (src/lib/resource-queries.ts).
 * A collection's products (issue 34 point 10: `products(...)`, a page of them; `productChoices(...)`, those it could take)
 * are products lists, so they are keyed under the products' prefix, `['ws', workspaceId, 'products', 'of-collection',
 * ...]`: any product write (the products page's, an import's, the drawer's own) refreshes them.
 * Mutations live in mutations.ts.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Collection, Product } from '@/api/catalog';
import type { ApiClient } from '@/api/client';
import { LIST_STALE_MS, priorityOf } from '@/lib/query-client';
import { type PageParams, resourceQueries } from '@/lib/resource-queries';
import { COLLECTION_PRODUCTS_PAGE, PRODUCT_CHOICES, inCollection, notInCollection } from './collection-products';

/** A page of collections (src/lib/resource-queries.ts). */
export type CollectionListParams = PageParams;

export const collectionQueries = {
  ...resourceQueries<Collection>('collections', (api, params) => api.listCollections(params)),
  /** What every query of a collection's products starts with (under the products' prefix, see above). */
  ofCollection: (workspaceId: string, collectionId: string) => ['ws', workspaceId, 'products', 'of-collection', collectionId] as const,
  /** A page of collection `collectionId`'s products from `offset`: `GET /products?$filter=collectionIds eq '<id>'`. */
  products: (api: ApiClient, workspaceId: string, collectionId: string, offset: number) =>
    queryOptions({
      queryKey: [...collectionQueries.ofCollection(workspaceId, collectionId), 'page', offset],
      queryFn: ({ signal, meta }) => api.listProducts({ filter: inCollection(collectionId), offset, limit: COLLECTION_PRODUCTS_PAGE, signal, priority: priorityOf(meta) }),
      placeholderData: keepPreviousData,
      staleTime: LIST_STALE_MS.catalog,
    }),
  /** Up to PRODUCT_CHOICES products not in collection `collectionId` whose titles hold `words`: the "add a product" choices. */
  productChoices: (api: ApiClient, workspaceId: string, collectionId: string, words: string) =>
    queryOptions({
      queryKey: [...collectionQueries.ofCollection(workspaceId, collectionId), 'choices', words.trim()],
      queryFn: async ({ signal }): Promise<Product[]> => (await api.listProducts({ filter: notInCollection(collectionId, words), limit: PRODUCT_CHOICES, signal })).items,
      placeholderData: keepPreviousData,
      staleTime: 30_000,
    }),
};
