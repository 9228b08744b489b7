/**
 * Lists that go stale after a job (issue 14, point 8). `refreshEverywhere(queryClient, queryKey)` marks the
 * queries under `queryKey` stale in this tab (those on screen refetch) and tells every other tab of this browser
 * showing the console to do the same, through a BroadcastChannel; `listenForChanges(queryClient)`, installed once
 * with the query client, applies what other tabs send. Keys are React Query keys led by `'ws', workspaceId`
 * (docs/style.md, queries), so a tab refreshes only the workspace named. Without BroadcastChannel, only this tab.
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';

let channel: BroadcastChannel | null | undefined;

function changes(): BroadcastChannel | null {
  if (channel === undefined) channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('workspace-admin.data-changed') : null;
  return channel;
}

/** Invalidates `queryKey` here and in the console's other tabs; resolves when this tab's refetches are done. */
export function refreshEverywhere(queryClient: QueryClient, queryKey: QueryKey): Promise<void> {
  changes()?.postMessage({ queryKey });
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
