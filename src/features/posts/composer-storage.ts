/**
 * What the composer keeps in this browser's localStorage, per workspace (issue 7):
 * - the draft (`workspace-admin.posts.draft.<workspaceId>`): the form's values as typed, with the time saved;
 * - the request history (`workspace-admin.posts.history.<workspaceId>`): the newest 50 requests sent from this
 *   browser (time, action, state, request id, a summary), as a small external store for `useSyncExternalStore`.
 * Storage that is full, disabled or holds damaged JSON never breaks the composer: reads fall back to nothing.
 */
import { useSyncExternalStore } from 'react';
import * as z from 'zod/mini';
import { type ComposerValues, parseDraft } from './composer-form';

const draftKey = (workspaceId: string) => `workspace-admin.posts.draft.${workspaceId}`;
const historyKey = (workspaceId: string) => `workspace-admin.posts.history.${workspaceId}`;
const HISTORY_MAX = 50;

function readJson(key: string): unknown {
  try {
    const text = localStorage.getItem(key);
    return text === null ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

function writeJson(key: string, value: unknown): boolean {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false; // quota exceeded or storage disabled: the draft just isn't kept
  }
}

/** A saved draft: the values and when they were saved (ISO). */
export type SavedDraft = { values: ComposerValues; savedAt: string };

/** The workspace's saved draft, or null when there is none (or it cannot be read). */
export function loadDraft(workspaceId: string): SavedDraft | null {
  const raw = readJson(draftKey(workspaceId));
  if (typeof raw !== 'object' || raw === null) return null;
  const values = parseDraft((raw as { values?: unknown }).values);
  const savedAt = (raw as { savedAt?: unknown }).savedAt;
  return values ? { values, savedAt: typeof savedAt === 'string' ? savedAt : new Date(0).toISOString() } : null;
}

/** Saves the draft; returns the saved time, or null when the browser refused to store it. */
export function saveDraft(workspaceId: string, values: ComposerValues, now = new Date()): string | null {
  const savedAt = now.toISOString();
  return writeJson(draftKey(workspaceId), { values, savedAt }) ? savedAt : null;
}

/** Forgets the workspace's draft. */
export function clearDraft(workspaceId: string): void {
  try {
    localStorage.removeItem(draftKey(workspaceId));
  } catch {
    // storage disabled: nothing was saved either
  }
}

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
  const raw = readJson(historyKey(workspaceId));
  const entries = Array.isArray(raw) ? raw.flatMap((item) => {
    const parsed = historyEntrySchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  }) : EMPTY;
  cache.set(workspaceId, entries);
  return entries;
}

function setHistory(workspaceId: string, entries: HistoryEntry[]) {
  cache.set(workspaceId, entries);
  writeJson(historyKey(workspaceId), entries);
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
