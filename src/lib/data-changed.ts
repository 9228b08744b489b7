/**
 * Lists that go stale after a job (issue 14, point 8). `refreshEverywhere(queryClient, queryKey)` marks the
 * queries under `queryKey` stale in this tab (those on screen refetch) and tells every other tab of this browser
 * showing the console to do the same, through a BroadcastChannel; `listenForChanges(queryClient)`, installed once
 * with the query client, applies what other tabs send. Keys are React Query keys led by `'ws', workspaceId`
 * (docs/style.md, queries), so a tab refreshes only the workspace named. Without BroadcastChannel, only this tab.
 * `refreshOtherTabs(queryKey)` tells the other tabs alone, for a change this tab has already put in its cache.
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';

let channel: BroadcastChannel | null | undefined;

function changes(): BroadcastChannel | null {
  if (channel === undefined) channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('workspace-admin.data-changed') : null;
  return channel;
}

/** Invalidates `queryKey` in the console's other tabs only (this tab has put the change in its cache itself). */
export function refreshOtherTabs(queryKey: QueryKey): void {
  changes()?.postMessage({ queryKey });
}

/** Invalidates `queryKey` here and in the console's other tabs; resolves when this tab's refetches are done. */
export function refreshEverywhere(queryClient: QueryClient, queryKey: QueryKey): Promise<void> {
  refreshOtherTabs(queryKey);
  return queryClient.invalidateQueries({ queryKey });
}

/** Applies the invalidations other tabs announce; returns the function that stops listening. */
export function listenForChanges(queryClient: QueryClient): () => void {
  const source = changes();
  const onMessage = (event: MessageEvent<{ queryKey?: unknown }>) => {
    const queryKey = event.data?.queryKey;
    if (Array.isArray(queryKey) && queryKey[0] === 'ws' && queryKey.every((part) => typeof part === 'string')) void queryClient.invalidateQueries({ queryKey });
  };
  source?.addEventListener('message', onMessage);
  return () => source?.removeEventListener('message', onMessage);
}
