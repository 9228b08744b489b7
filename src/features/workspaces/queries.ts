/**
 * Query options for the organization's workspaces (`GET /workspaces`, feeds:read-only). Keys start with the
 * workspace on screen, so a switch never shows another workspace's cache (STYLE.md, queries).
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@/api/client';
import { compare } from '@/api/filter/ast';

export type WorkspaceListParams = { offset: number; limit: number; search?: string; orderBy?: 'name asc' | 'name desc' | 'created asc' | 'created desc' };

export const workspaceQueries = {
  all: (workspaceId: string) => ['ws', workspaceId, 'workspaces'] as const,
  lists: (workspaceId: string) => [...workspaceQueries.all(workspaceId), 'list'] as const,
  list: (api: ApiClient, workspaceId: string, params: WorkspaceListParams) =>
    queryOptions({
      queryKey: [...workspaceQueries.lists(workspaceId), params],
      queryFn: ({ signal }) =>
        api.listWorkspaces({
          offset: params.offset,
          limit: params.limit,
          filter: params.search ? compare('name', 'like', params.search) : undefined,
          orderBy: params.orderBy,
          signal,
        }),
      placeholderData: keepPreviousData,
    }),
};
