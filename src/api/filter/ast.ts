/**
 * The `$filter` syntax tree and builders (docs/decisions.md section 6).
 *
 * Clients build filters with the builders below and send `printFilter(node)`;
 * the server reads them back with `parseFilter(text)`.
 */

/** A literal in a filter: `'text'`, a finite number, `true`/`false`, or `null` (docs/decisions.md section 6). */
export type FilterValue = string | number | boolean | null;

/** The binary comparison operators, always lower-case in the tree (docs/decisions.md section 6). */
export type ComparisonOperator = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le' | 'like';

/**
 * A parsed filter (docs/decisions.md section 6).
 *
 * - `and` / `or` are n-ary: a chain `a and b and c` is one node with three operands.
 *   The parser always produces >= 2 operands.
 * - Parentheses produce no node: `(a eq 1)` is just the `compare` node.
 * - `between` is inclusive at both ends.
 */
export type FilterNode =
  | { kind: 'and'; operands: FilterNode[] }
  | { kind: 'or'; operands: FilterNode[] }
  | { kind: 'not'; operand: FilterNode }
  | { kind: 'compare'; field: string; operator: ComparisonOperator; value: FilterValue }
  | { kind: 'in'; field: string; values: FilterValue[] }
  | { kind: 'between'; field: string; low: FilterValue; high: FilterValue };

/** Every comparison operator, in grammar order (docs/decisions.md section 6). */
export const COMPARISON_OPERATORS: readonly ComparisonOperator[] = ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'like'];

/**
 * Reserved words of the filter language, lower-case; they are matched case-insensitively
 * and can never be field names (docs/decisions.md section 6).
 */
export const FILTER_KEYWORDS: ReadonlySet<string> = new Set([
  'and', 'or', 'not', 'in', 'between', 'true', 'false', 'null', ...COMPARISON_OPERATORS,
]);

/**
 * True when `name` can be written as a field in a filter: it matches `[A-Za-z_][A-Za-z0-9_]*`
 * and is not a keyword in any letter case (docs/decisions.md section 6).
 */
export function isFieldName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !FILTER_KEYWORDS.has(name.toLowerCase());
}

/**
 * Joins filters with `and`, skipping `undefined` entries: no filters gives `undefined`,
 * one gives that filter unchanged, more give one n-ary `and` node (not flattened).
 * Never throws (docs/decisions.md section 6).
 */
export function and(first: FilterNode, ...rest: (FilterNode | undefined)[]): FilterNode;
export function and(...nodes: (FilterNode | undefined)[]): FilterNode | undefined;
export function and(...nodes: (FilterNode | undefined)[]): FilterNode | undefined {
  return join('and', nodes);
}

/**
 * Joins filters with `or`, skipping `undefined` entries: no filters gives `undefined`,
 * one gives that filter unchanged, more give one n-ary `or` node (not flattened).
 * Never throws (docs/decisions.md section 6).
 */
export function or(first: FilterNode, ...rest: (FilterNode | undefined)[]): FilterNode;
export function or(...nodes: (FilterNode | undefined)[]): FilterNode | undefined;
export function or(...nodes: (FilterNode | undefined)[]): FilterNode | undefined {
  return join('or', nodes);
}

function join(kind: 'and' | 'or', nodes: (FilterNode | undefined)[]): FilterNode | undefined {
  const operands = nodes.filter((node): node is FilterNode => node !== undefined);
  if (operands.length <= 1) return operands[0];
  return { kind, operands };
}

/** `not node` (docs/decisions.md section 6). Never throws. */
export function not(node: FilterNode): FilterNode {
  return { kind: 'not', operand: node };
}

/** `field operator value`, e.g. `compare('state', 'eq', 'active')` (docs/decisions.md section 6). Never throws. */
export function compare(field: string, operator: ComparisonOperator, value: FilterValue): FilterNode {
  return { kind: 'compare', field, operator, value };
}

/**
 * `field in (v1, v2, ...)`; the values array is copied (docs/decisions.md section 6).
 * Never throws; an empty list or more than 100 values is only rejected when printed or parsed.
 */
export function inList(field: string, values: readonly FilterValue[]): FilterNode {
  return { kind: 'in', field, values: [...values] };
}

/** `field between low and high`, inclusive at both ends (docs/decisions.md section 6). Never throws. */
export function between(field: string, low: FilterValue, high: FilterValue): FilterNode {
  return { kind: 'between', field, low, high };
}

/**
 * Text a person typed, as a `like` value that matches it literally (a "contains" search): trimmed, with `\`,
 * `%` and `_` escaped, since an unescaped `%` or `_` would make it a pattern (docs/decisions.md section 6, `like`).
 */
export function literalLike(text: string): string {
  return text.trim().replace(/[\\%_]/g, (char) => `\\${char}`);
}
