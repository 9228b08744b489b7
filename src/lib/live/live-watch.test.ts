import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '@/api/client';
import type { StreamEvent } from '@/api/event-stream';
import { applyLiveEvent } from './live-watch';
import { changedElsewhere, createdElsewhere, noteOwnWrite } from './live-store';

const ws = 'ws-live-views';
const viewEvent = (ids: string[] | null, action = 'update'): StreamEvent => ({ type: 'change', id: '7', data: { resource: 'view', ids, action } });

/** The shared views' list on screen (an observer), loaded once; `loads()` counts its loads. */
async function viewsOnScreen() {
  const queryClient = new QueryClient();
  let loads = 0;
  const options = {
    queryKey: ['ws', ws, 'views', 'list'],
    queryFn: async () => {
      loads += 1;
      return [];
    },
    staleTime: 300_000,
  };
  const stop = new QueryObserver(queryClient, options).subscribe(() => undefined);
  await expect.poll(() => loads).toBe(1);
  return { queryClient, loads: () => loads, stop };
}

describe('applyLiveEvent for shared views', () => {
  it("loads the views on screen again for a colleague's change", async () => {
    const { queryClient, loads, stop } = await viewsOnScreen();
    await applyLiveEvent({} as ApiClient, queryClient, ws, viewEvent(['theirs']), false);
    expect(loads()).toBe(2);
    stop();
  });

  it("loads nothing for this tab's own change (its cache has it already), but does for one merged with a colleague's", async () => {
    const { queryClient, loads, stop } = await viewsOnScreen();
    noteOwnWrite(ws, ['mine']);
    await applyLiveEvent({} as ApiClient, queryClient, ws, viewEvent(['mine'], 'create'), false);
    expect(loads()).toBe(1);
    await applyLiveEvent({} as ApiClient, queryClient, ws, viewEvent(['mine', 'theirs']), false);
    expect(loads()).toBe(2);
    await applyLiveEvent({} as ApiClient, queryClient, ws, viewEvent(null), false);
    expect(loads()).toBe(3);
    stop();
  });

  it("loads the views again for a colleague's change of a view this tab changed a moment before", async () => {
    // saved-views.spec.ts: one browser shares a view and a colleague renames it within seconds; the first browser's
    // own event comes back first, then the colleague's, which it must not take for its own.
    const { queryClient, loads, stop } = await viewsOnScreen();
    noteOwnWrite(ws, ['shared']);
    await applyLiveEvent({} as ApiClient, queryClient, ws, viewEvent(['shared'], 'create'), false);
    expect(loads()).toBe(1);
    await applyLiveEvent({} as ApiClient, queryClient, ws, viewEvent(['shared']), false);
    expect(loads()).toBe(2);
    stop();
  });
});

describe('applyLiveEvent for contacts', () => {
  const contactEvent = (ids: string[], action: string): StreamEvent => ({ type: 'change', id: '8', data: { resource: 'contact', ids, action } });

  it("counts a colleague's new contacts, not this tab's own, and marks changed elsewhere only a colleague's change", async () => {
    const workspaceId = 'ws-live-contacts';
    const queryClient = new QueryClient();
    noteOwnWrite(workspaceId, ['mine']);
    await applyLiveEvent({} as ApiClient, queryClient, workspaceId, contactEvent(['mine', 'theirs'], 'create'), false);
    expect(createdElsewhere(workspaceId, 'contacts')).toBe(1);
    noteOwnWrite(workspaceId, ['mine']);
    await applyLiveEvent({} as ApiClient, queryClient, workspaceId, contactEvent(['mine'], 'update'), false);
    expect(changedElsewhere(workspaceId, 'mine')).toBeUndefined();
    await applyLiveEvent({} as ApiClient, queryClient, workspaceId, contactEvent(['mine'], 'update'), false);
    expect(changedElsewhere(workspaceId, 'mine')).toEqual(expect.any(Number));
  });
});
