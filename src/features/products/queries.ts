/**
 * Products' query options (issue 6). Keys are led by the workspace (docs/style.md, queries):
 * `['ws', workspaceId, 'products', 'list', params]`. The collection choices (the collection filter and the form's
 * picker) are keyed under the collections' prefix, `['ws', workspaceId, 'collections', 'choices']`, so saving a
 * collection anywhere refreshes them. `detail(id)` is one product (issue 14, point 2); `refreshAfterJob` is what an
 * import calls when it ends. Mutations live in mutations.ts.
 */
import { type QueryClient, keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Collection, Product } from '@/api/catalog';
import type { ApiClient } from '@/api/client';
import { type FilterNode, compare } from '@/api/filter/ast';
import { paginate } from '@/api/paginate';
import { refreshEverywhere } from '@/lib/data-changed';
import { LIST_STALE_MS, priorityOf } from '@/lib/query-client';

export type ProductListParams = { offset: number; limit: number; filter?: FilterNode };

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
  all: (workspaceId: string) => ['ws', workspaceId, 'products'] as const,
  lists: (workspaceId: string) => [...productQueries.all(workspaceId), 'list'] as const,
  list: (api: ApiClient, workspaceId: string, params: ProductListParams) =>
    queryOptions({
      queryKey: [...productQueries.lists(workspaceId), params],
      queryFn: ({ signal, meta }) => api.listProducts({ ...params, signal, priority: priorityOf(meta) }),
      placeholderData: keepPreviousData,
      staleTime: LIST_STALE_MS.catalog,
    }),
  /** One product by id, or `null` when the workspace has none: `GET /products` with `$filter=id eq '<id>'` (no GET by id). */
  detail: (api: ApiClient, workspaceId: string, id: string) =>
    queryOptions({
      queryKey: [...productQueries.all(workspaceId), 'detail', id],
      queryFn: async ({ signal }): Promise<Product | null> => (await api.listProducts({ filter: compare('id', 'eq', id), limit: 1, signal })).items[0] ?? null,
    }),
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
