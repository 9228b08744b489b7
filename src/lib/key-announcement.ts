/**
 * What a key just connected with allows (issue 14 point 4). Connecting with a pasted key (on /connect or in the
 * add-key dialog) announces the saved connection in this tab (`announceConnection`); the header's key tools then say
 * what it allows at the top of the page it opened, until the user dismisses it or moves on (`useAnnouncedConnection`,
 * `dismissAnnouncement`). Kept in this page's memory only. Only lazily loaded screens use this module, so no first
 * screen carries it.
 */
import { useSyncExternalStore } from 'react';
import type { SavedConnection } from './connections';

const listeners = new Set<() => void>();
let announced: SavedConnection | null = null;

function set(next: SavedConnection | null) {
  announced = next;
  for (const listener of listeners) listener();
}

/** Marks `connection` as just connected with, in this tab. */
export function announceConnection(connection: SavedConnection): void {
  set(connection);
}

/** Forgets the announcement. */
export function dismissAnnouncement(): void {
  if (announced) set(null);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
const current = () => announced;

/** The connection just connected with in this tab, until dismissed; null when there is none. */
export function useAnnouncedConnection(): SavedConnection | null {
  return useSyncExternalStore(subscribe, current, current);
}
