/**
 * Query options for the organization's workspaces (`GET /workspaces`, feeds:read-only). Keys start with the
 * workspace on screen, so a switch never shows another workspace's cache (docs/style.md, queries).
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@/api/client';
import { compare, literalLike } from '@/api/filter/ast';
import { LIST_STALE_MS, priorityOf } from '@/lib/query-client';

/** The sort orders of the workspace list (workspaces sort by `name` and `created`, docs/decisions.md section 6). */
export type WorkspaceOrder = 'name asc' | 'name desc' | 'created asc' | 'created desc';

export type WorkspaceListParams = { offset: number; limit: number; search?: string; orderBy?: WorkspaceOrder };

/** Query options of the workspace list, keyed `['ws', workspaceId, 'workspaces', ...]`. */
export const workspaceQueries = {
  all: (workspaceId: string) => ['ws', workspaceId, 'workspaces'] as const,
  lists: (workspaceId: string) => [...workspaceQueries.all(workspaceId), 'list'] as const,
  list: (api: ApiClient, workspaceId: string, params: WorkspaceListParams) =>
    queryOptions({
      queryKey: [...workspaceQueries.lists(workspaceId), params],
      queryFn: ({ signal, meta }) =>
        api.listWorkspaces({
          offset: params.offset,
          limit: params.limit,
          filter: params.search?.trim() ? compare('name', 'like', literalLike(params.search)) : undefined,
          orderBy: params.orderBy,
          signal,
          priority: priorityOf(meta),
        }),
      placeholderData: keepPreviousData,
      staleTime: LIST_STALE_MS.workspaces,
    }),
};
