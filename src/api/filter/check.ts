/**
 * Semantic checks of a parsed `$filter` / `$orderBy` against an endpoint's field table
 * (docs/decisions.md section 6).
 */
import type { ComparisonOperator, FilterNode, FilterValue } from './ast';
import { DATE_RANGE, isInDateRange } from '../common';
import { type FieldTable, type FieldType, NUMBER_RANGES } from './fields';
import { parseOrderBy, type OrderByItem } from './order-by';
import { parseFilter } from './parse';
import { printFilterValue } from './print';

/**
 * What a value must be, in a `FilterFieldProblem`: a type, or a range of a type (issue 12 points 3 and 4; the ranges'
 * ends are `NUMBER_RANGES` numbers and `DATE_RANGE` ISO texts).
 */
export type FilterExpectation =
  | { kind: 'string' | 'number' | 'date' | 'boolean' }
  | { kind: 'integerRange' | 'numberRange'; min: number; max: number }
  | { kind: 'dateRange'; min: string; max: string };

/**
 * How a filter that parses does not fit the endpoint's fields, as data (docs/decisions.md section 6):
 * `FilterFieldError.message` is its English sentence for the API's answers, and the console words it in the
 * language it shows (issue 23). `got` is the value as the filter writes it (`'abc'`, `1.5`).
 */
export type FilterFieldProblem =
  | { code: 'unknownField'; field: string; filterable: readonly string[] }
  | { code: 'likeNotText'; field: string }
  | { code: 'operatorNotForType'; field: string; operator: string; type: FieldType }
  | { code: 'nullOnlyEqNe'; field: string }
  | { code: 'valueType'; field: string; expects: FilterExpectation; got: string };

function expectationText(expects: FilterExpectation): string {
  switch (expects.kind) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'date':
      return 'an ISO 8601 date';
    case 'boolean':
      return 'true or false';
    case 'integerRange':
      return `an integer from ${expects.min} to ${expects.max}`;
    case 'numberRange':
      return `a number from ${expects.min} to ${expects.max}`;
    case 'dateRange':
      return `a date between ${expects.min} and ${expects.max} (UTC)`;
  }
}

/** The English sentence of a problem, as the service answers it (unprefixed). */
export function filterFieldMessage(problem: FilterFieldProblem): string {
  switch (problem.code) {
    case 'unknownField':
      return `unknown field '${problem.field}'; ${problem.filterable.length > 0 ? `filterable fields are ${problem.filterable.join(', ')}` : 'this endpoint has no filterable fields'}`;
    case 'likeNotText':
      return `like applies to text fields, not '${problem.field}'`;
    case 'operatorNotForType':
      return `operator '${problem.operator}' does not apply to ${problem.type} field '${problem.field}'; ${TYPE_RULES[problem.type].hint}`;
    case 'nullOnlyEqNe':
      return 'null can only be compared with eq or ne';
    case 'valueType':
      return `field '${problem.field}' expects ${expectationText(problem.expects)}, got ${problem.got}`;
  }
}

/**
 * A filter that parses but does not fit the endpoint's fields (docs/decisions.md section 6).
 * `field` is the field the problem is about; `problem` says what is wrong as data. Messages are unprefixed.
 */
export class FilterFieldError extends Error {
  override readonly name = 'FilterFieldError';
  readonly field: string;
  readonly problem: FilterFieldProblem;

  constructor(problem: FilterFieldProblem) {
    super(filterFieldMessage(problem));
    this.field = problem.field;
    this.problem = problem;
  }
}

/**
 * An `$orderBy` field the endpoint cannot sort by (docs/decisions.md section 6). Messages are unprefixed.
 */
export class OrderByFieldError extends Error {
  override readonly name = 'OrderByFieldError';
  readonly field: string;

  constructor(message: string, field: string) {
    super(message);
    this.field = field;
  }
}

/** An operation a comparison can use: a comparison operator, `in` or `between` (docs/decisions.md section 6). */
export type FilterOperation = ComparisonOperator | 'in' | 'between';
type Operation = FilterOperation;

const ORDERING: readonly Operation[] = ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'in', 'between'];

