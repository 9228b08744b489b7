/** Query options for products, keys led by the workspace id (STYLE.md, queries). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@/api/client';
import type { FilterNode } from '@/api/filter/ast';

export type ProductListParams = { offset: number; limit: number; filter?: FilterNode };

export const productQueries = {
  all: (workspaceId: string) => ['ws', workspaceId, 'products'] as const,
  lists: (workspaceId: string) => [...productQueries.all(workspaceId), 'list'] as const,
  list: (api: ApiClient, workspaceId: string, params: ProductListParams) =>
    queryOptions({
      queryKey: [...productQueries.lists(workspaceId), params],
      queryFn: ({ signal }) => api.listProducts({ ...params, signal }),
      placeholderData: keepPreviousData,
    }),
};
