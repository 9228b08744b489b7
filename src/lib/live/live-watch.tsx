/**
 * The workspace's live changes (issue 36 points 5 and 6; docs/decisions.md section 13, docs/live.md), loaded only
 * where `GET /extensions` names `events` (src/app/workspace-layout.tsx): joins the browser's one stream
 * (live-changes.ts) and turns each event into the least the screens need:
 * - contacts created elsewhere are counted, not loaded (live-store.ts): the open list shows "3 new contacts: show"
 *   instead of jumping; the contacts' queries are marked stale, to load when next shown;
 * - contacts changed elsewhere that a screen shows (a row of a list on screen, an open drawer) are loaded by id in
 *   one request (`$filter=id in (...)`) and replaced in every cached list and look-up in place: rows keep their
 *   order, selection and scroll, the drawer shows the new values and says who changed it; those no screen shows
 *   cost nothing now and load when next shown; one that the service no longer has loads the lists on screen again;
 * - other resources (products, collections, posts, views) load their queries on screen again and mark the rest
 *   stale, except for a change this tab made itself and already put in its cache (a shared view's);
 * - an event too large to name (`ids: null`) or a `reset` after a resumption ("what was missed cannot be told"; also
 *   the first stream after one that could not open, such as a 429's pause) says "the list changed: show" on the
 *   contacts list and loads the other screens again. The `reset` that opens every fresh stream only marks everything
 *   stale.
 * While the service refuses the stream (a 429: the key holds 5 already), the page says live updates are paused
 * (live-notice.tsx). Nothing polls: without the extension none of this is loaded (issue 36 point 7).
 */
import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ApiClient } from '@/api/client';
import type { StreamEvent } from '@/api/event-stream';
import { inList } from '@/api/filter/ast';
import { useWorkspaceApi } from '../workspace-api';
import { LiveChanges, type LiveState } from './live-changes';
import { LiveNotice } from './live-notice';
import { clearCreated, noteChanged, noteCreated, setStreamLive, takeOwnWrite } from './live-store';

/** The query areas (`['ws', workspaceId, <area>]`) each resource of an event touches. */
const AREAS: Record<string, readonly string[]> = {
  contact: ['contacts', 'overview'],
  product: ['products', 'collections', 'overview'],
  collection: ['collections', 'products', 'overview'],
  'post-request': ['posts', 'overview'],
  view: ['views'],
};

/**
 * Resources whose changed records are loaded by id and replaced in place: the area of their queries (lists keyed
 * `[..., 'list', params]` holding `{ items }`, look-ups `[..., 'detail', id]` holding the record or null) and the
 * one request that loads records by id.
 */
const IN_PLACE: Record<string, { area: string; load: (api: ApiClient, ids: string[]) => Promise<readonly { id: string }[]> }> = {
  contact: { area: 'contacts', load: async (api, ids) => (await api.listContacts({ filter: inList('id', ids), limit: ids.length, priority: 'person' })).items },
};

/** At most this many ids in one `id in (...)`: 40 UUIDs stay under a filter's 2,000 characters (docs/decisions.md section 6). */
const IDS_PER_LOAD = 40;

type WithItems = { items: readonly { id: string }[] };
const hasItems = (data: unknown): data is WithItems => typeof data === 'object' && data !== null && Array.isArray((data as WithItems).items);
const isRecord = (data: unknown): data is { id: string } => typeof data === 'object' && data !== null && typeof (data as { id?: unknown }).id === 'string';

/** The ids of `area`'s records that a screen shows now: rows of lists on screen, look-ups open. */
function idsOnScreen(queryClient: QueryClient, workspaceId: string, area: string): Set<string> {
  const shown = new Set<string>();
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ['ws', workspaceId, area] })) {
    if (!query.getObserversCount()) continue;
    const data = query.state.data;
    if (hasItems(data)) for (const item of data.items) shown.add(item.id);
    else if (isRecord(data)) shown.add(data.id);
  }
  return shown;
}

/** Puts `records` in place of their older versions in every cached list and look-up of `area`. */
function replaceCached(queryClient: QueryClient, workspaceId: string, area: string, records: readonly { id: string }[]): void {
  const byId = new Map(records.map((record) => [record.id, record]));
  queryClient.setQueriesData<unknown>({ queryKey: ['ws', workspaceId, area, 'list'] }, (data: unknown) =>
    hasItems(data) && data.items.some((item) => byId.has(item.id)) ? { ...data, items: data.items.map((item) => byId.get(item.id) ?? item) } : data,
  );
  for (const record of records) {
    const key: QueryKey = ['ws', workspaceId, area, 'detail', record.id];
    if (queryClient.getQueryData(key) !== undefined) queryClient.setQueryData(key, record);
  }
}

