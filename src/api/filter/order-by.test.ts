import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderBySyntaxError, parseOrderBy, printOrderBy, type OrderByItem } from './order-by';

const asc = (field: string): OrderByItem => ({ field, direction: 'asc' });
const desc = (field: string): OrderByItem => ({ field, direction: 'desc' });
const fieldList = (count: number) => Array.from({ length: count }, (_, i) => `f${i}`).join(', ');

describe('parseOrderBy accepts', () => {
  it.each<{ title: string; text: string; items: OrderByItem[] }>([
    { title: 'a field alone as ascending', text: 'name', items: [asc('name')] },
    { title: 'an explicit asc', text: 'name asc', items: [asc('name')] },
    { title: 'desc', text: 'name desc', items: [desc('name')] },
    { title: 'a direction in upper case', text: 'name DESC', items: [desc('name')] },
    { title: 'a direction in mixed case', text: 'name Asc', items: [asc('name')] },
    { title: 'several items separated by commas', text: 'state asc, created desc', items: [asc('state'), desc('created')] },
    { title: 'extra whitespace around items and commas', text: '  name  ,  email desc  ', items: [asc('name'), desc('email')] },
    { title: 'tabs and newlines', text: 'name\tdesc,\ncreated', items: [desc('name'), asc('created')] },
    { title: 'no space after a comma', text: 'name,email', items: [asc('name'), asc('email')] },
    { title: 'a field name exactly as written', text: 'Name', items: [asc('Name')] },
    { title: 'the same field in different case as two fields', text: 'name, Name', items: [asc('name'), asc('Name')] },
    { title: 'exactly 10 items', text: fieldList(10), items: Array.from({ length: 10 }, (_, i) => asc(`f${i}`)) },
  ])('$title', ({ text, items }) => {
    expect(parseOrderBy(text)).toEqual(items);
  });
});

describe('parseOrderBy rejects', () => {
  it.each<{ title: string; text: string; position: number; message: string }>([
    { title: 'empty input', text: '', position: 0, message: 'empty $orderBy' },
    { title: 'whitespace-only input', text: ' \t ', position: 0, message: 'empty $orderBy' },
    { title: 'an unknown direction', text: 'name foo', position: 5, message: "expected 'asc' or 'desc' after 'name' at position 5" },
    { title: 'a direction with junk attached', text: 'name desc; drop table x', position: 5, message: "expected 'asc' or 'desc' after 'name' at position 5" },
    { title: 'two directions', text: 'name asc desc', position: 9, message: "expected ',' after 'name asc' at position 9" },
    { title: 'a trailing comma', text: 'name,', position: 5, message: 'expected a field name at position 5' },
    { title: 'a leading comma', text: ',name', position: 0, message: 'expected a field name at position 0' },
    { title: 'two commas in a row', text: 'name,,email', position: 5, message: 'expected a field name at position 5' },
    { title: 'a field name with a dash', text: 'na-me', position: 0, message: "invalid field name 'na-me' at position 0" },
    { title: 'a field name starting with a digit', text: 'email, 1name', position: 7, message: "invalid field name '1name' at position 7" },
    { title: 'a field name with a semicolon', text: 'name;', position: 0, message: "invalid field name 'name;' at position 0" },
    { title: 'a duplicate field at its second use', text: 'name, name desc', position: 6, message: "field 'name' appears twice" },
    { title: '11 items at the 11th', text: fieldList(11), position: fieldList(10).length + 2, message: '$orderBy has more than 10 items' },
  ])('$title', ({ text, position, message }) => {
    let error: unknown;
    try {
      parseOrderBy(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(OrderBySyntaxError);
    expect((error as OrderBySyntaxError).message).toBe(message);
    expect((error as OrderBySyntaxError).position).toBe(position);
  });
});

describe('printOrderBy', () => {
  it.each<{ title: string; items: OrderByItem[]; text: string }>([
    { title: 'prints every direction explicitly', items: [asc('name'), desc('created')], text: 'name asc, created desc' },
    { title: 'prints one item', items: [desc('claps')], text: 'claps desc' },
    { title: 'prints no items as an empty string', items: [], text: '' },
  ])('$title', ({ items, text }) => {
    expect(printOrderBy(items)).toBe(text);
  });

  it('throws a RangeError for a field that is not an identifier', () => {
    expect(() => printOrderBy([asc('my field')])).toThrow(new RangeError("cannot print field name 'my field'"));
  });

  it('prints items that parse back to the same items', () => {
    const items = fc.uniqueArray(
      fc.record({ field: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/), direction: fc.constantFrom('asc' as const, 'desc' as const) }),
      { minLength: 1, maxLength: 10, selector: (item) => item.field },
    );
    fc.assert(
      fc.property(items, (list) => {
        expect(parseOrderBy(printOrderBy(list))).toEqual(list);
      }),
      { numRuns: 1000 },
    );
  });

  it('either parses any string or throws an OrderBySyntaxError', () => {
    const fragments = fc.array(fc.constantFrom('name', 'asc', 'DESC', ',', ' ', '\t', 'x1', '-', ';', '😀'), { maxLength: 30 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fragments), (text) => {
        try {
          parseOrderBy(text);
        } catch (error) {
          expect(error).toBeInstanceOf(OrderBySyntaxError);
          expect((error as OrderBySyntaxError).position).toBeGreaterThanOrEqual(0);
          expect((error as OrderBySyntaxError).position).toBeLessThanOrEqual(text.length);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
