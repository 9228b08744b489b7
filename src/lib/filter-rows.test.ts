import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FilterNode, between, compare, inList, not } from '@/api/filter/ast';
import { checkFilter } from '@/api/filter/check';
import { type FieldTable, contactFilterFields, productFilterFields } from '@/api/filter/fields';
import { parseFilter } from '@/api/filter/parse';
import { printFilter } from '@/api/filter/print';
import { type FilterRow, type FilterRows, escapeLike, nodeToRows, rowOperators, rowsToNode, unescapeLike, valueCount } from './filter-rows';

const contacts = contactFilterFields;
const rowsOf = (text: string, fields: FieldTable = contacts) => nodeToRows(parseFilter(text), fields, ['state']);

describe('rowOperators', () => {
  it('offers what the field check accepts for each contact field type, as rows say it', () => {
    expect(rowOperators('string')).toEqual(['eq', 'ne', 'contains', 'empty', 'notEmpty']);
    expect(rowOperators('string', { choices: true })).toEqual(['eq', 'ne', 'in']);
    expect(rowOperators('date')).toEqual(['gt', 'ge', 'lt', 'le', 'between']);
    expect(rowOperators('string-array')).toEqual(['eq', 'ne', 'in', 'empty', 'notEmpty']);
    expect(rowOperators('boolean')).toEqual(['eq', 'ne']);
  });
});

describe('rows to a filter', () => {
  it.each<{ title: string; rows: FilterRows; text: string | undefined }>([
    { title: 'no rows is no filter', rows: { join: 'and', rows: [] }, text: undefined },
    { title: 'one row is that comparison', rows: { join: 'or', rows: [{ field: 'state', operator: 'eq', values: ['active'] }] }, text: "state eq 'active'" },
    {
      title: 'all of joins with and; contains is a literal like',
      rows: { join: 'and', rows: [{ field: 'state', operator: 'eq', values: ['active'] }, { field: 'city', operator: 'contains', values: ['Os'] }] },
      text: "state eq 'active' and city like 'Os'",
    },
    {
      title: 'any of joins with or; in and between',
      rows: { join: 'or', rows: [{ field: 'tags', operator: 'in', values: ['vip', 'new'] }, { field: 'created', operator: 'between', values: ['2024-01-01', '2024-02-01'] }] },
      text: "tags in ('vip', 'new') or created between '2024-01-01' and '2024-02-01'",
    },
    { title: 'a typed % stays literal', rows: { join: 'and', rows: [{ field: 'name', operator: 'contains', values: ['50%_off\\'] }] }, text: "name like '50\\%\\_off\\\\'" },
    { title: 'is empty compares with null', rows: { join: 'and', rows: [{ field: 'tags', operator: 'empty', values: [] }] }, text: 'tags eq null' },
    {
      title: 'rows still being filled in are left out',
      rows: { join: 'and', rows: [{ field: 'city', operator: 'eq', values: [''] }, { field: 'created', operator: 'between', values: ['2024-01-01', ''] }, { field: 'tags', operator: 'eq', values: ['vip'] }] },
      text: "tags eq 'vip'",
    },
    { title: 'numbers are read by the field type', rows: { join: 'and', rows: [{ field: 'price', operator: 'gt', values: ['12.5'] }, { field: 'isForSale', operator: 'eq', values: ['true'] }] }, text: 'price gt 12.5 and isForSale eq true' },
  ])('$title', ({ rows, text }) => {
    const node = rowsToNode(rows, { ...contacts, ...productFilterFields });
    expect(node && printFilter(node)).toBe(text);
  });
});

