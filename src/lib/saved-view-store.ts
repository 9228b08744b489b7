/**
 * Saved views (issue 14 point 7, after react-admin's saved queries): a named list state (filters, sort, page size and,
 * where the list has a column choice, its hidden columns) of one list page, kept per workspace on this device in
 * localStorage (`workspace-admin.views.<workspaceId>.<list>`), so every tab sees the same views.
 *
 * A view is its URL: `search` is the list page's query string without the page (a view opens on its first page),
 * with the hidden columns as `hide=<id>,<id>` (the SavedViews component applies that parameter to the list's column
 * choice when the URL is opened, then drops it from the URL), keys in a stable order. Opening the view is following that URL, so a view can be bookmarked, copied or opened in a new
 * tab. Names are trimmed, 1 to 60 characters, unique per list (case-insensitive); a list keeps at most 50 views.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { readLocal, writeLocal } from './local-state';

export type SavedView = { id: string; name: string; search: string; created: string };

/** The URL parameter of a list's hidden columns (comma-separated column ids). */
export const HIDE_PARAM = 'hide';

export const MAX_VIEW_NAME = 60;
export const MAX_VIEWS = 50;

const storageKey = (workspaceId: string, list: string) => `workspace-admin.views.${workspaceId}.${list}`;
const listeners = new Set<() => void>();
const cache = new Map<string, SavedView[]>();

function isView(value: unknown): value is SavedView {
  const view = value as SavedView | null;
  return Boolean(view) && typeof view!.id === 'string' && typeof view!.name === 'string' && typeof view!.search === 'string';
}

/** The views of `list` in `workspaceId`, in the order they were saved. */
export function getViews(workspaceId: string, list: string): SavedView[] {
  const key = storageKey(workspaceId, list);
  let views = cache.get(key);
  if (!views) {
    const stored = readLocal<unknown>(key, []);
    views = Array.isArray(stored) ? stored.filter(isView) : [];
    cache.set(key, views);
  }
  return views;
}

function write(workspaceId: string, list: string, views: SavedView[]) {
  const key = storageKey(workspaceId, list);
  cache.set(key, views);
  writeLocal(key, views.length ? views : undefined);
  for (const listener of listeners) listener();
}

/**
 * The view search for a list's URL `params` and its `hidden` columns: no `page`, `hide` set (when any column is
 * hidden), keys sorted. Two states give the same text exactly when they show the same view.
 */
export function viewSearch(params: URLSearchParams, hidden: readonly string[] = []): string {
  const entries = [...params.entries()].filter(([key]) => key !== 'page' && key !== HIDE_PARAM);
  if (hidden.length) entries.push([HIDE_PARAM, [...hidden].sort().join(',')]);
  return new URLSearchParams(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))).toString();
}

/** The column ids of a `hide` parameter's value: trimmed, blanks and repeats dropped, at most 50. */
export function hiddenOf(text: string): string[] {
  return [...new Set(text.split(',').map((id) => id.trim()).filter(Boolean))].slice(0, 50);
}

/**
 * What keeps a name from naming a view (`missing`, `too-long`: over `MAX_VIEW_NAME`, `taken` by another view of the
 * list), or that the list is `full` (`MAX_VIEWS`). Words for it are the naming dialog's (saved-view-popups.tsx,
 * issue 23), so the first screens that read views do not carry them.
 */
export type ViewNameProblem = 'missing' | 'too-long' | 'taken' | 'full';

/** Why `name` cannot name a view of this list (blank, too long, taken by another view), or null when it can. */
export function nameProblem(views: readonly SavedView[], name: string, except?: string): ViewNameProblem | null {
  return nameProblemAmong(views, name, MAX_VIEW_NAME, except);
}

/**
 * Why `name` cannot name a view among `views` (personal ones here, shared ones in shared-views.ts): `missing` when
 * blank, `too-long` over `max` characters (trimmed), `taken` by another view than `except`, ignoring case; or null.
 */
export function nameProblemAmong(views: readonly { id: string; name: string }[], name: string, max: number, except?: string): 'missing' | 'too-long' | 'taken' | null {
  const trimmed = name.trim();
  if (!trimmed) return 'missing';
  if (trimmed.length > max) return 'too-long';
  if (views.some((view) => view.id !== except && view.name.toLowerCase() === trimmed.toLowerCase())) return 'taken';
  return null;
}

/** Saves `search` as a new view called `name`; throws an Error whose message is `nameProblem`'s problem, or `full`. */
export function saveView(workspaceId: string, list: string, name: string, search: string): SavedView {
  const views = getViews(workspaceId, list);
  const problem = nameProblem(views, name);
  if (problem) throw new Error(problem);
  if (views.length >= MAX_VIEWS) throw new Error('full');
  const view = { id: crypto.randomUUID(), name: name.trim(), search, created: new Date().toISOString() };
  write(workspaceId, list, [...views, view]);
  return view;
}

/** Renames the view `id`; throws an Error whose message is `nameProblem`'s problem. */
export function renameView(workspaceId: string, list: string, id: string, name: string): void {
  const views = getViews(workspaceId, list);
  const problem = nameProblem(views, name, id);
  if (problem) throw new Error(problem);
  write(workspaceId, list, views.map((view) => (view.id === id ? { ...view, name: name.trim() } : view)));
}

/** Deletes the view `id` (nothing when it is gone already). */
export function deleteView(workspaceId: string, list: string, id: string): void {
  write(workspaceId, list, getViews(workspaceId, list).filter((view) => view.id !== id));
}

const sharedKey = (workspaceId: string, list: string) => `workspace-admin.shared-views.${workspaceId}.${list}`;

/**
 * True when this device last saw shared views of `list` in `workspaceId` (issue 36 point 8, docs/decisions.md section
 * 13): the list page then loads its saved views row at once, so the workspace's views show with the first screen.
 * A device that never saw any (or a service without them) keeps the row's code and `GET /views` for the first
 * interaction (issue 16).
 */
export function sharedViewsSeen(workspaceId: string, list: string): boolean {
  return readLocal<boolean>(sharedKey(workspaceId, list), false) === true;
}

/** Notes whether the workspace has shared views of `list` now (`sharedViewsSeen` reads it on the next visit). */
export function noteSharedViews(workspaceId: string, list: string, any: boolean): void {
  if (any !== sharedViewsSeen(workspaceId, list)) writeLocal(sharedKey(workspaceId, list), any || undefined);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key?.startsWith('workspace-admin.views.')) {
      cache.delete(event.key);
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The views of `list` in `workspaceId`; re-renders when they change here or in another tab. */
export function useSavedViews(workspaceId: string, list: string): SavedView[] {
  const snapshot = useCallback(() => getViews(workspaceId, list), [workspaceId, list]);
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
