/**
 * Canonical `$filter` text for a tree (docs/decisions.md section 6).
 */
import { isFieldName, type FilterNode, type FilterValue } from './ast';

/**
 * Prints a tree as canonical filter text (docs/decisions.md section 6): lower-case keywords, single
 * spaces, `'` doubled inside strings, numbers in JavaScript's shortest round-trip form
 * (`1e+21`, `5e-324`; -0 prints as `0`), `in` as `field in ('a', 'b')`, `between` as
 * `field between 1 and 5`.
 *
 * Parentheses are added only where needed to keep the tree's shape: around an `or` inside an
 * `and`, an `and`/`or` inside the same kind, and an `and`/`or` inside `not`. An `and` inside an
 * `or` needs none (`and` binds tighter). So the printed text is never nested deeper than the
 * text it was parsed from, and `parseFilter(printFilter(ast))` deep-equals `ast` for every tree
 * `parseFilter` produces, provided the printed text stays within 2000 characters (canonical
 * spacing and number forms can make it longer than a tightly written source).
 *
 * @throws RangeError for trees no filter text can express: a field that is not an identifier or
 *   is a keyword, a non-finite number, an `and`/`or` with no operands, an empty `in` list.
 *   A one-operand `and`/`or` prints as its operand.
 */
export function printFilter(node: FilterNode): string {
  switch (node.kind) {
    case 'and':
    case 'or':
      if (node.operands.length === 0) throw new RangeError(`cannot print an '${node.kind}' with no operands`);
      return node.operands.map((operand) => printOperand(operand, node.kind)).join(` ${node.kind} `);
    case 'not':
      return `not ${printOperand(node.operand, 'not')}`;
    case 'compare':
      return `${printField(node.field)} ${node.operator} ${printFilterValue(node.value)}`;
    case 'in':
      if (node.values.length === 0) throw new RangeError(`cannot print an empty 'in' list for '${node.field}'`);
      return `${printField(node.field)} in (${node.values.map(printFilterValue).join(', ')})`;
    case 'between':
      return `${printField(node.field)} between ${printFilterValue(node.low)} and ${printFilterValue(node.high)}`;
  }
}

/**
 * Prints one literal as filter text (docs/decisions.md section 6): `'it''s'`, `-1.5`, `1e+21`, `true`, `null`.
 * @throws RangeError for NaN and infinities, which the language cannot express.
 */
export function printFilterValue(value: FilterValue): string {
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError(`cannot print the number ${value}`);
  return String(value); // String(-0) is '0'
}

function printOperand(child: FilterNode, parent: 'and' | 'or' | 'not'): string {
  const text = printFilter(child);
  const needsParens = (child.kind === 'and' || child.kind === 'or') && !(child.kind === 'and' && parent === 'or');
  return needsParens ? `(${text})` : text;
}

function printField(field: string): string {
  if (!isFieldName(field)) throw new RangeError(`cannot print field name '${field}'`);
  return field;
}
