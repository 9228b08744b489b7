/**
 * Collections' query options (issue 6). Keys are led by the workspace (STYLE.md, queries):
 * `['ws', workspaceId, 'collections', 'list', params]`; the products page keeps its collection choices under the
 * same `all` prefix, so a saved collection refreshes them. Mutations live in mutations.ts.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@/api/client';
import type { FilterNode } from '@/api/filter/ast';

export type CollectionListParams = { offset: number; limit: number; filter?: FilterNode };

export const collectionQueries = {
  all: (workspaceId: string) => ['ws', workspaceId, 'collections'] as const,
  lists: (workspaceId: string) => [...collectionQueries.all(workspaceId), 'list'] as const,
  list: (api: ApiClient, workspaceId: string, params: CollectionListParams) =>
    queryOptions({
      queryKey: [...collectionQueries.lists(workspaceId), params],
      queryFn: ({ signal }) => api.listCollections({ ...params, signal }),
      placeholderData: keepPreviousData,
    }),
};
