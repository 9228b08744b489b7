/**
 * Small preferences and drafts kept in localStorage (column choices per workspace, drafts, request history, saved
 * views), or in sessionStorage when a `storage` is given (session keys, list positions), read once and written on
 * change. Storage failures (private mode, quota, no storage at all) fall back to memory silently.
 */
import { useCallback, useState } from 'react';

/** The parsed JSON at `key` of `storage` (default localStorage), or `fallback` when missing or unreadable. */
export function readLocal<T>(key: string, fallback: T, storage?: Storage): T {
  try {
    const text = (storage ?? localStorage).getItem(key);
    return text === null ? fallback : (JSON.parse(text) as T);
  } catch {
    return fallback;
  }
}

/** Writes `value` at `key` of `storage` (default localStorage) as JSON; `undefined` removes it. */
export function writeLocal(key: string, value: unknown, storage?: Storage): void {
  try {
    if (value === undefined) (storage ?? localStorage).removeItem(key);
    else (storage ?? localStorage).setItem(key, JSON.stringify(value));
  } catch {
    // storage unavailable: the value lives for this page only
  }
}

/** `useState` persisted at `key` (re-read when the key changes, e.g. another workspace). */
export function useLocalState<T>(key: string, fallback: T): [T, (next: T) => void] {
  const [state, setState] = useState<{ key: string; value: T }>(() => ({ key, value: readLocal(key, fallback) }));
  const value = state.key === key ? state.value : readLocal(key, fallback);
  const set = useCallback(
    (next: T) => {
      writeLocal(key, next);
      setState({ key, value: next });
    },
    [key],
  );
  return [value, set];
}
