/**
 * Shared views (issue 36 point 8): a list's view kept by our service for the whole workspace (its extension
 * `shared-views`, docs/decisions.md section 13: `GET /views` with contacts:read-only, `POST`/`PUT`/`DELETE /views`
 * with contacts:read-write), beside the personal views kept on this device (saved-view-store.ts). The service's views are
 * of the contacts list only (`resource: "contacts"`), so only that list offers "Share with the workspace".
 *
 * A shared view holds the request, not the address: `{ filter, orderBy, columns, pageSize }` (the `$filter` and
 * `$orderBy` texts, the columns shown, the page size). Opening one is following the list address this module makes
 * of it (`sharedViewSearch`): the filter as the list's advanced filter (`filter=`), the order as `sort=field:dir`,
 * the size as `size=` and the columns left out as `hide=` (as a personal view's link), so it can be bookmarked and
 * copied like a personal one and a list shows which view is current the same way.
 *
 * Loaded with the saved views row only where `GET /extensions` names `shared-views` (saved-views-row.tsx).
 */
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { isApiError } from '@/api/api-error';
import type { ApiClient } from '@/api/client';
import type { FilterNode } from '@/api/filter/ast';
import { type OrderByItem, printOrderBy } from '@/api/filter/order-by';
import { printFilter } from '@/api/filter/print';
import type { SharedView } from '@/api/live';
import { refreshOtherTabs } from './data-changed';
import { isStreamLive, noteOwnWrite } from './live/live-store';
import { LIST_STALE_MS } from './query-client';
import { nameProblemAmong, viewSearch } from './saved-view-store';

/**
 * What a list page tells the saved views row so that its current state can be shared (docs/decisions.md section 13):
 * the request it sends now and its table's column ids. The list reads `filter` (a `$filter` text), `sort`
 * (`field:asc,field:desc`) and `size` from its address, as the contacts list does.
 */
export type ShareSource = {
  /** The resource of the views (`contacts`, the only one the service keeps). */
  resource: 'contacts';
  /** The filter the list requests now (none: every record). */
  filter: FilterNode | undefined;
  /** The order it requests now (empty: the default order). */
  orderBy: readonly OrderByItem[];
  /** Its page size. */
  pageSize: number;
  /** Every column id of its table, in order (the hidden ones included). */
  columns: readonly string[];
};

/** A shared view's `query` as this console sends it: every member given. */
export type ViewQuery = { filter: string | null; orderBy: string | null; columns: string[]; pageSize: number };

/** The longest name of a shared view (docs/decisions.md section 13: 1 to 100 characters). */
export const SHARED_VIEW_NAME_MAX = 100;

/** The page size a view of the service has when it names none (docs/live.md), left out of a view's address. */
export const DEFAULT_VIEW_PAGE_SIZE = 20;

/**
 * Shared views' query options (docs/style.md, queries): `['ws', workspaceId, 'views', 'list']`, one request for
 * every view of the workspace (`GET /views` answers them all), fresh for 5 minutes (issue 19: they change seldom). A
 * person's own change is put in it from the service's answer (`applyOwnChange`: no request here) and loads it again
 * in the other tabs; a colleague's arrives as a `view` event of the change stream where the service names `events`
 * (src/lib/live/live-watch.tsx loads `['ws', workspaceId, 'views']` again, except for this tab's own change).
 */
export const sharedViewQueries = {
  all: (workspaceId: string) => ['ws', workspaceId, 'views'] as const,
  list: (api: ApiClient, workspaceId: string) =>
    queryOptions({
      queryKey: [...sharedViewQueries.all(workspaceId), 'list'],
      queryFn: async ({ signal }) => (await api.listViews({ signal })).items,
      staleTime: LIST_STALE_MS.views,
    }),
};

/**
 * The `query` of a shared view of the list's state (docs/decisions.md section 13): its filter and order as the
 * texts the list requests with, its page size, and the columns it shows (`source.columns` less `hidden`).
 */
export function viewQueryOf(source: ShareSource, hidden: readonly string[]): ViewQuery {
  return {
    filter: source.filter ? printFilter(source.filter) : null,
    orderBy: source.orderBy.length ? printOrderBy(source.orderBy) : null,
    columns: source.columns.filter((column) => !hidden.includes(column)),
    pageSize: source.pageSize,
  };
}

/**
 * An `$orderBy` text (`name asc, created desc`, docs/decisions.md section 6: the direction optional, asc by default,
 * any case) as the list address's `sort` (`name:asc,created:desc`), or null when it is not one. Read here rather than
 * with src/api/filter/order-by.ts `parseOrderBy`, which the first screens' shared chunk would then carry.
 */
function sortParam(orderBy: string): string | null {
  const items = orderBy.split(',').map((item) => item.trim().split(/\s+/));
  const readable = items.every(([field = '', direction = 'asc', ...rest]) => /^[A-Za-z_]\w*$/.test(field) && /^(asc|desc)$/i.test(direction) && !rest.length);
  return readable ? items.map(([field, direction = 'asc']) => `${field}:${direction.toLowerCase()}`).join(',') : null;
}

/**
 * The list address's query string of `view` (see the module's docstring), in saved-view-store.ts `viewSearch`'s form:
 * `filter`, `sort`, `size` (left out at the default 20) and `hide` (the columns of `tableColumns` the view does not
 * show; none when the view names no columns), keys sorted. An order the address cannot carry is left out.
 */
