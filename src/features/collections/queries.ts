/** Query options for collections, keys led by the workspace id (STYLE.md, queries). */
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
