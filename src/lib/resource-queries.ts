/**
 * The query options every paged resource of the console shares (issue 38 point 4, in the spirit of react-admin's
 * dataProvider): `['ws', workspaceId, resource]` and below it `'list'` (a page: `{ offset, limit, filter, orderBy }`,
 * the previous page kept on screen while the next loads) and `'detail'` (one record by id, `null` when the workspace
 * has none). Products, collections, posts and contacts use it, each adding its own queries beside. Keys are led by
 * the workspace (docs/style.md, queries), so a workspace's writes and events invalidate only its own. The contract
 * has no GET by id for these resources: a record is read as a one-item page filtered by `id eq '<id>'`
 * (docs/decisions.md section 6).
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListEnvelope, ListParams } from '@/api/common';
import type { ApiClient } from '@/api/client';
import { compare } from '@/api/filter/ast';
import type { ListCallParams } from '@/api/query-string';
import { LIST_STALE_MS, priorityOf } from './query-client';

/** A page of a list: from `offset`, `limit` records, those matching `filter` (all without), in `orderBy` where sortable. */
export type PageParams = Required<Pick<ListParams, 'offset' | 'limit'>> & ListParams;

/** How a resource's page is read: the typed client's list call (`api.listProducts`, ...). */
export type ListCall<T> = (api: ApiClient, params: ListCallParams) => Promise<ListEnvelope<T>>;

/**
 * The `all`, `lists`, `details`, `list` and `detail` query options of `resource` (its key under the workspace),
 * whose pages `read` reads; `staleTime`, how long a page stays fresh in ms (issue 19's LIST_STALE_MS of its area).
 */
export function resourceQueries<T>(resource: string, read: ListCall<T>, staleTime: number = LIST_STALE_MS.catalog) {
  const all = (workspaceId: string) => ['ws', workspaceId, resource] as const;
  const lists = (workspaceId: string) => [...all(workspaceId), 'list'] as const;
  const details = (workspaceId: string) => [...all(workspaceId), 'detail'] as const;
  return {
    all,
    lists,
    details,
    /** A page (`params`), at the priority the query's `meta` asks (issue 19). */
    list: (api: ApiClient, workspaceId: string, params: PageParams) =>
      queryOptions({
        queryKey: [...lists(workspaceId), params],
        queryFn: ({ signal, meta }) => read(api, { ...params, signal, priority: priorityOf(meta) }),
        placeholderData: keepPreviousData,
        staleTime,
      }),
    /** One record by id, or `null` when the workspace has none: a page of one with `$filter=id eq '<id>'`. */
    detail: (api: ApiClient, workspaceId: string, id: string) =>
      queryOptions({
        queryKey: [...details(workspaceId), id],
        queryFn: async ({ signal }): Promise<T | null> => (await read(api, { filter: compare('id', 'eq', id), limit: 1, signal })).items[0] ?? null,
      }),
  };
}
