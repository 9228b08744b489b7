/** Query options for the published posts, keys led by the workspace id (STYLE.md, queries). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@/api/client';
import type { FilterNode } from '@/api/filter/ast';
import type { OrderByItem } from '@/api/filter/order-by';

export type PostListParams = { offset: number; limit: number; filter?: FilterNode; orderBy?: OrderByItem[] };

export const postQueries = {
  all: (workspaceId: string) => ['ws', workspaceId, 'posts'] as const,
  lists: (workspaceId: string) => [...postQueries.all(workspaceId), 'list'] as const,
  list: (api: ApiClient, workspaceId: string, params: PostListParams) =>
    queryOptions({
      queryKey: [...postQueries.lists(workspaceId), params],
      queryFn: ({ signal }) => api.listPosts({ ...params, signal }),
      placeholderData: keepPreviousData,
    }),
};
