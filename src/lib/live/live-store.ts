/**
 * What the change stream (live-changes.ts, issue 36 point 6) tells the screens, kept outside React Query so that a
 * list the person is reading does not jump: how many records were created elsewhere since the list was last
 * shown (per workspace and resource, `null` when the service said "more than it can name"), and which records
 * changed elsewhere, when. Screens read it with `useLiveStore`; live-watch.tsx writes it. Small and dependency-free:
 * the contacts page and the drawers import it on their first load.
 */
import { useSyncExternalStore } from 'react';

type State = {
  /** `${workspaceId} ${resource}` -> records created since shown (null: unknown, "the list changed"). */
  created: Map<string, number | null>;
  /** `${workspaceId} ${id}` -> when a change of it arrived (ms since the epoch). */
  changed: Map<string, number>;
};

let state: State = { created: new Map(), changed: new Map() };
const listeners = new Set<() => void>();
/** `${workspaceId} ${id}` -> when this tab last wrote the record: its own change coming back is not "elsewhere". */
const ownWrites = new Map<string, number>();
/** How long after this tab wrote a record a change of it is taken for that write's own event, in ms. */
export const OWN_WRITE_MS = 5000;

function update(next: State) {
  state = next;
  for (const listener of listeners) listener();
}

/**
 * Counts the records `ids` of `resource` as created elsewhere, leaving out those this tab created itself in the last
 * OWN_WRITE_MS (`null`: an unknown number of records).
 */
export function noteCreated(workspaceId: string, resource: string, ids: readonly string[] | null, now = Date.now()): void {
  const count = ids === null ? null : ids.filter((id) => now - (ownWrites.get(`${workspaceId} ${id}`) ?? 0) > OWN_WRITE_MS).length;
  if (count === 0) return;
  const key = `${workspaceId} ${resource}`;
  const created = new Map(state.created);
  const before = created.get(key);
  created.set(key, count === null || before === null ? null : (before ?? 0) + count);
  update({ ...state, created });
}

/** Marks `ids` changed now unless this tab wrote them in the last OWN_WRITE_MS. */
export function noteChanged(workspaceId: string, ids: readonly string[], now = Date.now()): void {
  const changed = new Map(state.changed);
  for (const id of ids) {
    const key = `${workspaceId} ${id}`;
    if (now - (ownWrites.get(key) ?? 0) > OWN_WRITE_MS) changed.set(key, now);
  }
  update({ ...state, changed });
}

/** Records that this tab wrote `ids` (a save, a tag edit), so that their events are not shown as a colleague's. */
export function noteOwnWrite(workspaceId: string, ids: readonly string[], now = Date.now()): void {
  for (const id of ids) ownWrites.set(`${workspaceId} ${id}`, now);
  if (state.changed.size && ids.some((id) => state.changed.has(`${workspaceId} ${id}`))) {
    const changed = new Map(state.changed);
    for (const id of ids) changed.delete(`${workspaceId} ${id}`);
    update({ ...state, changed });
  }
}

/** Forgets the created count of `resource` (the list was loaded again). */
export function clearCreated(workspaceId: string, resource: string): void {
  const key = `${workspaceId} ${resource}`;
  if (!state.created.has(key)) return;
  const created = new Map(state.created);
  created.delete(key);
  update({ ...state, created });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Records of `resource` created elsewhere since the list was shown: a number, `null` for "an unknown number", or
 * `undefined` for none.
 */
export function useCreatedElsewhere(workspaceId: string, resource: string): number | null | undefined {
  return useSyncExternalStore(subscribe, () => state.created.get(`${workspaceId} ${resource}`));
}

/** When record `id` was last changed elsewhere (ms since the epoch), or undefined. */
export function useChangedElsewhere(workspaceId: string, id: string | undefined): number | undefined {
  return useSyncExternalStore(subscribe, () => (id === undefined ? undefined : state.changed.get(`${workspaceId} ${id}`)));
}
