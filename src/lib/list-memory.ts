/**
 * The list each workspace was showing (issue 14 point 4): the URL search (filters, sort, page, size) of every list
 * page (`/w/:workspaceId/<section>`) last shown, per workspace, so that switching back to a workspace restores the
 * list as it was left. Columns need nothing here: they are kept per workspace already (contacts-page.tsx, with useLocalState of src/lib/local-state.ts).
 *
 * Kept in this tab's sessionStorage (decided here: the list state is the tab's working state, like its history;
 * it survives a reload, is not shared with other tabs, and is never written to localStorage, since filters can hold
 * personal data such as a searched name). Storage failures fall back to this page's memory.
 */
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { readLocal, writeLocal } from './local-state';

const KEY = 'workspace-admin.list-views';
/** At most this many workspace-section pairs are kept; the oldest go first. */
const MAX_ENTRIES = 100;
let memory: Record<string, string> | null = null;

function all(): Record<string, string> {
  if (memory) return memory;
  const stored = readLocal<unknown>(KEY, {}, sessionStorage);
  memory = stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Record<string, string>) : {};
  return memory;
}

/** Records `search` (`?state=active&page=2`, or '') as the list of `section` in `workspaceId`. */
export function rememberList(workspaceId: string, section: string, search: string): void {
  const id = `${workspaceId}/${section}`;
  const current = all();
  if (current[id] === search) return;
  const { [id]: _old, ...rest } = current;
  const entries = Object.entries({ ...rest, [id]: search });
  memory = Object.fromEntries(entries.slice(-MAX_ENTRIES));
  writeLocal(KEY, memory, sessionStorage);
}

/** The path of `section` in `workspaceId` with the list as it was last shown there: `/w/<id>/contacts?state=active`. */
export function listPath(workspaceId: string, section: string): string {
  return `/w/${workspaceId}/${section}${all()[`${workspaceId}/${section}`] ?? ''}`;
}

/** Records the list on screen whenever the location is a list page `/w/:workspaceId/<section>` (exactly). */
export function useListMemory(): void {
  const { pathname, search } = useLocation();
  useEffect(() => {
    const match = /^\/w\/([^/]+)\/([^/]+)\/?$/.exec(pathname);
    if (match) rememberList(decodeURIComponent(match[1]!), match[2]!, search);
  }, [pathname, search]);
}
