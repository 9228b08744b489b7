/**
 * A `$filter` as field/operator/value rows joined by "all of" (`and`) or "any of" (`or`), and back (issue 34
 * point 9): the Advanced box's rows and its text are two views of one AST (src/api/filter/ast.ts), printed by the
 * shared printer. Framework-free and pure.
 *
 * What a row can say is derived from the field check (`filterOperations` of src/api/filter/check.ts,
 * docs/decisions.md section 6), never more: `like` is offered as "contains" (a value with no `%` or `_` matches
 * anything containing it; `literalLike`'s escapes keep a typed `%` literal), `eq null` / `ne null` as "is empty" /
 * "is not empty". Of what the check accepts, rows leave to the text: ordering text (`name gt 'a'`), a `like`
 * pattern, `in` on free text (`city in (...)`: rows say it as "any of" several rows), equality on a date
 * (`created eq ...`), and on fields with a fixed set of values (`choices`) anything but eq, ne and in. A filter holding one of those, a `not`, or and/or nested in each other, is not
 * "flat": `nodeToRows` answers null, and the box says it can only be edited as text.
 */
import { type FilterNode, type FilterValue, between, compare, inList } from '@/api/filter/ast';
import { type FilterOperation, filterOperations, isIsoDate } from '@/api/filter/check';
import type { FieldTable, FieldType } from '@/api/filter/fields';

/** What a row's operator menu offers; `contains` is `like`, `empty` / `notEmpty` are `eq null` / `ne null`. */
export type RowOperator = Exclude<FilterOperation, 'like'> | 'contains' | 'empty' | 'notEmpty';

/**
 * One condition. `values` are the texts the person typed or picked: one for most operators, two for `between`
 * (low, high), one or more for `in`, none for `empty` / `notEmpty`. Numbers and booleans are written as text
 * (`12.5`, `true`) and read back by the field's type.
 */
export type FilterRow = { field: string; operator: RowOperator; values: string[] };

/** The rows and how they are joined: `and` is "all of", `or` "any of". */
export type FilterRows = { join: 'and' | 'or'; rows: FilterRow[] };

/** Row operators per field type, in menu order, before they are matched with what the check accepts. */
const ROW_OPERATORS: Record<FieldType, readonly RowOperator[]> = {
  string: ['eq', 'ne', 'contains', 'empty', 'notEmpty'],
  date: ['gt', 'ge', 'lt', 'le', 'between'],
  'string-array': ['eq', 'ne', 'in', 'empty', 'notEmpty'],
  integer: ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'between', 'in'],
  decimal: ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'between', 'in'],
  boolean: ['eq', 'ne'],
};

/** Operators of a text field with a fixed set of values (a contact's state): equality, and one of the values. */
const CHOICE_OPERATORS: readonly RowOperator[] = ['eq', 'ne', 'in'];

/** The filter operation a row operator prints as (`empty` and `notEmpty` compare with null). */
function operationOf(operator: RowOperator): FilterOperation {
  if (operator === 'contains') return 'like';
  if (operator === 'empty') return 'eq';
  if (operator === 'notEmpty') return 'ne';
  return operator;
}

/**
 * The operators a row on a field of `type` offers: the rows' menu for that type (equality only when the field has
 * `choices`) kept to the operations `checkFilter` accepts for it. Never throws.
 */
export function rowOperators(type: FieldType, options: { choices?: boolean } = {}): RowOperator[] {
  // `choices` is about text fields (a contact's state); its operators all apply to text.
  const accepted = filterOperations(type);
  return (options.choices ? CHOICE_OPERATORS : ROW_OPERATORS[type]).filter((operator) => accepted.includes(operationOf(operator)));
}

/** How many values an operator takes: `[min, max]` (`in` any number from one). */
export function valueCount(operator: RowOperator): [number, number] {
  if (operator === 'empty' || operator === 'notEmpty') return [0, 0];
  if (operator === 'between') return [2, 2];
  if (operator === 'in') return [1, Infinity];
  return [1, 1];
}

/** A row's operator kept if `type` offers it, else the type's first: what a row becomes when its field changes. */
export function fitOperator(operator: RowOperator, type: FieldType, options: { choices?: boolean } = {}): RowOperator {
  const offered = rowOperators(type, options);
  return offered.includes(operator) ? operator : offered[0]!;
}

/** `text` escaped so that `like` matches it literally (as `literalLike`, but not trimmed, so it reads back whole). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** The literal text of a `like` value that is a plain "contains", or null for a pattern (`%`, `_`, a lone `\`). */
export function unescapeLike(value: string): string | null {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const char = value[i]!;
    if (char === '%' || char === '_') return null;
    if (char === '\\') {
      const next = value[i + 1];
      if (next !== '\\' && next !== '%' && next !== '_') return null;
      out += next;
      i++;
    } else out += char;
  }
  return out;
}