export function sharedViewSearch(view: Pick<SharedView, 'query'>, tableColumns: readonly string[]): string {
  const params = new URLSearchParams();
  const { filter, orderBy, columns, pageSize } = view.query;
  if (filter) params.set('filter', filter);
  const sort = orderBy ? sortParam(orderBy) : null;
  if (sort) params.set('sort', sort);
  if (pageSize !== DEFAULT_VIEW_PAGE_SIZE) params.set('size', String(pageSize));
  const hidden = columns.length ? tableColumns.filter((column) => !columns.includes(column)) : [];
  return viewSearch(params, hidden);
}

/**
 * True when the list shows `view` now: it requests the same filter, order and page size, and shows the view's columns
 * (any, when the view names none). Compared by request rather than by address, so a view shared from the list's
 * facets is current right away, though its link opens the same filter as the advanced one.
 */
export function isSharedViewShown(view: Pick<SharedView, 'query'>, shown: ViewQuery): boolean {
  const { filter, orderBy, columns, pageSize } = view.query;
  const sameColumns = !columns.length || (columns.length === shown.columns.length && columns.every((column, index) => shown.columns[index] === column));
  return filter === shown.filter && orderBy === shown.orderBy && pageSize === shown.pageSize && sameColumns;
}

/** Why `name` cannot name a shared view (blank, over `max`, taken by another view ignoring case), or null. */
export function sharedNameProblem(views: readonly Pick<SharedView, 'viewId' | 'name'>[], name: string, max: number, except?: string): 'missing' | 'too-long' | 'taken' | null {
  return nameProblemAmong(views.map((view) => ({ id: view.viewId, name: view.name })), name, max, except);
}

/**
 * `views` (as `GET /views` answers them: by name ignoring case, then id; server/db/views.ts) with `view` in place of
 * the one of its id, or added in its place.
 */
export function withView(views: readonly SharedView[], view: SharedView): SharedView[] {
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...withoutView(views, view.viewId), view].sort((a, b) => compare(a.name.toLowerCase(), b.name.toLowerCase()) || compare(a.viewId, b.viewId));
}

/** `views` without the one of id `viewId`. */
export function withoutView(views: readonly SharedView[], viewId: string): SharedView[] {
  return views.filter((view) => view.viewId !== viewId);
}

/**
 * Puts a change this tab made to the shared view `viewId` into its cached list from the service's answer (`change`,
 * which gives the same list applied twice), so the change costs no `GET /views` here (issue 36 point 8); marks the
 * view as this tab's own write, so the change stream's event of it loads nothing again (src/lib/live/live-watch.tsx);
 * and, unless the change stream is live (then its event reaches them), tells the console's other tabs to load the
 * views again (data-changed.ts). A load under way is waited for and the change put on its answer. A list never loaded is
 * left to load when shown; one whose load failed loads again (one request).
 */
export async function applyOwnChange(queryClient: QueryClient, api: ApiClient, workspaceId: string, viewId: string, change: (views: readonly SharedView[]) => SharedView[]): Promise<void> {
  noteOwnWrite(workspaceId, [viewId]);
  // Where the change stream is live the other tabs hear the change as its event: told here too, they loaded twice.
  if (!isStreamLive(workspaceId)) refreshOtherTabs(sharedViewQueries.all(workspaceId));
  const { queryKey } = sharedViewQueries.list(api, workspaceId);
  const query = queryClient.getQueryCache().find<SharedView[]>({ queryKey, exact: true });
  if (!query) return;
  if (query.state.fetchStatus !== 'idle') await query.promise?.catch(() => undefined);
  const { data, isInvalidated } = query.state;
  if (!data) return queryClient.invalidateQueries({ queryKey });
  queryClient.setQueryData(queryKey, change(data));
  // Marked stale before (a fresh change stream's reset), it stays so.
  if (isInvalidated) await queryClient.invalidateQueries({ queryKey, refetchType: 'none' });
}

/** Shares `query` with the workspace as `name` (`POST /views`, docs/decisions.md section 13); the view made. */
export async function createSharedView(api: ApiClient, queryClient: QueryClient, workspaceId: string, name: string, query: ViewQuery): Promise<SharedView> {
  const view = await api.createView({ name: name.trim(), resource: 'contacts', query });
  await applyOwnChange(queryClient, api, workspaceId, view.viewId, (views) => withView(views, view));
  return view;
}

/** Renames the shared `view` for the whole workspace (`PUT /views/{viewId}`, the rest of the view unchanged). */
export async function renameSharedView(api: ApiClient, queryClient: QueryClient, workspaceId: string, view: SharedView, name: string): Promise<SharedView> {
  const { filter, orderBy, columns, pageSize } = view.query;
  const renamed = await api.replaceView(view.viewId, { name: name.trim(), resource: 'contacts', query: { filter, orderBy, columns, pageSize } });
  await applyOwnChange(queryClient, api, workspaceId, view.viewId, (views) => withView(views, renamed));
  return renamed;
}

/** Deletes the shared `viewId` for the whole workspace (`DELETE /views/{viewId}`); one already gone counts as deleted. */
export async function deleteSharedView(api: ApiClient, queryClient: QueryClient, workspaceId: string, viewId: string): Promise<void> {
  try {
    await api.deleteView(viewId);
  } catch (error) {
    if (!(isApiError(error) && error.status === 404)) throw error;
  }
  await applyOwnChange(queryClient, api, workspaceId, viewId, (views) => withoutView(views, viewId));
}
