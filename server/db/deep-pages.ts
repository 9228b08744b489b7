/**
 * Anchors for deep pages (issue 39 point 1): a page at any `$offset` costs about what the first page costs. For
 * each workspace, data version, filter, order and reading direction, the sort key and id of the first row of every
 * deep page read (an anchor at that page's position) are remembered; a page at `offset` is then read as a seek from
 * its anchor (`seekFrom`: the rows at or after the anchor in the order, which the order's index starts at directly)
 * with no OFFSET at all. A missing anchor is found from the nearest known one before it (or from the start), so the
 * first read of a page pays a walk of the rows between the two, once per data version; the next reads of that page,
 * and of the pages after it, do not walk far. The page is exactly the page OFFSET gives (tests:
 * server/test/deep-page-anchors.test.ts), because the seek keeps every row from the anchor on, in the same order
 * (docs/decisions.md section 6: nulls first ascending, last descending, `id` ascending as the tie-breaker).
 */
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { VersionedCache } from './count-cache';

/**
 * One ORDER BY term as the page query orders by it: its SQL expression, its direction as read (already flipped
 * for a reverse read), and whether it can be null (then nulls come first ascending, last descending).
 */
export type SortTerm = { expression: RawBuilder<unknown>; direction: 'asc' | 'desc'; nullable: boolean };

/** The values of an anchor row, one per `SortTerm` (the id last), as the database returned them. */
export type AnchorValues = readonly unknown[];

/**
 * How deep a page is read from an anchor: pages starting this many rows or more into their reading direction. A
 * shallower page's OFFSET skips fewer index entries than finding its anchor would cost (about 0.1 ms on SQLite).
 */
export const ANCHORS_FROM = 1000;

/**
 * SQL true for the rows at or after `anchor` in the order `terms` (the last term is the unique id, so the anchor
 * row is the first of them). Anchor values are bound, never spliced. A leading bound on the first term
 * (`created <= $1` newest first) is added as a plain conjunct, so that both databases start the order's index at
 * the anchor instead of testing rows from the start; the rest is the exact lexicographic comparison.
 */
export function seekFrom(terms: readonly SortTerm[], anchor: AnchorValues): RawBuilder<SqlBool> {
  const at = (i: number): RawBuilder<SqlBool> => {
    const { expression: t, direction, nullable } = terms[i]!;
    const a = anchor[i];
    if (i === terms.length - 1) return direction === 'asc' ? sql<SqlBool>`${t} >= ${a}` : sql<SqlBool>`${t} <= ${a}`;
    const equal = a === null ? sql<SqlBool>`${t} is null` : sql<SqlBool>`${t} = ${a}`;
    let after: RawBuilder<SqlBool> | null;
    if (direction === 'asc') after = a === null ? sql<SqlBool>`${t} is not null` : sql<SqlBool>`${t} > ${a}`;
    else if (a === null) after = null; // nulls last: nothing comes after a null but other nulls
    else after = nullable ? sql<SqlBool>`(${t} < ${a} or ${t} is null)` : sql<SqlBool>`${t} < ${a}`;
    const rest = sql<SqlBool>`(${equal} and ${at(i + 1)})`;
    return after ? sql<SqlBool>`(${after} or ${rest})` : rest;
  };
  const { expression: t, direction, nullable } = terms[0]!;
  const a = anchor[0];
  let bound: RawBuilder<SqlBool> | null = null;
  if (direction === 'asc' && a !== null) bound = sql<SqlBool>`${t} >= ${a}`;
  else if (direction === 'desc' && a === null) bound = sql<SqlBool>`${t} is null`;
  else if (direction === 'desc' && !nullable) bound = sql<SqlBool>`${t} <= ${a}`;
  return bound ? sql<SqlBool>`(${bound} and ${at(0)})` : at(0);
}

/** The anchors of one key: positions ascending, and each position's values. */
type Anchors = { readonly positions: number[]; readonly values: Map<number, AnchorValues> };

/**
 * The anchors known per `<workspace>:<data version>:<filter>:<order>:<direction>` key: row position (0-based, in the
 * key's reading direction) to anchor values. Bounded: the least recently used keys are dropped past `maxKeys`, and
 * each key holds at most `maxAnchors` positions (`remember` thins them when full).
 */
export class AnchorCache {
  private readonly keys: VersionedCache<Anchors>;
  /** At least 3: `remember` drops an anchor between two others. */
  private readonly maxAnchors: number;
  constructor(readonly from = ANCHORS_FROM, maxKeys = 200, maxAnchors = 10_000) {
    this.keys = new VersionedCache(maxKeys);
    this.maxAnchors = Math.max(3, maxAnchors);
  }

  /**
   * Where to read the row at `offset` from: the nearest known anchor at or before it (`from`, or null for the
   * start of the order, `at` then 0) and the anchors of `key` to add found ones to (`remember`).
   */
  async nearest(key: string, offset: number): Promise<{ at: number; from: AnchorValues | null; anchors: Anchors }> {
    const anchors = await this.keys.get(key, async () => ({ positions: [], values: new Map() }));
    const i = lastAtOrBefore(anchors.positions, offset);
    if (i < 0) return { at: 0, from: null, anchors };
    const at = anchors.positions[i]!;
    return { at, from: anchors.values.get(at)!, anchors };
  }

  /**
   * Remembers `values` as the anchor at `position` of `anchors` (which `nearest` gave). When they are full, the anchor
   * whose two neighbours are closest together is dropped first (never the first or the last): the rest spread over
   * every position read so far, and a reader paging on through millions of rows keeps walking one page from the last
   * (a cap that refused new anchors made every page past the last one remembered walk from there).
   */
  remember(anchors: Anchors, position: number, values: AnchorValues): void {
    if (anchors.values.has(position)) return;
    const at = anchors.positions;
    if (at.length >= this.maxAnchors) {
      let drop = 1;
      for (let i = 2; i < at.length - 1; i++) if (at[i + 1]! - at[i - 1]! < at[drop + 1]! - at[drop - 1]!) drop = i;
      anchors.values.delete(at[drop]!);
      at.splice(drop, 1);
    }
    at.splice(lastAtOrBefore(at, position) + 1, 0, position);
    anchors.values.set(position, values);
  }
}

/** The index of the last of the ascending `positions` at or before `offset`, -1 when none is. */
function lastAtOrBefore(positions: readonly number[], offset: number): number {
  let low = 0;
  let high = positions.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (positions[middle]! <= offset) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}
