/**
 * Saved connections: one API key (and optional Basic credentials) per workspace, as checked by
 * `GET /authorization` on /connect (issue 4). Kept in sessionStorage, or in localStorage when the user ticks
 * "Remember on this device". A tiny external store for `useSyncExternalStore`.
 */
import { useSyncExternalStore } from 'react';

export type SavedConnection = {
  workspaceId: string;
  workspaceName: string;
  organizationId: string;
  organizationName: string;
  /** Base URL of the API, e.g. `/api` or `https://host/api`. */
  baseUrl: string;
  apiKey: string;
  /** `{ contacts: 'read-write', ... }` from `GET /authorization`. */
  permissions: Record<string, string>;
  /** Basic credentials for the notification-settings update, when saved. */
  basic?: { accessKey: string; secret: string };
  remember: boolean;
  savedAt: string;
};

const KEY = 'workspace-admin.connections';
const listeners = new Set<() => void>();
let cache: SavedConnection[] | null = null;

function read(storage: Storage | undefined): SavedConnection[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? (parsed as SavedConnection[]).filter((c) => c && typeof c.workspaceId === 'string' && typeof c.apiKey === 'string') : [];
  } catch {
    return [];
  }
}

function load(): SavedConnection[] {
  if (cache) return cache;
  const local = typeof localStorage === 'undefined' ? [] : read(localStorage);
  const session = typeof sessionStorage === 'undefined' ? [] : read(sessionStorage);
  const byWorkspace = new Map<string, SavedConnection>();
  for (const connection of [...local, ...session]) byWorkspace.set(connection.workspaceId, connection);
  cache = [...byWorkspace.values()];
  return cache;
}

function persist(connections: SavedConnection[]) {
  cache = connections;
  localStorage.setItem(KEY, JSON.stringify(connections.filter((c) => c.remember)));
  sessionStorage.setItem(KEY, JSON.stringify(connections.filter((c) => !c.remember)));
  for (const listener of listeners) listener();
}

/** Every saved connection, one per workspace. */
export function getConnections(): SavedConnection[] {
  return load();
}

/** The saved connection of `workspaceId`, if any. */
export function getConnection(workspaceId: string | undefined): SavedConnection | undefined {
  return workspaceId ? load().find((c) => c.workspaceId === workspaceId) : undefined;
}

/** Saves (or replaces) the connection of its workspace. */
export function saveConnection(connection: SavedConnection): void {
  persist([...load().filter((c) => c.workspaceId !== connection.workspaceId), connection]);
}

/** Updates fields of a saved connection (e.g. fresher permissions); no-op when none is saved. */
export function updateConnection(workspaceId: string, patch: Partial<SavedConnection>): void {
  const current = getConnection(workspaceId);
  if (!current) return;
  const next = { ...current, ...patch };
  if (JSON.stringify(next) !== JSON.stringify(current)) saveConnection(next);
}

/** Forgets the connection of `workspaceId`. */
export function removeConnection(workspaceId: string): void {
  persist(load().filter((c) => c.workspaceId !== workspaceId));
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === KEY) {
      cache = null;
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** React view of the saved connections; re-renders on every change, in this tab or another. */
export function useConnections(): SavedConnection[] {
  return useSyncExternalStore(subscribe, load, load);
}
