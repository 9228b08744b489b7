/**
 * The workspace's live changes (issue 36 points 5 and 6), loaded only where `GET /extensions` names `events`
 * (workspace-layout.tsx): joins the browser's one stream (live-changes.ts) and turns each event into the least the
 * screens need (docs/decisions.md section 13):
 * - records created elsewhere are counted, not loaded (live-store.ts): an open list shows "3 new contacts: show"
 *   instead of jumping; lists off screen are marked stale, to load when next shown;
 * - records changed elsewhere (named by id) refetch their open drawer and the lists on screen, in place (rows keep
 *   their order and selection), and are marked "changed elsewhere" for the drawer's notice;
 * - a change too large to name (`ids: null`) or a `reset` marks the resource's queries stale and says "the list
 *   changed".
 * Nothing polls: without the extension nothing here runs (issue 36 point 7).
 */
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { StreamEvent } from '@/api/event-stream';
import { useWorkspaceApi } from '../api';
import { LiveChanges } from './live-changes';
import { noteChanged, noteCreated } from './live-store';

/** The query areas (`['ws', workspaceId, <area>]`) each resource of an event touches. */
const AREAS: Record<string, readonly string[]> = {
  contact: ['contacts', 'overview'],
  product: ['products', 'collections', 'overview'],
  collection: ['collections', 'products', 'overview'],
  'post-request': ['posts', 'overview'],
  post: ['posts', 'overview'],
  view: ['views'],
};

/** The area whose list shows "N new" for a resource (the others are only marked stale). */
const LIST_AREA: Record<string, string> = { contact: 'contacts', product: 'products', collection: 'collections', 'post-request': 'posts', post: 'posts' };

/** Applies one event of the stream to the query cache and the live store. */
export function applyLiveEvent(queryClient: QueryClient, workspaceId: string, event: StreamEvent): void {
  const stale = (area: string) => queryClient.invalidateQueries({ queryKey: ['ws', workspaceId, area], refetchType: 'none' });
  if (event.type === 'reset') {
    for (const area of new Set(Object.values(AREAS).flat())) void stale(area);
    for (const resource of new Set(Object.values(LIST_AREA))) noteCreated(workspaceId, resource, null);
    return;
  }
  if (event.type !== 'change') return;
  const { resource, ids, action } = event.data;
  const areas = AREAS[resource] ?? [];
  const listArea = LIST_AREA[resource];
  // The activity log always changes with a write; its page refetches when shown.
  void stale('activity');
  if (ids === null || action === 'create') {
    for (const area of areas) void stale(area);
    if (listArea) noteCreated(workspaceId, listArea, ids);
    return;
  }
  noteChanged(workspaceId, ids);
  for (const area of areas) {
    // Open drawers of these records and the lists on screen load again, in place; the rest is stale until shown.
    for (const id of ids) void queryClient.invalidateQueries({ queryKey: ['ws', workspaceId, area, 'detail', id] });
    void queryClient.invalidateQueries({ queryKey: ['ws', workspaceId, area, 'list'] });
    void stale(area);
  }
}

/** Joins the change stream of the workspace on screen while mounted. Renders nothing. */
export function LiveWatch() {
  const { api, workspaceId, connection } = useWorkspaceApi();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!connection.apiKey) return;
    const live = new LiveChanges(api, connection.baseUrl, connection.apiKey);
    const stop = live.subscribe((event) => applyLiveEvent(queryClient, workspaceId, event));
    live.start();
    return () => {
      stop();
      live.stop();
    };
  }, [api, connection.baseUrl, connection.apiKey, queryClient, workspaceId]);
  return null;
}
