/**
 * Contacts' query options (issue 5). Keys: `['ws', workspaceId, 'contacts', ...]`, led by the workspace
 * (STYLE.md, queries): `all -> lists() -> list(params)`, plus `tags`. Mutations live in mutations.ts.
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
    queryOptions({ queryKey: [...contactQueries.all(workspaceId), 'tags'], queryFn: ({ signal }) => api.listContactTags({ signal }), staleTime: 30_000 }),
};