/**
 * Loads the records `ids` of `resource` that a screen shows and replaces them in place (one request per
 * IDS_PER_LOAD of them; none when no screen shows any). When one is gone, or the load fails, the screens showing
 * the area load again. Resolves when done.
 */
async function refreshInPlace(api: ApiClient, queryClient: QueryClient, workspaceId: string, resource: string, ids: readonly string[]): Promise<void> {
  const config = IN_PLACE[resource];
  if (!config) return;
  const shown = idsOnScreen(queryClient, workspaceId, config.area);
  const wanted = ids.filter((id) => shown.has(id));
  for (let at = 0; at < wanted.length; at += IDS_PER_LOAD) {
    const chunk = wanted.slice(at, at + IDS_PER_LOAD);
    try {
      const records = await config.load(api, chunk);
      replaceCached(queryClient, workspaceId, config.area, records);
      if (records.length < chunk.length) await queryClient.invalidateQueries({ queryKey: ['ws', workspaceId, config.area], refetchType: 'active' });
    } catch {
      await queryClient.invalidateQueries({ queryKey: ['ws', workspaceId, config.area], refetchType: 'active' });
      return;
    }
  }
}

/**
 * Applies one event of the stream (docs/decisions.md section 13) to the query cache and the live store (see the
 * module's docstring). `resumed`: the stream it came on was opened with `Last-Event-ID`, so a `reset` means changes
 * were missed. Resolves once what it loads is in.
 */
export async function applyLiveEvent(api: ApiClient, queryClient: QueryClient, workspaceId: string, event: StreamEvent, resumed: boolean): Promise<void> {
  const stale = (area: string) => queryClient.invalidateQueries({ queryKey: ['ws', workspaceId, area], refetchType: 'none' });
  const reload = (area: string) => queryClient.invalidateQueries({ queryKey: ['ws', workspaceId, area], refetchType: 'active' });
  if (event.type === 'other') return;
  if (event.type === 'reset') {
    const areas = new Set(Object.values(AREAS).flat());
    if (!resumed) {
      await Promise.all([...areas].map(stale));
      return;
    }
    noteCreated(workspaceId, 'contacts', null);
    await Promise.all([...areas].map((area) => (area === 'contacts' ? stale(area) : reload(area))));
    return;
  }
  const { resource, ids: named, action } = event.data;
  // This tab's own writes coming back, one event each, are in its cache already (a shared view's,
  // src/lib/shared-views.ts; a contact's save): what is left is a colleague's.
  const ids = named === null ? null : named.filter((id) => !takeOwnWrite(workspaceId, id));
  const areas = AREAS[resource] ?? [];
  // The activity log grows with every write; its screens load it when next shown.
  void stale('activity');
  const inPlace = IN_PLACE[resource];
  if (!inPlace) {
    if (ids?.length === 0) return;
    await Promise.all(areas.map(reload));
    return;
  }
  if (ids === null || action === 'create') {
    noteCreated(workspaceId, inPlace.area, ids);
    await Promise.all(areas.map(stale));
    return;
  }
  noteChanged(workspaceId, ids);
  await refreshInPlace(api, queryClient, workspaceId, resource, ids);
  await Promise.all(areas.map(stale));
}

/**
 * Joins the change stream of the workspace on screen while mounted (docs/decisions.md section 13). Renders what the
 * person is told of it: that live updates are paused while the service refuses the stream (live-notice.tsx).
 */
export function LiveWatch() {
  const { api, workspaceId, connection } = useWorkspaceApi();
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');
  useEffect(() => {
    if (!connection.apiKey) return;
    const live = new LiveChanges(api, connection.baseUrl, connection.apiKey);
    const stop = live.subscribe((event, resumed) => void applyLiveEvent(api, queryClient, workspaceId, event, resumed));
    const unwatch = live.watchState((next) => {
      setStreamLive(workspaceId, next === 'live');
      setState(next);
    });
    live.start();
    return () => {
      stop();
      unwatch();
      live.stop();
      setStreamLive(workspaceId, false);
      setState('connecting');
      clearCreated(workspaceId, 'contacts');
    };
  }, [api, connection.baseUrl, connection.apiKey, queryClient, workspaceId]);
  return <LiveNotice state={state} />;
}
