import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { and, between, compare, inList, not, or, type FilterNode, type FilterValue } from './ast';
import { parseFilter } from './parse';
import { printFilter, printFilterValue } from './print';
import { treeArb } from './test-arbitraries';

const a1 = compare('a', 'eq', 1);
const b2 = compare('b', 'eq', 2);
const c3 = compare('c', 'eq', 3);

describe('printFilter', () => {
  it.each<{ title: string; ast: FilterNode; text: string }>([
    { title: 'prints a comparison with a lower-case operator', ast: compare('name', 'like', 'an%'), text: "name like 'an%'" },
    { title: 'doubles quotes inside strings', ast: compare('name', 'eq', "it's 'x'"), text: "name eq 'it''s ''x'''" },
    { title: 'keeps unicode and newlines inside strings', ast: compare('name', 'eq', 'é😀\n'), text: "name eq 'é😀\n'" },
    { title: 'prints negative decimals', ast: compare('a', 'lt', -1.5), text: 'a lt -1.5' },
    { title: 'prints large numbers with an exponent', ast: compare('a', 'gt', 1e21), text: 'a gt 1e+21' },
    { title: 'prints the smallest double exactly', ast: compare('a', 'gt', 5e-324), text: 'a gt 5e-324' },
    { title: 'prints -0 as 0', ast: compare('a', 'eq', -0), text: 'a eq 0' },
    { title: 'prints booleans and null', ast: and(compare('a', 'eq', true), compare('b', 'ne', false), compare('c', 'eq', null)), text: 'a eq true and b ne false and c eq null' },
    { title: 'prints in with a comma-separated list', ast: inList('state', ['a', 'b', 1, null]), text: "state in ('a', 'b', 1, null)" },
    { title: 'prints between with and', ast: between('price', 1, 5), text: 'price between 1 and 5' },
    { title: 'prints an and inside an or without parentheses', ast: or(and(a1, b2), c3), text: 'a eq 1 and b eq 2 or c eq 3' },
    { title: 'wraps an or inside an and', ast: and(or(a1, b2), c3), text: '(a eq 1 or b eq 2) and c eq 3' },
    { title: 'wraps an and inside an and', ast: and(and(a1, b2), c3), text: '(a eq 1 and b eq 2) and c eq 3' },
    { title: 'wraps an or inside an or', ast: or(a1, or(b2, c3)), text: 'a eq 1 or (b eq 2 or c eq 3)' },
    { title: 'wraps an and inside not', ast: not(and(a1, b2)), text: 'not (a eq 1 and b eq 2)' },
    { title: 'wraps an or inside not', ast: not(or(a1, b2)), text: 'not (a eq 1 or b eq 2)' },
    { title: 'prints not before a comparison without parentheses', ast: not(a1), text: 'not a eq 1' },
    { title: 'prints a double negation', ast: not(not(inList('a', [1]))), text: 'not not a in (1)' },
    { title: 'prints a one-operand and as its operand', ast: { kind: 'and', operands: [a1] }, text: 'a eq 1' },
  ])('$title', ({ ast, text }) => {
    expect(printFilter(ast)).toBe(text);
  });

  it.each<{ title: string; ast: FilterNode; message: string }>([
    { title: 'a field with a space', ast: compare('my field', 'eq', 1), message: "cannot print field name 'my field'" },
    { title: 'a keyword as a field', ast: compare('And', 'eq', 1), message: "cannot print field name 'And'" },
    { title: 'a field starting with a digit', ast: compare('1a', 'eq', 1), message: "cannot print field name '1a'" },
    { title: 'an empty field', ast: between('', 1, 2), message: "cannot print field name ''" },
    { title: 'NaN', ast: compare('a', 'eq', Number.NaN), message: 'cannot print the number NaN' },
    { title: 'Infinity', ast: inList('a', [1, Number.POSITIVE_INFINITY]), message: 'cannot print the number Infinity' },
    { title: 'an empty in list', ast: inList('a', []), message: "cannot print an empty 'in' list for 'a'" },
    { title: 'an or with no operands', ast: { kind: 'or', operands: [] }, message: "cannot print an 'or' with no operands" },
  ])('throws a RangeError for $title', ({ ast, message }) => {
    expect(() => printFilter(ast)).toThrow(new RangeError(message));
  });

  it.each<{ value: FilterValue; text: string }>([
    { value: "it's", text: "'it''s'" },
    { value: '', text: "''" },
    { value: 42, text: '42' },
    { value: 0.1, text: '0.1' },
    { value: true, text: 'true' },
    { value: null, text: 'null' },
  ])('printFilterValue prints $value as $text', ({ value, text }) => {
    expect(printFilterValue(value)).toBe(text);
  });
});

describe('builders', () => {
  it.each<{ title: string; built: FilterNode | undefined; expected: FilterNode | undefined }>([
    { title: 'and() is undefined', built: and(), expected: undefined },
    { title: 'and(x) is x', built: and(a1), expected: a1 },
    { title: 'and skips undefined entries', built: and(undefined, a1, undefined, b2), expected: { kind: 'and', operands: [a1, b2] } },
    { title: 'and of only undefined is undefined', built: and(undefined, undefined), expected: undefined },
    { title: 'or(x, undefined) is x', built: or(a1, undefined), expected: a1 },
    { title: 'or keeps nested nodes as they are', built: or(a1, or(b2, c3)), expected: { kind: 'or', operands: [a1, { kind: 'or', operands: [b2, c3] }] } },
    { title: 'inList copies its values', built: inList('a', [1, 'x']), expected: { kind: 'in', field: 'a', values: [1, 'x'] } },
  ])('$title', ({ built, expected }) => {
    expect(built).toEqual(expected);
  });

  it('builds text without string concatenation', () => {
    const filter = and(compare('state', 'eq', "O'Brien"), undefined, not(inList('tags', ['vip'])));
    expect(printFilter(filter)).toBe("state eq 'O''Brien' and not tags in ('vip')");
  });
});

describe('printFilter properties', () => {
  it('prints every valid tree to text that parses back to the same tree', () => {
    fc.assert(
      fc.property(treeArb, (tree) => {
        expect(parseFilter(printFilter(tree))).toEqual(tree);
      }),
      { numRuns: 2000 },
    );
  });

  it('prints canonically: printing a parsed print gives the same text', () => {
    fc.assert(
      fc.property(treeArb, (tree) => {
        const text = printFilter(tree);
        expect(printFilter(parseFilter(text))).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('round-trips an in list of exactly 100 values', () => {
    const tree = inList('a', Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? i : `v'${i}`)));
    expect(parseFilter(printFilter(tree))).toEqual(tree);
  });
});
