/**
 * What the change stream (docs/decisions.md section 13; live-changes.ts, issue 36 point 6) tells the screens, kept
 * outside React Query so that a list the person is reading does not jump: how many records were created elsewhere
 * since the list was last loaded (per workspace and resource; `null` when the service said "more than it can name"),
 * and which records changed elsewhere, when. Screens read it with the hooks below; live-watch.tsx writes it. Small
 * and dependency-free: the contacts page and the drawers import it on their first load, with or without `events`.
 */
import { useSyncExternalStore } from 'react';

/** One batch of records created elsewhere: when it arrived and how many (`null`: an unknown number). */
type Created = { at: number; count: number | null };

type State = {
  /** `${workspaceId} ${resource}` -> the batches created since the list was last loaded. */
  created: Map<string, readonly Created[]>;
  /** `${workspaceId} ${id}` -> when a change of it arrived (ms since the epoch). */
  changed: Map<string, number>;
};

let state: State = { created: new Map(), changed: new Map() };
const listeners = new Set<() => void>();
/**
 * `${workspaceId} ${id}` -> when each of this tab's writes of the record that the change stream has not brought back
 * yet was made (ms since the epoch, oldest first): its own change coming back is not "elsewhere".
 */
const ownWrites = new Map<string, number[]>();
/** How long after this tab wrote a record an event of it may still be that write's own, in ms. */
export const OWN_WRITE_MS = 5000;
/** Workspaces whose change stream reaches this tab now (live-watch.tsx says so; the stream is shared by the tabs). */
const liveWorkspaces = new Set<string>();

/**
 * Notes whether the change stream of `workspaceId` is live in this tab (docs/decisions.md section 13). One stream
 * serves every tab of the browser (live-changes.ts), so while it is live here the other tabs hear each change too.
 */
export function setStreamLive(workspaceId: string, live: boolean): void {
  if (live) liveWorkspaces.add(workspaceId);
  else liveWorkspaces.delete(workspaceId);
}

/**
 * True while the change stream of `workspaceId` is live in this tab: a change this tab makes reaches the console's
 * other tabs as the stream's event, so telling them besides would have them load it twice (issue 36).
 */
export function isStreamLive(workspaceId: string): boolean {
  return liveWorkspaces.has(workspaceId);
}

function update(next: State) {
  state = next;
  for (const listener of listeners) listener();
}

/**
 * True when a change of record `id` heard now is this tab's own: a write of it this tab made in the last
 * OWN_WRITE_MS that no event has brought back yet. Takes that write, since each write comes back as one event
 * (docs/decisions.md section 13): a colleague's change of the same record heard after it is theirs, however soon it
 * follows. Call once per record of an event.
 */
export function takeOwnWrite(workspaceId: string, id: string, now = Date.now()): boolean {
  const key = `${workspaceId} ${id}`;
  const pending = (ownWrites.get(key) ?? []).filter((at) => now - at <= OWN_WRITE_MS);
  const own = pending.shift() !== undefined;
  if (pending.length) ownWrites.set(key, pending);
  else ownWrites.delete(key);
  return own;
}

/**
 * Counts the records `ids` of `resource` as created elsewhere (docs/decisions.md section 13: a `change` event with
 * action `create`, this tab's own writes left out by `takeOwnWrite`); `ids` null: an unknown number (an event past
 * 100 ids, or a `reset`).
 */
export function noteCreated(workspaceId: string, resource: string, ids: readonly string[] | null, now = Date.now()): void {
  const count = ids === null ? null : ids.length;
  if (count === 0) return;
  const key = `${workspaceId} ${resource}`;
  const created = new Map(state.created);
  created.set(key, [...(created.get(key) ?? []), { at: now, count }]);
  update({ ...state, created });
}

/** Marks `ids` changed elsewhere now (docs/decisions.md section 13; this tab's own writes left out by `takeOwnWrite`). */
export function noteChanged(workspaceId: string, ids: readonly string[], now = Date.now()): void {
  if (!ids.length) return;
  const changed = new Map(state.changed);
  for (const id of ids) changed.set(`${workspaceId} ${id}`, now);
  update({ ...state, changed });
}

/** Records that this tab wrote `ids` (a save, a tag edit), so that their events (docs/decisions.md section 13) are not shown as a colleague's. */
export function noteOwnWrite(workspaceId: string, ids: readonly string[], now = Date.now()): void {
  for (const id of ids) {
    // Writes whose event never came (the stream not live, a write merged with another) are dropped once past
    // OWN_WRITE_MS, so a record written again and again without a stream keeps one entry, not one a write.
    const key = `${workspaceId} ${id}`;
    ownWrites.set(key, [...(ownWrites.get(key) ?? []).filter((at) => now - at <= OWN_WRITE_MS), now]);
  }
  if (state.changed.size && ids.some((id) => state.changed.has(`${workspaceId} ${id}`))) {
    const changed = new Map(state.changed);
    for (const id of ids) changed.delete(`${workspaceId} ${id}`);
    update({ ...state, changed });
  }
}

/**
 * Forgets the records of `resource` created before `before` (ms since the epoch; counted from the `create` events of
 * docs/decisions.md section 13): a load of the list that started then shows them. Those that arrived during the load stay counted, as it may not have seen them.
 */
export function clearCreated(workspaceId: string, resource: string, before = Number.POSITIVE_INFINITY): void {
  const key = `${workspaceId} ${resource}`;
  const batches = state.created.get(key);
  if (!batches) return;
  const left = batches.filter((batch) => batch.at >= before);
  if (left.length === batches.length) return;
  const created = new Map(state.created);
  if (left.length) created.set(key, left);
  else created.delete(key);
  update({ ...state, created });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The sum of `batches`: a number, or null when one of them was of an unknown number. */
function total(batches: readonly Created[] | undefined): number | null | undefined {
  if (!batches?.length) return undefined;
  let sum = 0;
  for (const batch of batches) {
    if (batch.count === null) return null;
    sum += batch.count;
  }
  return sum;
}

/** What `useCreatedElsewhere` gives, read once (docs/decisions.md section 13). */
export function createdElsewhere(workspaceId: string, resource: string): number | null | undefined {
  return total(state.created.get(`${workspaceId} ${resource}`));
}

/**
 * Records of `resource` created elsewhere since the list was last loaded (docs/decisions.md section 13): a number,
 * `null` for "an unknown number", or `undefined` for none.
 */
export function useCreatedElsewhere(workspaceId: string, resource: string): number | null | undefined {
  const batches = useSyncExternalStore(subscribe, () => state.created.get(`${workspaceId} ${resource}`));
  return total(batches);
}

/** What `useChangedElsewhere` gives, read once. */
export function changedElsewhere(workspaceId: string, id: string | undefined): number | undefined {
  return id === undefined ? undefined : state.changed.get(`${workspaceId} ${id}`);
}

/** When record `id` was last changed elsewhere (ms since the epoch; docs/decisions.md section 13), or undefined. */
export function useChangedElsewhere(workspaceId: string, id: string | undefined): number | undefined {
  return useSyncExternalStore(subscribe, () => changedElsewhere(workspaceId, id));
}
