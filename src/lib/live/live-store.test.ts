import { describe, expect, it } from 'vitest';
import { OWN_WRITE_MS, clearCreated, createdElsewhere, isOwnWrite, noteChanged, noteCreated, noteOwnWrite } from './live-store';

// The store is module state: each test uses a workspace of its own.
let n = 0;
const workspace = () => `ws-${(n += 1)}`;

const created = (workspaceId: string) => createdElsewhere(workspaceId, 'contacts');

describe('live store (issue 36; docs/decisions.md section 13)', () => {
  it('counts contacts created elsewhere, not the ones this tab created', () => {
    const ws = workspace();
    noteOwnWrite(ws, ['mine'], 1000);
    noteCreated(ws, 'contacts', ['mine', 'a', 'b'], 2000);
    expect(created(ws)).toBe(2);
    noteCreated(ws, 'contacts', ['c'], 3000);
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

  it("takes a change of a record this tab wrote for its own for OWN_WRITE_MS, then for a colleague's", () => {
    const ws = workspace();
    noteOwnWrite(ws, ['x'], 1000);
    expect(isOwnWrite(ws, 'x', 1000 + OWN_WRITE_MS)).toBe(true);
    expect(isOwnWrite(ws, 'x', 1001 + OWN_WRITE_MS)).toBe(false);
    expect(isOwnWrite(ws, 'never', 1000)).toBe(false);
  });

  it('does not count a change of a record this tab just wrote as made elsewhere', () => {
    const ws = workspace();
    noteOwnWrite(ws, ['x'], 1000);
    noteChanged(ws, ['x'], 1500);
    noteCreated(ws, 'contacts', ['x'], 1500);
    expect(created(ws)).toBeUndefined();
  });
});
