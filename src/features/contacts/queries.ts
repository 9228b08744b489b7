/**
 * Query options for contacts: `all -> lists() -> list(params) -> tags()`, keys led by the workspace id
 * (STYLE.md, queries), so a mutation invalidates by prefix and a workspace switch never shows stale rows.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@/api/client';
import type { FilterNode } from '@/api/filter/ast';
import type { OrderByItem } from '@/api/filter/order-by';

export type ContactListParams = { offset: number; limit: number; filter?: FilterNode; orderBy?: OrderByItem[] };

export const contactQueries = {
  all: (workspaceId: string) => ['ws', workspaceId, 'contacts'] as const,
  lists: (workspaceId: string) => [...contactQueries.all(workspaceId), 'list'] as const,
  list: (api: ApiClient, workspaceId: string, params: ContactListParams) =>
    queryOptions({
      queryKey: [...contactQueries.lists(workspaceId), params],
      queryFn: ({ signal }) => api.listContacts({ ...params, signal }),
      placeholderData: keepPreviousData,
    }),
  tags: (api: ApiClient, workspaceId: string) =>
    queryOptions({ queryKey: [...contactQueries.all(workspaceId), 'tags'], queryFn: () => api.listContactTags() }),
};
