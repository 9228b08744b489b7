/**
 * Compiles a checked `$filter` AST (src/api/filter) to SQL for one endpoint, and `$orderBy` items to ORDER BY
 * terms. Field names come only from the endpoint's `FieldMap` allow-list; every value is a bound parameter
 * (docs/decisions.md section 6). Semantics, from the same section:
 * - `ne` and `not` are two-valued: a missing value is "not equal" (`city ne 'Oslo'` keeps contacts with no city).
 * - `like` is case-insensitive; a pattern with an unescaped `%` or `_` is used as is, otherwise it is a
 *   "contains" match; `\%` and `\_` are literal.
 * - On array fields `eq` means has, `ne` has not, `in` has any of; `eq null` means empty.
 * - Dates compare as instants: values are normalised to the stored UTC form.
 */
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { FilterNode, FilterValue } from '../../src/api/filter/ast';
import type { OrderByItem } from '../../src/api/filter/order-by';
import { filterInstant } from '../../src/api/filter/check';
import type { FieldType } from '../../src/api/filter/fields';
import type { Dialect } from '../db/connection';

/**
 * `nullable`: the column can be null in sorted rows; nulls then sort as the smallest value, on every database.
 * `caseInsensitiveKey`: a column holding the lower-cased value (indexed); `eq`, `ne` and `in` compare the lower-cased
 * literal with it instead of the column, so they ignore letter case (contacts' `email`, whose identity is
 * case-insensitive: docs/decisions.md section 7; issue 20 looks existing contacts up with `email in (...)`).
 */
export type ColumnField = { kind: 'column'; column: string; type: Exclude<FieldType, 'string-array'>; sortExpression?: string; nullable?: true; caseInsensitiveKey?: string };
export type ArrayField = { kind: 'array'; table: string; ownerColumn: string; valueColumn: string; parentId: string };
/** Filterable fields of an endpoint: API field name to where its value lives. */
export type FieldMap = Readonly<Record<string, ColumnField | ArrayField>>;

type Sql = RawBuilder<SqlBool>;

/** `\%` and `\_` stay literal; a lone backslash is doubled; no unescaped wildcard means "contains". */
export function likePattern(value: string): string {
  const hasWildcard = /(^|[^\\])[%_]/.test(value);
  const escaped = value.replace(/\\(?![%_])/g, '\\\\');
  return hasWildcard ? escaped : `%${escaped}%`;
}

/** An ISO date or date-time as the stored UTC form; a date-time without an offset is taken as UTC. */
export function toInstant(text: string): string {
  return filterInstant(text).toISOString();
}

function bindValue(field: ColumnField, value: FilterValue, dialect: Dialect): unknown {
  if (value === null) return null;
  if (field.type === 'boolean') return dialect.bool(value === true);
  if (field.type === 'date') return toInstant(String(value));
  return value;
}

function compileColumn(node: Exclude<FilterNode, { kind: 'and' | 'or' | 'not' }>, field: ColumnField, dialect: Dialect): Sql {
  const keyed = field.caseInsensitiveKey !== undefined && (node.kind === 'in' || (node.kind === 'compare' && (node.operator === 'eq' || node.operator === 'ne')));
  const column = sql.ref(keyed ? field.caseInsensitiveKey! : field.column);
  const bind = (value: FilterValue) => {
    const bound = bindValue(field, value, dialect);
    return keyed && typeof bound === 'string' ? bound.toLowerCase() : bound;
  };
  switch (node.kind) {
    case 'compare': {
      const value = node.value;
      if (value === null) return node.operator === 'eq' ? sql<SqlBool>`${column} is null` : sql<SqlBool>`${column} is not null`;
      switch (node.operator) {
        case 'eq': return sql<SqlBool>`${column} = ${bind(value)}`;
        case 'ne': return sql<SqlBool>`(${column} is null or ${column} <> ${bind(value)})`;
        case 'gt': return sql<SqlBool>`${column} > ${bind(value)}`;
        case 'ge': return sql<SqlBool>`${column} >= ${bind(value)}`;
        case 'lt': return sql<SqlBool>`${column} < ${bind(value)}`;
        case 'le': return sql<SqlBool>`${column} <= ${bind(value)}`;
        case 'like': return dialect.ilike(column, likePattern(String(value)));
      }
      break;
    }
    case 'in': {
      const present = node.values.filter((value) => value !== null);
      const list = present.length ? sql<SqlBool>`${column} in (${sql.join(present.map(bind))})` : sql<SqlBool>`1 = 0`;
      return present.length < node.values.length ? sql<SqlBool>`(${list} or ${column} is null)` : list;
    }
    case 'between':
      return sql<SqlBool>`${column} between ${bind(node.low)} and ${bind(node.high)}`;
  }
  throw new Error(`unreachable filter node ${JSON.stringify(node)}`);
}

