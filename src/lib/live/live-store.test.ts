import { describe, expect, it } from 'vitest';
import { OWN_WRITE_MS, changedElsewhere, clearCreated, createdElsewhere, noteChanged, noteCreated, noteOwnWrite, takeOwnWrite } from './live-store';

// The store is module state: each test uses a workspace of its own.
let n = 0;
const workspace = () => `ws-${(n += 1)}`;

const created = (workspaceId: string) => createdElsewhere(workspaceId, 'contacts');

describe('live store (issue 36; docs/decisions.md section 13)', () => {
  it('counts the contacts created elsewhere as their events come', () => {
    const ws = workspace();
    noteCreated(ws, 'contacts', ['a', 'b'], 2000);
    expect(created(ws)).toBe(2);
    noteCreated(ws, 'contacts', ['c'], 3000);
    expect(created(ws)).toBe(3);
    noteCreated(ws, 'contacts', [], 4000);
    expect(created(ws)).toBe(3);
  });

  it('says "an unknown number" once an event could not name them', () => {
    const ws = workspace();
    noteCreated(ws, 'contacts', ['a'], 1000);
    noteCreated(ws, 'contacts', null, 2000);
    expect(created(ws)).toBeNull();
  });

  it('clears only what was created before the load started', () => {
    const ws = workspace();
    noteCreated(ws, 'contacts', ['a', 'b'], 1000);
    noteCreated(ws, 'contacts', ['c'], 3000);
    clearCreated(ws, 'contacts', 2000);
    expect(created(ws)).toBe(1);
    clearCreated(ws, 'contacts');
    expect(created(ws)).toBeUndefined();
  });

  it('takes one event of a record for each write this tab made of it in the last OWN_WRITE_MS', () => {
    const ws = workspace();
    noteOwnWrite(ws, ['x'], 1000);
    expect(takeOwnWrite(ws, 'x', 1000 + OWN_WRITE_MS)).toBe(true);
    // A colleague's change of the same record, heard right after this tab's own came back, is theirs.
    expect(takeOwnWrite(ws, 'x', 1001 + OWN_WRITE_MS)).toBe(false);
    expect(takeOwnWrite(ws, 'never', 1000)).toBe(false);
    noteOwnWrite(ws, ['y'], 1000);
    noteOwnWrite(ws, ['y'], 1200);
    expect([takeOwnWrite(ws, 'y', 1300), takeOwnWrite(ws, 'y', 1400), takeOwnWrite(ws, 'y', 1500)]).toEqual([true, true, false]);
    // A write whose event never came (it failed, or was merged with another) is forgotten after OWN_WRITE_MS.
    noteOwnWrite(ws, ['z'], 1000);
    expect(takeOwnWrite(ws, 'z', 1001 + OWN_WRITE_MS)).toBe(false);
    // Also when the record is written again: the later write's event is its own, and only that one.
    noteOwnWrite(ws, ['w'], 1000);
    noteOwnWrite(ws, ['w'], 2000 + OWN_WRITE_MS);
    expect([takeOwnWrite(ws, 'w', 2100 + OWN_WRITE_MS), takeOwnWrite(ws, 'w', 2200 + OWN_WRITE_MS)]).toEqual([true, false]);
  });

  it('marks changed elsewhere what it is given, and a write of this tab clears the mark', () => {
    const ws = workspace();
    noteChanged(ws, ['x'], 1500);
    expect(changedElsewhere(ws, 'x')).toBe(1500);
    noteOwnWrite(ws, ['x'], 2000);
    expect(changedElsewhere(ws, 'x')).toBeUndefined();
  });
});
