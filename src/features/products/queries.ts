/**
 * Products' query options (issue 6). Keys are led by the workspace (docs/style.md, queries):
 * `['ws', workspaceId, 'products', 'list', params]`. The collection choices (the collection filter and the form's
 * picker) are keyed under the collections' prefix, `['ws', workspaceId, 'collections', 'choices']`, so saving a
 * collection anywhere refreshes them. `list` and `detail(id)` (one product, issue 14 point 2) are the catalog's shared
 * ones (src/lib/resource-queries.ts); `refreshAfterJob` is what an import calls when it ends. Mutations live in
 * mutations.ts.
 */
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type { Collection, Product } from '@/api/catalog';
import type { ApiClient } from '@/api/client';
import { paginate } from '@/api/paginate';
import { refreshEverywhere } from '@/lib/data-changed';
import { type PageParams, resourceQueries } from '@/lib/resource-queries';

/** A page of products (src/lib/resource-queries.ts). */
export type ProductListParams = PageParams;

/** A collection as a choice of a select: its id, and its title (with the handle when two titles are the same). */
export type CollectionChoice = { value: string; label: string };

/** Most collections offered as choices (ten requests of 100). */
export const MAX_COLLECTION_CHOICES = 1000;

/** Choices for `collections`: labelled by title (the handle, else the id, when untitled), duplicates told apart by handle. */
export function collectionChoices(collections: readonly Pick<Collection, 'id' | 'title' | 'handle'>[]): CollectionChoice[] {
  const labelOf = (collection: Pick<Collection, 'id' | 'title' | 'handle'>) => collection.title || collection.handle || collection.id;
  const counts = new Map<string, number>();
  for (const collection of collections) counts.set(labelOf(collection), (counts.get(labelOf(collection)) ?? 0) + 1);
  return collections
    .map((collection) => {
      const label = labelOf(collection);
      return { value: collection.id, label: (counts.get(label) ?? 0) > 1 && collection.handle ? `${label} (${collection.handle})` : label };
    })
    .sort((a, b) => a.label.localeCompare(b.label));
}

export const productQueries = {
  ...resourceQueries<Product>('products', (api, params) => api.listProducts(params)),
  /** Call when a job that changed products ends (issue 14, point 8: the CSV import): they refetch here and in the console's other tabs. */
  refreshAfterJob: (queryClient: QueryClient, workspaceId: string) => refreshEverywhere(queryClient, productQueries.all(workspaceId)),
  /** Every collection of the workspace (up to `MAX_COLLECTION_CHOICES`), as select choices sorted by label. */
  collectionChoices: (api: ApiClient, workspaceId: string) =>
    queryOptions({
      queryKey: ['ws', workspaceId, 'collections', 'choices'] as const,
      queryFn: async ({ signal }) => {
        const collections: Collection[] = [];
        for await (const collection of paginate((page) => api.listCollections(page), { signal, maxItems: MAX_COLLECTION_CHOICES })) collections.push(collection);
        return collectionChoices(collections);
      },
      staleTime: 60_000,
    }),
};
