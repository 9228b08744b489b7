/**
 * TimedChunks (server/db/timed-chunks.ts): chunk sizes for the long writes of docs/decisions.md sections 11 and 12,
 * driven here by a simulated machine whose chunk takes `fixedMs + perItemMs * count` (with noise where said), so the
 * sizes it settles on can be checked against what fits the target.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TimedChunks } from '../db/timed-chunks';

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Runs `chunks` chunks on the simulated machine; returns each chunk's size and time. */
function run(sizes: TimedChunks, chunks: number, cost: (count: number, index: number) => number): { count: number; ms: number }[] {
  const seen: { count: number; ms: number }[] = [];
  for (let index = 0; index < chunks; index++) {
    const count = sizes.next();
    const ms = cost(count, index);
    sizes.record(count, ms);
    seen.push({ count, ms });
  }
  return seen;
}

describe('TimedChunks', () => {
  it('settles where the items fill the target when a chunk costs only its items', () => {
    // Every other chunk takes 80% of the fitted size (so that the fit sees chunks of different sizes): 40 to 50 ms.
    const settled = run(new TimedChunks(20, 50, 1, 2000), 30, (count) => 0.1 * count).slice(-10);
    expect(Math.min(...settled.map((chunk) => chunk.ms))).toBeGreaterThanOrEqual(39);
    expect(Math.max(...settled.map((chunk) => chunk.ms))).toBeLessThanOrEqual(51);
  });

  it('gives the items what the fixed part leaves of the target', () => {
    const settled = run(new TimedChunks(20, 50, 1, 2000), 30, (count) => 20 + 0.1 * count).slice(-10);
    expect(mean(settled.map((chunk) => chunk.count))).toBeGreaterThan(240);
    expect(Math.max(...settled.map((chunk) => chunk.count))).toBeLessThanOrEqual(301);
    expect(Math.max(...settled.map((chunk) => chunk.ms))).toBeLessThanOrEqual(51);
  });

  it('does not shrink to a few items when the fixed part alone is as long as the target (a loaded machine)', () => {
    // Measured on a loaded machine (stop 58): a revert's chunks of 80 contact creates took 38 ms, of 8 took 35 ms. Sized
    // by the whole chunk's time per item, the chunks fell to 6 to 20 items and 2,000 creates took over a minute.
    const seen = run(new TimedChunks(20, 40, 1, 500), 40, (count, index) => 35 + 0.04 * count + (index % 3) * 4);
    const settled = seen.slice(-10);
    expect(Math.min(...settled.map((chunk) => chunk.count))).toBeGreaterThanOrEqual(300);
    // Each chunk then pays its fixed part for hundreds of items, and stays well under the 200 ms another writer may wait.
    expect(Math.max(...settled.map((chunk) => chunk.ms))).toBeLessThan(100);
  });

  it('shrinks when the items get slower, and grows again, at most doubling a chunk', () => {
    const seen = run(new TimedChunks(100, 50, 1, 2000), 60, (count, index) => 2 + (index >= 20 && index < 40 ? 1 : 0.1) * count);
    expect(seen[19]!.count).toBeGreaterThan(400);
    expect(seen[39]!.count).toBeLessThan(60);
    expect(seen[59]!.count).toBeGreaterThan(400);
    for (let index = 1; index < seen.length; index++) expect(seen[index]!.count).toBeLessThanOrEqual(2 * seen[index - 1]!.count);
  });

  it('stays between min and max, at most doubling, whatever the times', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 50, max: 3000 }), fc.array(fc.double({ min: 0, max: 500, noNaN: true }), { minLength: 1, maxLength: 40 }), (min, max, times) => {
        const sizes = new TimedChunks(30, 50, min, max);
        let last = sizes.next();
        for (const ms of times) {
          sizes.record(last, ms);
          const next = sizes.next();
          expect(next).toBeGreaterThanOrEqual(min);
          expect(next).toBeLessThanOrEqual(max);
          expect(next).toBeLessThanOrEqual(Math.max(min, 2 * last));
          expect(Number.isInteger(next)).toBe(true);
          last = next;
        }
      }),
    );
  });
});
