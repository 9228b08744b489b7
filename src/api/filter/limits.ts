/**
 * Size limits of a `$filter` (docs/decisions.md section 6), in a module of their own so that code which only cuts
 * filters to size (the contacts import's look-ups) need not load the parser. Lengths count UTF-16 code units.
 */
export const FILTER_LIMITS = {
  /** Longest accepted filter text. */
  maxLength: 2000,
  /** Most comparisons; each `compare`, `in` and `between` counts one. */
  maxComparisons: 50,
  /** Deepest nesting; every open `(` and every `not` adds one level. */
  maxDepth: 10,
  /** Most values in one `in (...)` list. */
  maxInValues: 100,
} as const;