function compileArray(node: Exclude<FilterNode, { kind: 'and' | 'or' | 'not' }>, field: ArrayField): Sql {
  const has = (condition: RawBuilder<unknown> | null) =>
    sql<SqlBool>`exists (select 1 from ${sql.table(field.table)} where ${sql.ref(`${field.table}.${field.ownerColumn}`)} = ${sql.ref(field.parentId)}${
      condition ? sql` and ${condition}` : sql``
    })`;
  const value = sql.ref(`${field.table}.${field.valueColumn}`);
  if (node.kind === 'compare' && (node.operator === 'eq' || node.operator === 'ne')) {
    const exists = node.value === null ? has(null) : has(sql`${value} = ${node.value}`);
    const wantsPresence = (node.operator === 'eq') !== (node.value === null);
    return wantsPresence ? exists : sql<SqlBool>`not ${exists}`;
  }
  if (node.kind === 'in') return has(sql`${value} in (${sql.join(node.values)})`);
  throw new Error(`operator not allowed on an array field (checkFilter lets none through)`);
}

/** SQL for a filter that `checkFilter` accepted against the same fields. */
export function compileFilter(node: FilterNode, fields: FieldMap, dialect: Dialect): Sql {
  switch (node.kind) {
    case 'and':
    case 'or':
      return sql<SqlBool>`(${sql.join(node.operands.map((operand) => compileFilter(operand, fields, dialect)), sql.raw(` ${node.kind} `))})`;
    case 'not':
      return sql<SqlBool>`((${compileFilter(node.operand, fields, dialect)}) is not true)`;
    default: {
      const field = fields[node.field];
      if (!field) throw new Error(`field ${node.field} is not in the allow-list`);
      return field.kind === 'array' ? compileArray(node, field) : compileColumn(node, field, dialect);
    }
  }
}

/**
 * ORDER BY terms for `$orderBy` items, then `idColumn asc` as the tie-breaker (docs/decisions.md section 6). `reverse`
 * gives the exact reverse of that order (every direction flipped, nulls last where they were first, `idColumn
 * desc`): a deep page is read from the other end (issue 13). `unindexed` (SQLite only) writes each term as `+term`,
 * same values and order, so that SQLite does not walk the order's index and test every row against a filter an
 * index answers in a few probes (contacts.ts `keyLookup`: an import's `email in (...)`, issue 20).
 */
export function compileOrderBy(items: readonly OrderByItem[], fields: FieldMap, idColumn: string, reverse = false, unindexed = false): RawBuilder<unknown> {
  const flip = (direction: 'asc' | 'desc') => (reverse ? (direction === 'asc' ? 'desc' : 'asc') : direction);
  const terms = items.map((item) => {
    const field = fields[item.field];
    if (!field || field.kind !== 'column') throw new Error(`field ${item.field} is not sortable`);
    const plain = field.sortExpression ? sql.raw(field.sortExpression) : sql.ref(field.column);
    // SQLite's unary `+` returns its operand unchanged, but no index can give the order of `+x`.
    const expression = unindexed ? sql`+${plain}` : plain;
    const direction = flip(item.direction);
    // SQLite's own order; PostgreSQL's default is the reverse (its indexes are built to match: migrations.ts).
    const nulls = field.nullable ? (direction === 'asc' ? ' nulls first' : ' nulls last') : '';
    return sql`${expression} ${sql.raw(direction + nulls)}`;
  });
  return sql.join([...terms, sql`${sql.ref(idColumn)} ${sql.raw(flip('asc'))}`]);
}
