/**
 * Collections' query options (issue 6). Keys are led by the workspace (docs/style.md, queries):
 * `['ws', workspaceId, 'collections', 'list', params]`; the products page keeps its collection choices under the
 * same `all` prefix, so a saved collection refreshes them. `detail(id)` is one collection (issue 14, point 2).
 * Mutations live in mutations.ts.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Collection } from '@/api/catalog';
import type { ApiClient } from '@/api/client';
import { type FilterNode, compare } from '@/api/filter/ast';
import { LIST_STALE_MS, priorityOf } from '@/lib/query-client';

export type CollectionListParams = { offset: number; limit: number; filter?: FilterNode };

export const collectionQueries = {
  all: (workspaceId: string) => ['ws', workspaceId, 'collections'] as const,
  lists: (workspaceId: string) => [...collectionQueries.all(workspaceId), 'list'] as const,
  list: (api: ApiClient, workspaceId: string, params: CollectionListParams) =>
    queryOptions({
      queryKey: [...collectionQueries.lists(workspaceId), params],
      queryFn: ({ signal, meta }) => api.listCollections({ ...params, signal, priority: priorityOf(meta) }),
      placeholderData: keepPreviousData,
      staleTime: LIST_STALE_MS.catalog,
    }),
  /** One collection by id, or `null` when the workspace has none: `GET /collections` with `$filter=id eq '<id>'` (no GET by id). */
  detail: (api: ApiClient, workspaceId: string, id: string) =>
    queryOptions({
      queryKey: [...collectionQueries.all(workspaceId), 'detail', id],
      queryFn: async ({ signal }): Promise<Collection | null> => (await api.listCollections({ filter: compare('id', 'eq', id), limit: 1, signal })).items[0] ?? null,
    }),
};
