/**
 * fast-check generators shared by the filter tests (test-only; docs/decisions.md section 6 limits).
 */
import fc from 'fast-check';
import { COMPARISON_OPERATORS, isFieldName, type FilterNode, type FilterValue } from './ast';
import { FILTER_LIMITS } from './parse';
import { printFilter } from './print';

/** Field names: identifiers that are not keywords, sometimes keyword-like (`notes`, `order`, `In_`). */
export const fieldArb: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,10}$/).filter(isFieldName),
  fc.constantFrom('notes', 'order', 'android', 'inx', 'In_', 'eqq', 'null_', 'True1', '_'),
);

/** String values with quotes, whitespace, keywords-in-text and any Unicode code point but U+0000 (refused by the parser). */
export const stringValueArb: fc.Arbitrary<string> = fc
  .oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.string({ unit: fc.constantFrom("'", "''", 'a', ' ', '\t', '\n', 'é', '😀', '中', '(', ')', ',', ' and ', 'null') }),
  )
  .map((value) => value.replaceAll('\0', ''));

/** Finite numbers as the parser produces them (never -0). */
export const numberValueArb: fc.Arbitrary<number> = fc
  .oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.constantFrom(0.1, 1e21, 5e-324, -1.5, 1e-7))
  .map((n) => (n === 0 ? 0 : n));

/** Any literal the parser can produce. */
export const valueArb: fc.Arbitrary<FilterValue> = fc.oneof(stringValueArb, numberValueArb, fc.boolean(), fc.constant(null));

/** Comparison leaves: compare, in (1..100 values) and between. */
export const comparisonArb: fc.Arbitrary<FilterNode> = fc.oneof(
  fc.record({ kind: fc.constant('compare' as const), field: fieldArb, operator: fc.constantFrom(...COMPARISON_OPERATORS), value: valueArb }),
  fc.record({ kind: fc.constant('in' as const), field: fieldArb, values: fc.array(valueArb, { minLength: 1, maxLength: FILTER_LIMITS.maxInValues }) }),
  fc.record({ kind: fc.constant('between' as const), field: fieldArb, low: valueArb, high: valueArb }),
);

const { node: anyTreeArb } = fc.letrec<{ node: FilterNode; not: FilterNode; and: FilterNode; or: FilterNode }>((tie) => ({
  node: fc.oneof({ depthSize: 'small', maxDepth: 8 }, comparisonArb, tie('not'), tie('and'), tie('or')),
  not: tie('node').map((operand): FilterNode => ({ kind: 'not', operand })),
  and: fc.array(tie('node'), { minLength: 2, maxLength: 4 }).map((operands): FilterNode => ({ kind: 'and', operands })),
  or: fc.array(tie('node'), { minLength: 2, maxLength: 4 }).map((operands): FilterNode => ({ kind: 'or', operands })),
}));

/** Valid trees within the parser's limits once printed: <= 50 comparisons, depth <= 10, <= 2000 characters. */
export const treeArb: fc.Arbitrary<FilterNode> = anyTreeArb.filter(
  (node) =>
    countComparisons(node) <= FILTER_LIMITS.maxComparisons &&
    printedDepth(node) <= FILTER_LIMITS.maxDepth &&
    printFilter(node).length <= FILTER_LIMITS.maxLength,
);

/** Number of compare/in/between nodes. */
export function countComparisons(node: FilterNode): number {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.operands.reduce((sum, operand) => sum + countComparisons(operand), 0);
    case 'not':
      return countComparisons(node.operand);
    default:
      return 1;
  }
}

/** Nesting depth of `printFilter(node)`: one per `not` and per parenthesis printFilter adds. */
export function printedDepth(node: FilterNode): number {
  const child = (operand: FilterNode, parent: 'and' | 'or' | 'not') => {
    const wrapped = (operand.kind === 'and' || operand.kind === 'or') && !(operand.kind === 'and' && parent === 'or');
    return printedDepth(operand) + (wrapped ? 1 : 0);
  };
  switch (node.kind) {
    case 'and':
    case 'or':
      return Math.max(...node.operands.map((operand) => child(operand, node.kind)));
    case 'not':
      return 1 + child(node.operand, 'not');
    default:
      return 0;
  }
}