describe('a filter to rows', () => {
  it('reads a flat filter as rows', () => {
    expect(rowsOf("state in ('active', 'pending') or city like 'Os'")).toEqual({
      join: 'or',
      rows: [{ field: 'state', operator: 'in', values: ['active', 'pending'] }, { field: 'city', operator: 'contains', values: ['Os'] }],
    });
    expect(rowsOf("created gt '2024-05-01'")).toEqual({ join: 'and', rows: [{ field: 'created', operator: 'gt', values: ['2024-05-01'] }] });
    expect(rowsOf("tags ne null")).toEqual({ join: 'and', rows: [{ field: 'tags', operator: 'notEmpty', values: [] }] });
  });

  it.each([
    ["not state eq 'active'", 'a not'],
    ["state eq 'active' and (city eq 'Oslo' or city eq 'Bergen')", 'an or inside an and'],
    ["name like 'An%'", 'a like pattern'],
    ["name gt 'M'", 'ordering text'],
    ["created eq '2024-05-01'", 'equality on a date'],
    ["state like 'act'", 'contains on a field with fixed values'],
    ["city eq ''", 'an empty text'],
    ["city in ('Oslo', 'Bergen')", 'in on free text'],
    ["unknown eq 'x'", 'a field the list cannot filter'],
  ])('says %s (%s) can only be edited as text', (text) => {
    expect(rowsOf(text)).toBeNull();
  });

  it('reads no filter as no rows', () => {
    expect(nodeToRows(undefined, contacts)).toEqual({ join: 'and', rows: [] });
  });
});

describe('like escapes', () => {
  it('reads back what it escaped, and refuses patterns', () => {
    fc.assert(fc.property(fc.string(), (text) => unescapeLike(escapeLike(text)) === text));
    expect(unescapeLike('a%')).toBeNull();
    expect(unescapeLike('a_b')).toBeNull();
    expect(unescapeLike('a\\b')).toBeNull();
  });
});

/** A complete row for a field of the table, with values of its type. */
function rowArb(fields: FieldTable, choices: readonly string[]): fc.Arbitrary<FilterRow> {
  const text = fc.string({ minLength: 1, maxLength: 12 }).map((value) => value.replaceAll('\0', 'x'));
  const day = fc.date({ min: new Date('1971-01-01'), max: new Date('2999-12-31'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));
  return fc.constantFrom(...Object.keys(fields)).chain((field) => {
    const type = fields[field]!;
    const value =
      type === 'date' ? day
      : type === 'integer' ? fc.integer({ min: -1000, max: 1000 }).map(String)
      : type === 'decimal' ? fc.double({ min: 0, max: 1e6, noNaN: true }).map((n) => String(n === 0 ? 0 : n))
      : type === 'boolean' ? fc.constantFrom('true', 'false')
      : choices.includes(field) ? fc.constantFrom('active', 'pending')
      : text;
    return fc.constantFrom(...rowOperators(type, { choices: choices.includes(field) })).chain((operator) => {
      const [min, max] = valueCount(operator);
      return fc.array(value, { minLength: min, maxLength: Math.min(max, 5) }).map((values) => ({ field, operator, values }));
    });
  });
}

describe('rows and text stay one filter', () => {
  it.each<[string, FieldTable]>([
    ['contacts', contacts],
    ['products', productFilterFields],
  ])('%s: rows -> AST -> text -> AST -> rows -> AST gives the same AST, and the field check accepts it', (_name, fields) => {
    const rowsArb = fc.record({ join: fc.constantFrom<'and' | 'or'>('and', 'or'), rows: fc.array(rowArb(fields, ['state']), { minLength: 1, maxLength: 6 }) });
    fc.assert(
      fc.property(rowsArb, (rows) => {
        const node = rowsToNode(rows, fields)!;
        const parsed = parseFilter(printFilter(node));
        expect(parsed).toEqual(node);
        expect(() => checkFilter(parsed, fields)).not.toThrow();
        const back = nodeToRows(parsed, fields, ['state']);
        expect(back).not.toBeNull();
        expect(rowsToNode(back!, fields)).toEqual(node);
        if (rows.rows.length > 1) expect(back).toEqual(rows);
      }),
    );
  });

  it('keeps a flat filter whole through rows', () => {
    const flat: FilterNode[] = [compare('state', 'eq', 'active'), inList('tags', ['a', 'b']), between('created', '2024-01-01', '2024-12-31T10:00:00Z')];
    for (const node of flat) expect(rowsToNode(nodeToRows(node, contacts)!, contacts)).toEqual(node);
    expect(nodeToRows(not(flat[0]!), contacts)).toBeNull();
  });
});