/** Which operations each field type allows, what its values must be, and the hint when an operator does not apply. */
const TYPE_RULES: Record<FieldType, { operations: readonly Operation[]; expects: FilterExpectation; hint: string }> = {
  string: { operations: [...ORDERING, 'like'], expects: { kind: 'string' }, hint: '' },
  integer: { operations: ORDERING, expects: { kind: 'number' }, hint: '' },
  decimal: { operations: ORDERING, expects: { kind: 'number' }, hint: '' },
  date: { operations: ORDERING, expects: { kind: 'date' }, hint: '' },
  boolean: { operations: ['eq', 'ne', 'in'], expects: { kind: 'boolean' }, hint: 'use eq, ne or in' },
  'string-array': {
    operations: ['eq', 'ne', 'in'],
    expects: { kind: 'string' },
    hint: 'use eq (has), ne (has not) or in (has any)',
  },
};

/**
 * The operations `checkFilter` accepts on a field of `type`, in grammar order (docs/decisions.md section 6): every
 * one on text; no `like` on numbers and dates; eq, ne and in on booleans and lists. `eq null` / `ne null` are
 * accepted on every type besides. Never throws; the array is the rule table's own, not to be changed.
 */
export function filterOperations(type: FieldType): readonly FilterOperation[] {
  return TYPE_RULES[type].operations;
}

/**
 * Checks every comparison in `node` against `fields` (docs/decisions.md section 6):
 * - the field must be in the table (exact name);
 * - `null` only with eq/ne (on string-array fields `eq null` means empty, `ne null` not empty);
 * - `like` only on string fields; boolean and string-array fields allow only eq/ne/in
 *   (on string-array: has / has not / has any); gt/ge/lt/le/between on string, number, date;
 * - values must match the type: strings for string and string-array, finite numbers for integer and decimal,
 *   `true`/`false` for boolean, ISO 8601 date or date-time strings for date (see `isIsoDate`);
 * - and be a value the field can hold (issue 12 points 3 and 4): integer and decimal literals within their
 *   `NUMBER_RANGES` (integers whole), dates within `DATE_RANGE` of ../common.ts once read as `filterInstant` does.
 * @throws FilterFieldError, e.g. `unknown field 'foo'; filterable fields are id, name, ...`,
 *   `field 'price' expects a number, got 'abc'`, `null can only be compared with eq or ne`,
 *   `like applies to text fields, not 'price'`,
 *   `operator 'gt' does not apply to boolean field 'isForSale'; use eq, ne or in`,
 *   `field 'created' expects an ISO 8601 date, got 'yesterday'`,
 *   `field 'claps' expects an integer from -2147483648 to 2147483647, got 1.5`,
 *   `field 'price' expects a number from 0 to 1000000000000, got 1e+308`,
 *   `field 'created' expects a date between 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z (UTC), got ...`.
 */
export function checkFilter(node: FilterNode, fields: FieldTable): void {
  switch (node.kind) {
    case 'and':
    case 'or':
      for (const operand of node.operands) checkFilter(operand, fields);
      return;
    case 'not':
      return checkFilter(node.operand, fields);
    case 'compare':
      return checkComparison(fields, node.field, node.operator, [node.value]);
    case 'in':
      return checkComparison(fields, node.field, 'in', node.values);
    case 'between':
      return checkComparison(fields, node.field, 'between', [node.low, node.high]);
  }
}

function checkComparison(fields: FieldTable, field: string, operation: Operation, values: readonly FilterValue[]): void {
  if (!Object.hasOwn(fields, field)) throw new FilterFieldError({ code: 'unknownField', field, filterable: Object.keys(fields) });
  const type = fields[field]!;
  const rules = TYPE_RULES[type];
  if (operation === 'like' && type !== 'string') throw new FilterFieldError({ code: 'likeNotText', field });
  if (!rules.operations.includes(operation)) throw new FilterFieldError({ code: 'operatorNotForType', field, operator: operation, type });
  for (const value of values) {
    if (value === null) {
      if (operation !== 'eq' && operation !== 'ne') throw new FilterFieldError({ code: 'nullOnlyEqNe', field });
    } else if (!valueFits(type, value)) {
      throw new FilterFieldError({ code: 'valueType', field, expects: rules.expects, got: describe(value) });
    } else {
      const outside = outOfRange(type, value);
      if (outside) throw new FilterFieldError({ code: 'valueType', field, expects: outside, got: describe(value) });
    }
  }
}

