/**
 * Anchors for deep pages (issue 39 point 1): a page at any `$offset` costs about what the first page costs. For
 * each workspace, data version, filter, order and reading direction, the sort key and id of the row at every
 * `every`-th position (an anchor) are remembered as deep pages are read; a page at `offset` is then read as a
 * seek from the nearest anchor at or before it (`seekFrom`: the rows at or after the anchor in the order, which
 * the order's index starts at directly) plus a short OFFSET of less than `every` rows. A missing anchor is found
 * the same way from the nearest one before it (or from the start), once per data version: the first deep page of
 * a version pays the walk, the next ones do not. The page is exactly the page OFFSET gives (tests:
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

/** Default anchor spacing: a page then skips at most 999 index entries (about 0.1 ms on SQLite, issue 39). */
export const ANCHOR_EVERY = 1000;

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

/**
 * The anchors known per `<workspace>:<data version>:<filter>:<order>:<direction>` key: position (a multiple of
 * `every`) to anchor values. Bounded: the least recently used keys are dropped past `maxKeys`, and each key holds
 * at most `maxAnchors` positions (10,000,000 rows at the default spacing).
 */
export class AnchorCache {
  private readonly keys: VersionedCache<Map<number, AnchorValues>>;
  constructor(
    readonly every = ANCHOR_EVERY,
    maxKeys = 200,
    private readonly maxAnchors = 10_000,
  ) {
    this.keys = new VersionedCache(maxKeys);
  }

  /**
   * Where to read the row at `offset` from: the nearest known anchor at or before it (`from`, or null for the
   * start of the order, `at` then 0) and the anchors map of `key` to add found anchors to.
   */
  async nearest(key: string, offset: number): Promise<{ at: number; from: AnchorValues | null; anchors: Map<number, AnchorValues> }> {
    const anchors = await this.keys.get(key, async () => new Map());
    for (let at = offset - (offset % this.every); at > 0; at -= this.every) {
      const from = anchors.get(at);
      if (from) return { at, from, anchors };
    }
    return { at: 0, from: null, anchors };
  }

  /** Remembers `values` as the anchor at `position` of `anchors` (a map `nearest` gave). */
  remember(anchors: Map<number, AnchorValues>, position: number, values: AnchorValues): void {
    if (anchors.size < this.maxAnchors) anchors.set(position, values);
  }
}