/** A typed text as the literal a field of `type` compares with, or undefined when it cannot be one (empty, not a number). */
function literal(text: string, type: FieldType): FilterValue | undefined {
  if (text === '') return undefined;
  if (type === 'integer' || type === 'decimal') {
    const number = Number(text.trim());
    return text.trim() !== '' && Number.isFinite(number) ? (number === 0 ? 0 : number) : undefined;
  }
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : undefined;
  return text;
}

/** A literal as a row's text, or null when a row of that type cannot show it (wrong type, null, empty text). */
function text(value: FilterValue, type: FieldType): string | null {
  if (value === null) return null;
  if (type === 'integer' || type === 'decimal') return typeof value === 'number' ? String(value) : null;
  if (type === 'boolean') return typeof value === 'boolean' ? String(value) : null;
  if (typeof value !== 'string' || value === '') return null;
  if (type === 'date' && !isIsoDate(value)) return null;
  return value;
}

/**
 * The AST of one row, or undefined while it is incomplete (an unknown field, or a value not yet given). The text
 * of a value is not checked beyond its type: the box checks the printed text as it checks typed text. Never throws.
 */
export function rowToNode(row: FilterRow, fields: FieldTable): FilterNode | undefined {
  const type = Object.hasOwn(fields, row.field) ? fields[row.field]! : undefined;
  if (!type) return undefined;
  const values = row.values.map((value) => literal(value, type));
  switch (row.operator) {
    case 'empty':
      return compare(row.field, 'eq', null);
    case 'notEmpty':
      return compare(row.field, 'ne', null);
    case 'contains':
      return values[0] === undefined ? undefined : compare(row.field, 'like', escapeLike(row.values[0]!));
    case 'in': {
      const given = values.filter((value) => value !== undefined);
      return given.length ? inList(row.field, given) : undefined;
    }
    case 'between':
      return values[0] === undefined || values[1] === undefined ? undefined : between(row.field, values[0], values[1]);
    default:
      return values[0] === undefined ? undefined : compare(row.field, row.operator, values[0]);
  }
}

/**
 * The AST of the rows: the complete rows joined by `and` (all of) or `or` (any of); one complete row is that row's
 * node, none is undefined (no filter). Never throws.
 */
export function rowsToNode({ join, rows }: FilterRows, fields: FieldTable): FilterNode | undefined {
  const nodes = rows.map((row) => rowToNode(row, fields)).filter((node): node is FilterNode => node !== undefined);
  if (nodes.length <= 1) return nodes[0];
  return { kind: join, operands: nodes };
}

/**
 * The row of one comparison, or null when a row cannot say it (see the module's comment). `choices` names the
 * fields with a fixed set of values. Never throws.
 */
export function nodeToRow(node: FilterNode, fields: FieldTable, choices: readonly string[] = []): FilterRow | null {
  if (node.kind !== 'compare' && node.kind !== 'in' && node.kind !== 'between') return null;
  const type = Object.hasOwn(fields, node.field) ? fields[node.field]! : undefined;
  if (!type) return null;
  const offered = rowOperators(type, { choices: choices.includes(node.field) });
  const row = (operator: RowOperator, values: (string | null)[]): FilterRow | null =>
    offered.includes(operator) && values.every((value) => value !== null) ? { field: node.field, operator, values: values as string[] } : null;
  if (node.kind === 'in') return row('in', node.values.map((value) => text(value, type)));
  if (node.kind === 'between') return row('between', [text(node.low, type), text(node.high, type)]);
  if (node.value === null) return node.operator === 'eq' ? row('empty', []) : node.operator === 'ne' ? row('notEmpty', []) : null;
  if (node.operator === 'like') {
    const literalText = typeof node.value === 'string' ? unescapeLike(node.value) : null;
    return row('contains', [literalText === '' ? null : literalText]);
  }
  return row(node.operator, [text(node.value, type)]);
}

/**
 * The rows of a filter when it is flat: one comparison, or one `and` / `or` of comparisons each of which a row can
 * say; null otherwise. `undefined` (no filter) is no rows. `rowsToNode(nodeToRows(ast))` deep-equals `ast` for
 * every flat `ast` (filter-rows.test.ts). Never throws.
 */
export function nodeToRows(node: FilterNode | undefined, fields: FieldTable, choices: readonly string[] = []): FilterRows | null {
  if (node === undefined) return { join: 'and', rows: [] };
  const operands = node.kind === 'and' || node.kind === 'or' ? node.operands : [node];
  if (operands.length === 0) return null;
  const rows = operands.map((operand) => nodeToRow(operand, fields, choices));
  if (rows.some((row) => row === null)) return null;
  return { join: node.kind === 'or' ? 'or' : 'and', rows: rows as FilterRow[] };
}
