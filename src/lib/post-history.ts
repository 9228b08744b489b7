/**
 * The post requests this browser sent (issue 7), per workspace, in localStorage
 * (`workspace-admin.posts.history.<workspaceId>`): the newest 50 (time, action, state, request id, a summary, the
 * publish date asked for), as a small external store for `useSyncExternalStore`. Written by the post composer, read
 * by it and by the overview (issue 24: scheduled posts the console created that are still due).
 * Storage that is full, disabled or holds damaged JSON never breaks a page: reads fall back to nothing.
 */
import { useSyncExternalStore } from 'react';
import * as z from 'zod/mini';
import { readLocal, writeLocal } from './local-state';

const historyKey = (workspaceId: string) => `workspace-admin.posts.history.${workspaceId}`;
const HISTORY_MAX = 50;

const historyEntrySchema = z.object({
  at: z.string(),
  action: z.string(),
  state: z.string(),
  requestId: z.string(),
  summary: z.catch(z.string(), ''),
  publishDate: z.catch(z.nullable(z.string()), null),
  recipients: z.catch(z.boolean(), false),
});
/** One request sent from this browser. */
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

const listeners = new Set<() => void>();
const cache = new Map<string, HistoryEntry[]>();
const EMPTY: HistoryEntry[] = [];

/** The workspace's request history, newest first. */
export function getHistory(workspaceId: string): HistoryEntry[] {
  const cached = cache.get(workspaceId);
  if (cached) return cached;
  const raw = readLocal<unknown>(historyKey(workspaceId), null);
  const entries = Array.isArray(raw) ? raw.flatMap((item) => {
    const parsed = historyEntrySchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  }) : EMPTY;
  cache.set(workspaceId, entries);
  return entries;
}

function setHistory(workspaceId: string, entries: HistoryEntry[]) {
  cache.set(workspaceId, entries);
  writeLocal(historyKey(workspaceId), entries); // storage full or disabled: the history just isn't kept
  for (const listener of listeners) listener();
}

/** Adds a sent request at the top of the history (keeping the newest 50). */
export function addHistory(workspaceId: string, entry: HistoryEntry): void {
  setHistory(workspaceId, [entry, ...getHistory(workspaceId)].slice(0, HISTORY_MAX));
}

/** Empties the workspace's history. */
export function clearHistory(workspaceId: string): void {
  setHistory(workspaceId, []);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key?.startsWith('workspace-admin.posts.history.')) {
      cache.clear();
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** React view of the workspace's request history; updates on every change, in this tab or another. */
export function useHistory(workspaceId: string): HistoryEntry[] {
  return useSyncExternalStore(
    subscribe,
    () => getHistory(workspaceId),
    () => EMPTY,
  );
}
