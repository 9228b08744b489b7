import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { and, between, compare, inList, not, or, type FilterNode } from './ast';
import { FilterSyntaxError, parseFilter } from './parse';
import { printFilter } from './print';
import { fieldArb, treeArb } from './test-arbitraries';

const a1 = compare('a', 'eq', 1);
const b2 = compare('b', 'eq', 2);
const c3 = compare('c', 'eq', 3);

/** `count` comparisons `f0 eq 0 and f1 eq 1 ...`. */
const chain = (count: number) => Array.from({ length: count }, (_, i) => `f${i} eq ${i}`).join(' and ');
const chainAst = (count: number) => ({ kind: 'and' as const, operands: Array.from({ length: count }, (_, i) => compare(`f${i}`, 'eq', i)) });
const numbers = (count: number) => Array.from({ length: count }, (_, i) => i);

function syntaxError(text: string): FilterSyntaxError {
  try {
    parseFilter(text);
  } catch (error) {
    if (error instanceof FilterSyntaxError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(text.slice(0, 80))} to be rejected`);
}

describe('parseFilter accepts', () => {
  it.each<{ title: string; text: string; ast: FilterNode }>([
    // operators and keyword case
    { title: 'an equality on a string', text: "name eq 'x'", ast: compare('name', 'eq', 'x') },
    { title: 'an operator in upper case', text: "name EQ 'x'", ast: compare('name', 'eq', 'x') },
    { title: 'an operator in mixed case', text: "name eQ 'x'", ast: compare('name', 'eq', 'x') },
    { title: 'a field name exactly as written', text: "Name eq 'x'", ast: compare('Name', 'eq', 'x') },
    { title: 'ne', text: 'price ne 5', ast: compare('price', 'ne', 5) },
    { title: 'gt', text: 'price gt 5', ast: compare('price', 'gt', 5) },
    { title: 'ge', text: 'price ge 5', ast: compare('price', 'ge', 5) },
    { title: 'lt', text: 'price lt 5', ast: compare('price', 'lt', 5) },
    { title: 'le', text: 'price le 5', ast: compare('price', 'le', 5) },
    { title: 'like', text: "name like 'an%'", ast: compare('name', 'like', 'an%') },
    { title: 'LIKE in upper case', text: "name LIKE '_x'", ast: compare('name', 'like', '_x') },
    // and / or / precedence
    { title: 'two comparisons joined by and', text: 'a eq 1 and b eq 2', ast: and(a1, b2) },
    { title: 'a chain of and as one n-ary node', text: 'a eq 1 AND b eq 2 And c eq 3', ast: and(a1, b2, c3) },
    { title: 'a chain of or as one n-ary node', text: 'a eq 1 or b eq 2 OR c eq 3', ast: or(a1, b2, c3) },
    { title: 'and binding tighter than a following or', text: 'a eq 1 and b eq 2 or c eq 3', ast: or(and(a1, b2), c3) },
    { title: 'and binding tighter than a preceding or', text: 'a eq 1 or b eq 2 and c eq 3', ast: or(a1, and(b2, c3)) },
    { title: 'parentheses overriding precedence', text: '(a eq 1 or b eq 2) and c eq 3', ast: and(or(a1, b2), c3) },
    { title: 'a parenthesised or inside an or as its own node', text: 'a eq 1 or (b eq 2 or c eq 3)', ast: or(a1, or(b2, c3)) },
    { title: 'a parenthesised and inside an and as its own node', text: '(a eq 1 and b eq 2) and c eq 3', ast: and(and(a1, b2), c3) },
    { title: 'redundant parentheses around an and inside an or', text: '(a eq 1 and b eq 2) or c eq 3', ast: or(and(a1, b2), c3) },
    { title: 'one comparison in parentheses as just the comparison', text: '(a eq 1)', ast: a1 },
    { title: 'many redundant parentheses', text: '((((a eq 1))))', ast: a1 },
    { title: 'nested groups', text: '((a eq 1 or b eq 2) and (c eq 3 or a eq 1))', ast: and(or(a1, b2), or(c3, a1)) },
    // not
    { title: 'not before a comparison', text: 'not a eq 1', ast: not(a1) },
    { title: 'NOT in upper case', text: 'NOT a eq 1', ast: not(a1) },
    { title: 'a double negation as two nodes', text: 'not not a eq 1', ast: not(not(a1)) },
    { title: 'not binding tighter than and', text: 'not a eq 1 and b eq 2', ast: and(not(a1), b2) },
    { title: 'not before a group', text: 'not (a eq 1 and b eq 2)', ast: not(and(a1, b2)) },
    { title: 'not before a parenthesised comparison', text: 'not (a eq 1)', ast: not(a1) },
    { title: 'not inside an or', text: 'a eq 1 or not b eq 2', ast: or(a1, not(b2)) },
    // in
    { title: 'in with one value', text: 'a in (1)', ast: inList('a', [1]) },
    { title: 'in with strings', text: "state in ('active', 'new')", ast: inList('state', ['active', 'new']) },
    { title: 'IN with mixed values', text: "a IN (1, 'x', true, null)", ast: inList('a', [1, 'x', true, null]) },
    { title: 'in without spaces', text: "a in(1,'x')", ast: inList('a', [1, 'x']) },
    { title: 'in joined by and', text: 'a in (1, 2) and b eq 2', ast: and(inList('a', [1, 2]), b2) },
    // between
    { title: 'between two numbers', text: 'a between 1 and 5', ast: between('a', 1, 5) },
    { title: 'BETWEEN ... AND in upper case', text: "a BETWEEN 'a' AND 'm'", ast: between('a', 'a', 'm') },
    { title: 'between followed by and', text: 'a between 1 and 5 and b eq 2', ast: and(between('a', 1, 5), b2) },
    { title: 'between on both sides of or', text: 'a between 1 and 5 or b between 2 and 3', ast: or(between('a', 1, 5), between('b', 2, 3)) },
    // strings
    { title: 'an empty string', text: "a eq ''", ast: compare('a', 'eq', '') },
    { title: 'a doubled quote as one quote', text: "a eq 'it''s'", ast: compare('a', 'eq', "it's") },
    { title: 'a string that is one quote', text: "a eq ''''", ast: compare('a', 'eq', "'") },
    { title: 'two doubled quotes in a row', text: "a eq 'a''''b'", ast: compare('a', 'eq', "a''b") },
    { title: 'unicode in strings', text: "a eq 'héllo 😀 中文'", ast: compare('a', 'eq', 'héllo 😀 中文') },
    { title: 'keywords and parentheses inside strings as text', text: "a eq 'x and (b or not c)'", ast: compare('a', 'eq', 'x and (b or not c)') },
    { title: 'a newline and a backslash inside a string', text: "a eq 'x\n\\y'", ast: compare('a', 'eq', 'x\n\\y') },
    { title: 'an SQL injection attempt that stays inside the string', text: "name eq 'x''; DROP TABLE contacts; --'", ast: compare('name', 'eq', "x'; DROP TABLE contacts; --") },
    // numbers
    { title: 'zero', text: 'a eq 0', ast: compare('a', 'eq', 0) },
    { title: 'a negative integer', text: 'a eq -5', ast: compare('a', 'eq', -5) },
    { title: 'a decimal', text: 'a eq 1.5', ast: compare('a', 'eq', 1.5) },
    { title: 'a negative decimal', text: 'a eq -0.25', ast: compare('a', 'eq', -0.25) },
    { title: 'an exponent', text: 'a eq 1e3', ast: compare('a', 'eq', 1000) },
    { title: 'a negative exponent with capital E', text: 'a eq 1E-3', ast: compare('a', 'eq', 0.001) },
    { title: 'a decimal with a signed exponent', text: 'a eq 2.5e+10', ast: compare('a', 'eq', 2.5e10) },
    { title: '-0 as 0', text: 'a eq -0', ast: compare('a', 'eq', 0) },
    { title: 'leading zeros', text: 'a eq 007', ast: compare('a', 'eq', 7) },
    { title: 'an underflowing number as 0', text: 'a eq -1e-400', ast: compare('a', 'eq', 0) },
    { title: 'the largest double', text: 'a eq 1.7976931348623157e308', ast: compare('a', 'eq', Number.MAX_VALUE) },
    // booleans and null
    { title: 'true', text: 'a eq true', ast: compare('a', 'eq', true) },
    { title: 'FALSE in upper case', text: 'a ne FALSE', ast: compare('a', 'ne', false) },
    { title: 'null in mixed case', text: 'a eq Null', ast: compare('a', 'eq', null) },
    // whitespace and field names
    { title: 'tabs and newlines as whitespace', text: "\tname\neq\r\n'x'  ", ast: compare('name', 'eq', 'x') },
    { title: 'groups without surrounding spaces', text: '(a eq 1)and(b eq 2)', ast: and(a1, b2) },
    { title: 'a string right after the operator', text: "a eq'x'or b eq'y'", ast: or(compare('a', 'eq', 'x'), compare('b', 'eq', 'y')) },
    { title: 'field names with underscores and digits', text: '_x eq 1 and a1_B eq 2', ast: and(compare('_x', 'eq', 1), compare('a1_B', 'eq', 2)) },
    { title: 'field names that start with a keyword', text: 'notes eq 1 or order eq 2 or android eq 3 or inx eq 4', ast: or(compare('notes', 'eq', 1), compare('order', 'eq', 2), compare('android', 'eq', 3), compare('inx', 'eq', 4)) },
    // limits, at the limit
    { title: 'exactly 50 comparisons', text: chain(50), ast: chainAst(50) },
    { title: 'exactly 10 levels of parentheses', text: `${'('.repeat(10)}a eq 1${')'.repeat(10)}`, ast: a1 },
    { title: 'exactly 10 nested nots', text: `${'not '.repeat(10)}a eq 1`, ast: Array.from({ length: 10 }).reduce<FilterNode>((node) => not(node), a1) },
    { title: 'exactly 100 values in one in list', text: `a in (${numbers(100).join(', ')})`, ast: inList('a', numbers(100)) },
    { title: 'exactly 2000 characters', text: `a eq '${'x'.repeat(1993)}'`, ast: compare('a', 'eq', 'x'.repeat(1993)) },
  ])('$title', ({ text, ast }) => {
    expect(parseFilter(text)).toEqual(ast);
  });
});

describe('parseFilter rejects', () => {
  const deep = (levels: number) => `${'('.repeat(levels)}a eq 1${')'.repeat(levels)}`;
  const inValues101 = `a in (${numbers(101).join(', ')})`;

  it.each<{ title: string; text: string; position: number; message: string }>([
    // empty
    { title: 'empty input', text: '', position: 0, message: 'empty filter' },
    { title: 'whitespace-only input', text: ' \t\r\n ', position: 0, message: 'empty filter' },
    // unknown and misplaced tokens
    { title: 'a misspelled operator', text: "name eqq 'x'", position: 5, message: "unexpected token 'eqq' at position 5" },
    { title: 'an SQL statement after the string at the semicolon', text: "name eq 'x'; DROP TABLE contacts; --'", position: 11, message: "unexpected token ';' at position 11" },
    { title: "an SQL tautology at its '1'", text: "name eq 'x' or 1=1", position: 15, message: "unexpected token '1' at position 15" },
    { title: 'an SQL comment at the dash', text: "name eq 'x' --", position: 12, message: "unexpected token '-' at position 12" },
    { title: 'a double-quoted string at the double quote', text: 'name eq "x"', position: 8, message: `unexpected token '"' at position 8` },
    { title: 'a == operator', text: 'a == 1', position: 2, message: "unexpected token '=' at position 2" },
    { title: 'two comparisons without a connective', text: 'a eq 1 b eq 2', position: 7, message: "unexpected token 'b' at position 7" },
    { title: 'a trailing comma', text: 'a eq 1 ,', position: 7, message: "unexpected token ',' at position 7" },
    { title: 'a leading and', text: 'and a eq 1', position: 0, message: "unexpected token 'and' at position 0" },
    { title: 'or or', text: 'a eq 1 or or b eq 2', position: 10, message: "unexpected token 'or' at position 10" },
    { title: 'not in the middle of a comparison chain', text: 'a eq 1 not b eq 2', position: 7, message: "unexpected token 'not' at position 7" },
    { title: 'a field on the right-hand side', text: 'a eq b', position: 5, message: "unexpected token 'b' at position 5" },
    { title: 'a keyword used as a field', text: 'eq eq 1', position: 0, message: "unexpected token 'eq' at position 0" },
    { title: 'a literal used as a field', text: 'true eq 1', position: 0, message: "unexpected token 'true' at position 0" },
    { title: 'a string used as a field', text: "'a' eq 1", position: 0, message: "unexpected token ''a'' at position 0" },
    { title: 'a misspelled literal', text: 'a eq NULLX', position: 5, message: "unexpected token 'NULLX' at position 5" },
    { title: 'a non-ASCII letter in a field name', text: 'námé eq 1', position: 1, message: "unexpected token 'á' at position 1" },
    { title: 'an emoji as a whole code point', text: "a eq '😀' and 😀 eq 1", position: 14, message: "unexpected token '😀' at position 14" },
    { title: 'a non-breaking space', text: 'a\u00a0eq 1', position: 1, message: "unexpected token '\u00a0' at position 1" },
    // end of input
    { title: 'a lone field', text: 'a', position: 1, message: 'unexpected end of input at position 1' },
    { title: 'a missing value', text: 'a eq', position: 4, message: 'unexpected end of input at position 4' },
    { title: 'a dangling and', text: 'a eq 1 and', position: 10, message: 'unexpected end of input at position 10' },
    { title: 'a dangling not', text: 'not', position: 3, message: 'unexpected end of input at position 3' },
    // parentheses
    { title: 'an unclosed parenthesis', text: '(a eq 1', position: 7, message: 'unexpected end of input at position 7' },
    { title: 'one of two parentheses unclosed', text: '((a eq 1)', position: 9, message: 'unexpected end of input at position 9' },
    { title: 'an unclosed group after not', text: 'not (a eq 1', position: 11, message: 'unexpected end of input at position 11' },
    { title: 'an extra closing parenthesis', text: 'a eq 1)', position: 6, message: "unexpected token ')' at position 6" },
    { title: 'empty parentheses', text: '()', position: 1, message: "unexpected token ')' at position 1" },
    { title: 'an unclosed group at the end', text: "a eq 'x' and (b eq 1 or c eq 2", position: 30, message: 'unexpected end of input at position 30' },
    // strings
    { title: 'an unterminated string at its opening quote', text: "name eq 'abc", position: 8, message: 'unterminated string starting at position 8' },
    { title: 'a string whose last quote is doubled', text: "name eq 'it''s", position: 8, message: 'unterminated string starting at position 8' },
    { title: 'a lone quote', text: "'", position: 0, message: 'unterminated string starting at position 0' },
    { title: 'a NUL character inside a string', text: "name eq 'a\0b'", position: 10, message: "unexpected token '\0' at position 10" },
    { title: 'a quote at the very end', text: "a eq 'x' and b eq '", position: 18, message: 'unterminated string starting at position 18' },
    { title: 'an unterminated string before a syntax error would show', text: "a eqq 'x", position: 2, message: "unexpected token 'eqq' at position 2" },
    // numbers
    { title: 'a number too large to be finite', text: 'a eq 1e400', position: 5, message: "invalid number '1e400' at position 5" },
    { title: 'a negative number too large to be finite', text: 'a eq -1e400', position: 5, message: "invalid number '-1e400' at position 5" },
    { title: 'a trailing decimal point', text: 'a eq 1.', position: 5, message: "unexpected token '1.' at position 5" },
    { title: 'a leading decimal point', text: 'a eq .5', position: 5, message: "unexpected token '.' at position 5" },
    { title: 'a sign separated from its number', text: 'a eq - 5', position: 5, message: "unexpected token '-' at position 5" },
    { title: 'a hexadecimal number', text: 'a eq 0x10', position: 5, message: "unexpected token '0x10' at position 5" },
    { title: 'letters glued to a number', text: 'a eq 12abc', position: 5, message: "unexpected token '12abc' at position 5" },
    { title: 'an exponent without digits', text: 'a eq 1e', position: 5, message: "unexpected token '1e' at position 5" },
    { title: 'two decimal points', text: 'a eq 1.2.3', position: 5, message: "unexpected token '1.2.3' at position 5" },
    { title: 'a number glued to and', text: 'a eq 1and b eq 2', position: 5, message: "unexpected token '1and' at position 5" },
    // in and between
    { title: 'an empty in list', text: 'a in ()', position: 6, message: "unexpected token ')' at position 6" },
    { title: 'a trailing comma in an in list', text: 'a in (1,)', position: 8, message: "unexpected token ')' at position 8" },
    { title: 'in values without a comma', text: 'a in (1 2)', position: 8, message: "unexpected token '2' at position 8" },
    { title: 'in without parentheses', text: 'a in 1', position: 5, message: "unexpected token '1' at position 5" },
    { title: 'an unclosed in list', text: 'a in (1', position: 7, message: 'unexpected end of input at position 7' },
    { title: 'between without its and', text: 'a between 1', position: 11, message: 'unexpected end of input at position 11' },
    { title: 'between with or instead of and', text: 'a between 1 or 5', position: 12, message: "unexpected token 'or' at position 12" },
    { title: 'between without its upper bound', text: 'a between 1 and', position: 15, message: 'unexpected end of input at position 15' },
    // limits
    { title: 'a filter of 2001 characters', text: `a eq '${'x'.repeat(1994)}'`, position: 2000, message: 'filter is longer than 2000 characters' },
    { title: '51 comparisons at the 51st', text: chain(51), position: chain(50).length + 5, message: 'filter has more than 50 comparisons' },
    { title: '11 levels of parentheses at the 11th', text: deep(11), position: 10, message: 'filter is nested deeper than 10 levels' },
    { title: '11 nested nots at the 11th', text: `${'not '.repeat(11)}a eq 1`, position: 40, message: 'filter is nested deeper than 10 levels' },
    { title: 'parentheses and nots counted together', text: `${'not ('.repeat(6)}a eq 1${')'.repeat(6)}`, position: 25, message: 'filter is nested deeper than 10 levels' },
    { title: '2000 open parentheses with the depth error, not a stack overflow', text: '('.repeat(2000), position: 10, message: 'filter is nested deeper than 10 levels' },
    { title: '10,000 nested parentheses with the length error, before any parsing', text: deep(10_000), position: 2000, message: 'filter is longer than 2000 characters' },
    { title: '101 values in an in list at the 101st', text: inValues101, position: inValues101.lastIndexOf('100'), message: `'in' list has more than 100 values at position ${inValues101.lastIndexOf('100')}` },
  ])('$title', ({ text, position, message }) => {
    const error = syntaxError(text);
    expect(error.message).toContain(message);
    expect(error.position).toBe(position);
  });

  it('reports the offending token, or null at the end of input', () => {
    expect(syntaxError("name eqq 'x'").token).toBe('eqq');
    expect(syntaxError('a eq').token).toBeNull();
    expect(syntaxError('').token).toBeNull();
    expect(syntaxError("a eq 'x").token).toBe("'x");
  });

  it('is an Error named FilterSyntaxError', () => {
    const error = syntaxError('a');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('FilterSyntaxError');
  });
});

describe('parseFilter properties', () => {
  const fragments = [
    'name', 'a', 'eq', 'EQ', 'ne', 'gt', 'like', 'and', 'or', 'OR', 'not', 'in', 'between', 'true', 'null',
    '(', ')', '((', '))', ',', "'", "''", "'x'", "'it''s'", '1', '-', '-1.5', '1e400', '1e', '.5', '0x1', ';', '=', '😀', '\t', '\n',
  ];
  const fragmentText = fc
    .tuple(fc.array(fc.constantFrom(...fragments), { maxLength: 40 }), fc.constantFrom(' ', ''))
    .map(([parts, separator]) => parts.join(separator));
  /** Printed valid trees with a random cut and a random fragment spliced in. */
  const mutatedText = fc
    .tuple(treeArb, fc.nat(), fc.nat(), fc.constantFrom('', ...fragments))
    .map(([tree, from, to, insert]) => {
      const text = printFilter(tree);
      return text.slice(0, from % (text.length + 1)) + insert + text.slice(to % (text.length + 1));
    });
  const nestedText = fc
    .tuple(fc.nat(2100), fc.constantFrom('(', 'not ', 'not (', '( '))
    .map(([levels, open]) => `${open.repeat(levels)}a eq 1${')'.repeat(levels)}`);

  it('either parses any string or throws a FilterSyntaxError with a position inside the input', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme', maxLength: 60 }), fragmentText, mutatedText, nestedText),
        (text) => {
          let ast: FilterNode;
          try {
            ast = parseFilter(text);
          } catch (error) {
            if (!(error instanceof FilterSyntaxError)) throw error;
            expect(error.position).toBeGreaterThanOrEqual(0);
            expect(error.position).toBeLessThanOrEqual(text.length);
            return;
          }
          // Whatever parses prints back to text that parses to the same tree (when short enough).
          const printed = printFilter(ast);
          if (printed.length <= 2000) expect(parseFilter(printed)).toEqual(ast);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('reads any field name that is not a keyword', () => {
    fc.assert(
      fc.property(fieldArb, (field) => {
        expect(parseFilter(`${field} eq 1`)).toEqual(compare(field, 'eq', 1));
      }),
      { numRuns: 500 },
    );
  });
});
