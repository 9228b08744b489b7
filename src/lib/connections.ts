/**
 * Saved connections: one API key (and optional Basic credentials) per workspace, as checked by
 * `GET /authorization` (issue 4). A tiny external store for `useSyncExternalStore`.
 *
 * Where keys live (issue 14 point 3):
 * - "Remember on this device" keeps a key in localStorage, which every tab reads (and hears about through the
 *   `storage` event).
 * - Otherwise the key is kept for the browser session only: in the sessionStorage of the tabs that have it, never in
 *   localStorage. Tabs of one browser session hand such keys to each other over a BroadcastChannel
 *   (`workspace-admin.connections`, same origin only): a new tab asks (`ask`), every open tab that holds session
 *   keys answers with them (`share`), and the new tab keeps them in its own sessionStorage. A tab waits
 *   `HANDSHAKE_MS` for an answer before concluding that no tab has a key (`useConnectionsReady`). Once the last tab
 *   of the session closes, the keys are gone.
 * - Saving, updating and forgetting a key are announced on the channel (`save`, `forget`), so they apply to every
 *   tab at once; a key the service stopped accepting is forgotten with the reason `expired` (`removeConnection`),
 *   which each tab can tell its user (`forgottenReason`).
 */
import { useSyncExternalStore } from 'react';
import { readLocal, writeLocal } from './local-state';

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

/** Why a key was forgotten: the user removed it, or the service stopped accepting it. */
export type ForgetReason = 'removed' | 'expired';

/** How long a new tab waits for another tab's session keys, in ms, before concluding there are none. */
export const HANDSHAKE_MS = 1000;

type Message =
  | { type: 'ask' }
  | { type: 'share'; connections: SavedConnection[] }
  | { type: 'save'; connection: SavedConnection }
  | { type: 'forget'; workspaceId: string; reason: ForgetReason };

const KEY = 'workspace-admin.connections';
const listeners = new Set<() => void>();
let cache: SavedConnection[] | null = null;
let channel: BroadcastChannel | null = null;
let ready = false;
const forgotten = new Map<string, ForgetReason>();

function isConnection(value: unknown): value is SavedConnection {
  const c = value as SavedConnection | null;
  return Boolean(c) && typeof c!.workspaceId === 'string' && typeof c!.apiKey === 'string';
}

function read(storage: Storage | undefined): SavedConnection[] {
  const parsed = storage ? readLocal<unknown>(KEY, [], storage) : [];
  return Array.isArray(parsed) ? parsed.filter(isConnection) : [];
}

function load(): SavedConnection[] {
  if (cache) return cache;
  const local = read(typeof localStorage === 'undefined' ? undefined : localStorage);
  const session = read(typeof sessionStorage === 'undefined' ? undefined : sessionStorage);
  const byWorkspace = new Map<string, SavedConnection>();
  for (const connection of [...local, ...session]) byWorkspace.set(connection.workspaceId, connection);
  cache = [...byWorkspace.values()];
  return cache;
}

function notify() {
  for (const listener of listeners) listener();
}

/** Writes `connections` to this tab's storages (remembered ones to localStorage, the rest to sessionStorage). */
function persist(connections: SavedConnection[]) {
  cache = connections;
  // When storage is unavailable, the keys live in this page's memory only.
  writeLocal(KEY, connections.filter((c) => c.remember), localStorage);
  writeLocal(KEY, connections.filter((c) => !c.remember), sessionStorage);
  notify();
}

function post(message: Message) {
  channel?.postMessage(message);
}

function put(connection: SavedConnection) {
  forgotten.delete(connection.workspaceId);
  persist([...load().filter((c) => c.workspaceId !== connection.workspaceId), connection]);
}

function drop(workspaceId: string, reason: ForgetReason) {
  forgotten.set(workspaceId, reason);
  persist(load().filter((c) => c.workspaceId !== workspaceId));
}

function settle() {
  if (ready) return;
  ready = true;
  notify();
}

function receive(message: Message) {
  switch (message.type) {
    case 'ask': {
      const session = load().filter((c) => !c.remember);
      if (session.length) post({ type: 'share', connections: session });
      return;
    }
    case 'share': {
      const known = new Map(load().map((c) => [c.workspaceId, c]));
      const fresh = message.connections.filter(isConnection).filter((c) => {
        const mine = known.get(c.workspaceId);
        return !forgotten.has(c.workspaceId) && (!mine || mine.savedAt < c.savedAt);
      });
      if (fresh.length) persist([...load().filter((c) => !fresh.some((f) => f.workspaceId === c.workspaceId)), ...fresh]);
      settle();
      return;
    }
    case 'save':
      if (isConnection(message.connection)) put(message.connection);
      return;
    case 'forget':
      drop(message.workspaceId, message.reason === 'expired' ? 'expired' : 'removed');
      return;
  }
}

/** Opens the channel and asks the other tabs for their session keys (once, in a browser). */
function start() {
  if (typeof BroadcastChannel === 'undefined') {
    ready = true;
    return;
  }
  channel = new BroadcastChannel(KEY);
  channel.onmessage = (event: MessageEvent<Message>) => receive(event.data);
  post({ type: 'ask' });
  setTimeout(settle, HANDSHAKE_MS);
}
if (typeof window !== 'undefined') start();
else ready = true;

/** Every saved connection, one per workspace. */
export function getConnections(): SavedConnection[] {
  return load();
}

/** The saved connection of `workspaceId`, if any. */
export function getConnection(workspaceId: string | undefined): SavedConnection | undefined {
  return workspaceId ? load().find((c) => c.workspaceId === workspaceId) : undefined;
}

/** Saves (or replaces) the connection of its workspace, in this tab and every other tab of the session. */
export function saveConnection(connection: SavedConnection): void {
  put(connection);
  post({ type: 'save', connection });
}

/** Updates fields of a saved connection (e.g. fresher permissions); no-op when none is saved. */
export function updateConnection(workspaceId: string, patch: Partial<SavedConnection>): void {
  const current = getConnection(workspaceId);
  if (!current) return;
  const next = { ...current, ...patch };
  if (JSON.stringify(next) !== JSON.stringify(current)) saveConnection(next);
}

/** Forgets the connection of `workspaceId` in every tab; `expired` when the service stopped accepting the key. */
export function removeConnection(workspaceId: string, reason: ForgetReason = 'removed'): void {
  drop(workspaceId, reason);
  post({ type: 'forget', workspaceId, reason });
}

/** Why this tab's key of `workspaceId` was forgotten (here or in another tab), if it was. */
export function forgottenReason(workspaceId: string): ForgetReason | undefined {
  return forgotten.get(workspaceId);
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

const isReady = () => ready;

/** True once the other tabs of the session had their chance to share keys (at most `HANDSHAKE_MS` after load). */
export function useConnectionsReady(): boolean {
  return useSyncExternalStore(subscribe, isReady, isReady);
}