function valueFits(type: FieldType, value: string | number | boolean): boolean {
  switch (type) {
    case 'string':
    case 'string-array':
      return typeof value === 'string';
    case 'integer':
    case 'decimal':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'date':
      return typeof value === 'string' && isIsoDate(value);
  }
}

/** What the field expects when `value` (of the right type) is outside what it can hold, or null. */
function outOfRange(type: FieldType, value: string | number | boolean): FilterExpectation | null {
  if (type === 'integer' || type === 'decimal') {
    const { min, max } = NUMBER_RANGES[type];
    const number = value as number;
    if (type === 'integer' && !Number.isInteger(number)) return { kind: 'integerRange', min, max };
    if (number < min || number > max) return { kind: type === 'integer' ? 'integerRange' : 'numberRange', min, max };
  }
  if (type === 'date' && !isInDateRange(filterInstant(value as string))) return { kind: 'dateRange', min: DATE_RANGE.min, max: DATE_RANGE.max };
  return null;
}

/**
 * The instant a `$filter` date literal names (one `isIsoDate` accepts): a date is midnight UTC, a date-time
 * without an offset is UTC, one with an offset is that offset. The server compares stored UTC times with it.
 */
export function filterInstant(text: string): Date {
  const hasTime = text.includes('T');
  const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/.test(text);
  return new Date(hasTime && !hasOffset ? `${text}Z` : text);
}

function describe(value: string | number | boolean): string {
  return typeof value === 'number' && !Number.isFinite(value) ? String(value) : printFilterValue(value);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(T(\d{2}):(\d{2})(:(\d{2})(\.\d{1,9})?)?(Z|[+-](\d{2}):?(\d{2}))?)?$/;

/**
 * True for an ISO 8601 date (`2024-05-01`) or date-time (`2024-05-01T10:30`, `...T10:30:00.5Z`,
 * `...T10:30+02:00`) as docs/decisions.md section 6 requires: it matches
 * `^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$` and `Date.parse`
 * accepts it. Additionally the parts must be in range (month 1-12, a day that exists in that
 * month, hour 0-23, minute and second 0-59, offset up to 23:59), so the answer does not depend on
 * how lenient the JavaScript engine's `Date.parse` is (V8 reads `2024-02-30` as March 1).
 * A date-time without an offset is local time to `Date.parse`.
 */
export function isIsoDate(text: string): boolean {
  const m = ISO_DATE.exec(text);
  if (m === null) return false;
  const [year, month, day, hour, minute, second, offsetHour, offsetMinute] = [1, 2, 3, 5, 6, 8, 11, 12].map((i) => Number(m[i] ?? 0)) as [
    number, number, number, number, number, number, number, number,
  ];
  const inRange =
    month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month) &&
    hour <= 23 && minute <= 59 && second <= 59 && offsetHour <= 23 && offsetMinute <= 59;
  return inRange && !Number.isNaN(Date.parse(text));
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Checks that every `$orderBy` field is sortable on this endpoint (docs/decisions.md section 6).
 * @throws OrderByFieldError, e.g. `cannot sort by 'bio'; sortable fields are name, email, ...`
 *   or `cannot sort by 'price'; this endpoint has no sortable fields`.
 */
export function checkOrderBy(items: readonly OrderByItem[], sortable: readonly string[]): void {
  for (const { field } of items) {
    if (!sortable.includes(field)) {
      const list = sortable.length > 0 ? `sortable fields are ${sortable.join(', ')}` : 'this endpoint has no sortable fields';
      throw new OrderByFieldError(`cannot sort by '${field}'; ${list}`, field);
    }
  }
}

/**
 * `parseFilter` then `checkFilter` (docs/decisions.md section 6).
 * @throws FilterSyntaxError (from parseFilter) or FilterFieldError (from checkFilter).
 */
export function parseAndCheckFilter(text: string, fields: FieldTable): FilterNode {
  const node = parseFilter(text);
  checkFilter(node, fields);
  return node;
}

/**
 * `parseOrderBy` then `checkOrderBy` (docs/decisions.md section 6).
 * @throws OrderBySyntaxError (from parseOrderBy) or OrderByFieldError (from checkOrderBy).
 */
export function parseAndCheckOrderBy(text: string, sortable: readonly string[]): OrderByItem[] {
  const items = parseOrderBy(text);
  checkOrderBy(items, sortable);
  return items;
}
