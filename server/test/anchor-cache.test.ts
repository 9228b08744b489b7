/**
 * The deep pages' anchor cache (server/db/deep-pages.ts `AnchorCache`, issue 39): the nearest anchor at or before a
 * position, and what it keeps when full. No database: the anchors' values are the positions themselves here.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnchorCache } from '../db/deep-pages';

describe('the anchor cache', () => {
  it('finds the nearest anchor at or before an offset, or the start', async () => {
    const cache = new AnchorCache(1000);
    const { anchors } = await cache.nearest('k', 0);
    for (const at of [5000, 2000, 9000]) cache.remember(anchors, at, [at]);
    expect(await cache.nearest('k', 1999)).toMatchObject({ at: 0, from: null });
    expect(await cache.nearest('k', 2000)).toMatchObject({ at: 2000, from: [2000] });
    expect(await cache.nearest('k', 8999)).toMatchObject({ at: 5000, from: [5000] });
    expect(await cache.nearest('k', 50_000)).toMatchObject({ at: 9000, from: [9000] });
    expect(await cache.nearest('other', 50_000)).toMatchObject({ at: 0, from: null });
  });

  it('when full, drops the anchor between the closest two and keeps the new one, so a reader paging on walks one page', async () => {
    const cache = new AnchorCache(1000, 10, 8);
    const { anchors } = await cache.nearest('k', 0);
    // A reader paging through 100 pages of 50 rows: each page walks from the one before it.
    for (let page = 1; page <= 100; page++) {
      const at = page * 50;
      const near = await cache.nearest('k', at);
      expect(at - near.at, `page ${page}`).toBe(50);
      cache.remember(anchors, at, [at]);
      expect(anchors.positions.length).toBeLessThanOrEqual(8);
    }
    // Thinned, the anchors still span the pages read, from the first to the last, evenly enough that a page anywhere
    // among them walks at most twice an even share of the range (8 anchors over 5,000 rows: 7 stretches).
    expect(anchors.positions[0]).toBe(50);
    expect(anchors.positions.at(-1)).toBe(5000);
    const gaps = anchors.positions.slice(1).map((at, i) => at - anchors.positions[i]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual((2 * 4950) / 7);
  });

  it('keeps its positions ascending, each with its own values, never more than its bound', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(100_000), { maxLength: 200 }), fc.integer({ min: 3, max: 20 }), async (positions, bound) => {
        const cache = new AnchorCache(1000, 10, bound);
        const { anchors } = await cache.nearest('k', 0);
        for (const at of positions) cache.remember(anchors, at, [at]);
        expect(anchors.positions).toEqual([...anchors.positions].sort((a, b) => a - b));
        expect(anchors.positions.length).toBe(anchors.values.size);
        expect(anchors.positions.length).toBeLessThanOrEqual(bound);
        for (const at of anchors.positions) expect(anchors.values.get(at)).toEqual([at]);
        if (positions.length) expect(anchors.positions).toContain(positions.at(-1));
        for (const offset of [0, 777, 50_000, 100_000]) {
          const near = await cache.nearest('k', offset);
          const expected = anchors.positions.filter((at) => at <= offset).at(-1);
          expect(near.at).toBe(expected ?? 0);
        }
      }),
      { numRuns: 200, seed: 391 },
    );
  });
});
