/**
 * `$filter` parser: a hand-written tokenizer and a recursive-descent parser for the
 * grammar in docs/decisions.md section 6:
 *
 *   filter     = or
 *   or         = and *( "or" and )
 *   and        = unary *( "and" unary )
 *   unary      = "not" unary / "(" or ")" / comparison
 *   comparison = field op value
 *              / field "in" "(" value *( "," value ) ")"
 *              / field "between" value "and" value
 *   op         = "eq" / "ne" / "gt" / "ge" / "lt" / "le" / "like"
 *   value      = string / number / "true" / "false" / "null"
 *
 * Keywords are case-insensitive, field names exact and never keywords.
 */
import { COMPARISON_OPERATORS, FILTER_KEYWORDS, type ComparisonOperator, type FilterNode, type FilterValue } from './ast';
import { FILTER_LIMITS } from './limits';

/** Size limits of a filter (docs/decisions.md section 6), from limits.ts. */
export { FILTER_LIMITS };

/**
 * What is wrong with a `$filter` text, as data (docs/decisions.md section 6): `FilterSyntaxError.message` is its English
 * sentence for the API's answers, and the console words the same problem in the language it shows (issue 23).
 * `position` is a 0-based index into the text (UTF-16 code units); `max` is the `FILTER_LIMITS` value passed.
 */
export type FilterSyntaxProblem =
  | { code: 'tooLong'; max: number }
  | { code: 'empty' }
  | { code: 'unterminatedString'; position: number }
  | { code: 'invalidNumber'; text: string; position: number }
  | { code: 'unexpectedEnd'; position: number }
  | { code: 'unexpectedToken'; text: string; position: number }
  | { code: 'tooDeep'; max: number }
  | { code: 'tooManyComparisons'; max: number }
  | { code: 'inListTooLong'; max: number; position: number };

/** The English sentence of a problem, as the service answers it (unprefixed; the server adds `$filter: `). */
export function filterSyntaxMessage(problem: FilterSyntaxProblem): string {
  switch (problem.code) {
    case 'tooLong':
      return `filter is longer than ${problem.max} characters`;
    case 'empty':
      return 'empty filter';
    case 'unterminatedString':
      return `unterminated string starting at position ${problem.position}`;
    case 'invalidNumber':
      return `invalid number '${problem.text}' at position ${problem.position}`;
    case 'unexpectedEnd':
      return `unexpected end of input at position ${problem.position}`;
    case 'unexpectedToken':
      return `unexpected token '${problem.text}' at position ${problem.position}`;
    case 'tooDeep':
      return `filter is nested deeper than ${problem.max} levels`;
    case 'tooManyComparisons':
      return `filter has more than ${problem.max} comparisons`;
    case 'inListTooLong':
      return `'in' list has more than ${problem.max} values at position ${problem.position}`;
  }
}

/**
 * The only error `parseFilter` throws (docs/decisions.md section 6).
 * `problem` says what is wrong as data, and `message` in English (`filterSyntaxMessage`).
 * `position` is the 0-based index into the input (UTF-16 code units) where the problem starts;
 * `token` is the offending source text, or `null` at the end of input and for whole-filter
 * errors (empty, too long). Messages are unprefixed; the server adds `$filter: `.
 */
export class FilterSyntaxError extends Error {
  override readonly name = 'FilterSyntaxError';
  readonly problem: FilterSyntaxProblem;
  readonly position: number;
  readonly token: string | null;

  constructor(problem: FilterSyntaxProblem, position: number, token: string | null) {
    super(filterSyntaxMessage(problem));
    this.problem = problem;
    this.position = position;
    this.token = token;
  }
}

/**
 * Parses `$filter` text into a tree (docs/decisions.md section 6).
 * Produces n-ary `and`/`or` for chains and no node for parentheses; numbers are finite, -0 becomes 0.
 * @throws FilterSyntaxError for every problem, with messages such as
 *   `unexpected token 'eqq' at position 5`, `unexpected end of input at position 11`,
 *   `unterminated string starting at position 8`, `invalid number '1e400' at position 8`,
 *   `filter is longer than 2000 characters`, `filter has more than 50 comparisons`,
 *   `filter is nested deeper than 10 levels`, `'in' list has more than 100 values at position N`
 *   (N is the 101st value), `empty filter`; a NUL character (U+0000) is an unexpected token, in a string
 *   too. It never throws anything else for any string.
 *   The length is checked first, so over-long input (even 10,000 `(`) gets the length error; within
 *   the length, depth is checked before each recursion, so nesting can never overflow the stack.
 *   Otherwise the first problem in reading order is reported.
 */
export function parseFilter(text: string): FilterNode {
  if (text.length > FILTER_LIMITS.maxLength) {
    throw new FilterSyntaxError({ code: 'tooLong', max: FILTER_LIMITS.maxLength }, FILTER_LIMITS.maxLength, null);
  }
  const parser = new Parser(text);
  if (parser.peek().type === 'end') throw new FilterSyntaxError({ code: 'empty' }, 0, null);
  return parser.parseFilter();
}

// ---------------------------------------------------------------------------
// Tokenizer

type Token =
  | { type: 'word'; text: string; pos: number } // identifier or keyword
  | { type: 'value'; text: string; pos: number; value: string | number } // string or number literal
  | { type: '(' | ')' | ','; text: string; pos: number }
  | { type: 'end'; text: ''; pos: number };

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** A run of characters that would glue onto a number, e.g. the `abc` in `12abc` or the `.3` in `1.2.3`. */
const NUMBER_TAIL = /[A-Za-z0-9_.]+/y;

/** Reads one token at a time, so errors come out in reading order. */
class Tokenizer {
  private readonly text: string;
  private pos = 0;
  private peeked: Token | undefined;

  constructor(text: string) {
    this.text = text;
  }

  peek(): Token {
    return (this.peeked ??= this.read());
  }

  next(): Token {
    const token = this.peek();
    this.peeked = undefined;
    return token;
  }

  private read(): Token {
    const text = this.text;
    while (this.pos < text.length && WHITESPACE.has(text[this.pos]!)) this.pos++;
    const start = this.pos;
    const char = text[start];
    if (char === undefined) return { type: 'end', text: '', pos: start };

    if (char === '(' || char === ')' || char === ',') {
      this.pos++;
      return { type: char, text: char, pos: start };
    }
    if (char === "'") return this.readString(start);
    const number = match(NUMBER, text, start);
    if (number !== undefined) return this.readNumber(start, number);
    const word = match(WORD, text, start);
    if (word !== undefined) {
      this.pos += word.length;
      return { type: 'word', text: word, pos: start };
    }
    // Any other character (including a lone '-') is an error; report a whole code point.
    throw unexpected({ type: 'word', text: String.fromCodePoint(text.codePointAt(start)!), pos: start });
  }

  /** `'...'` where `''` stands for one quote. */
  private readString(start: number): Token {
    const text = this.text;
    let value = '';
    let i = start + 1;
    for (;;) {
      const close = text.indexOf("'", i);
      if (close === -1) {
        throw new FilterSyntaxError({ code: 'unterminatedString', position: start }, start, text.slice(start));
      }
      // No database stores U+0000 in text (PostgreSQL refuses it), so a filter cannot ask for it either.
      const nul = text.indexOf('\0', i);
      if (nul !== -1 && nul < close) throw unexpected({ type: 'word', text: '\0', pos: nul });
      value += text.slice(i, close);
      if (text[close + 1] !== "'") {
        this.pos = close + 1;
        return { type: 'value', text: text.slice(start, this.pos), pos: start, value };
      }
      value += "'";
      i = close + 2;
    }
  }

  private readNumber(start: number, raw: string): Token {
    const tail = match(NUMBER_TAIL, this.text, start + raw.length);
    if (tail !== undefined) throw unexpected({ type: 'word', text: raw + tail, pos: start });
    const value = Number(raw);
    if (!Number.isFinite(value)) {
      throw new FilterSyntaxError({ code: 'invalidNumber', text: raw, position: start }, start, raw);
    }
    this.pos += raw.length;
    return { type: 'value', text: raw, pos: start, value: value === 0 ? 0 : value }; // -0 -> 0
  }
}

function match(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0];
}

function unexpected(token: Token): FilterSyntaxError {
  if (token.type === 'end') {
    return new FilterSyntaxError({ code: 'unexpectedEnd', position: token.pos }, token.pos, null);
  }
  return new FilterSyntaxError({ code: 'unexpectedToken', text: token.text, position: token.pos }, token.pos, token.text);
}

function isKeyword(token: Token, keyword: string): boolean {
  return token.type === 'word' && token.text.toLowerCase() === keyword;
}

// ---------------------------------------------------------------------------
// Parser: one method per grammar rule.

class Parser {
  private readonly tokens: Tokenizer;
  private depth = 0;
  private comparisons = 0;

  constructor(text: string) {
    this.tokens = new Tokenizer(text);
  }

  peek(): Token {
    return this.tokens.peek();
  }

  /** filter = or, followed by the end of input. */
  parseFilter(): FilterNode {
    const node = this.parseOr();
    const rest = this.tokens.next();
    if (rest.type !== 'end') throw unexpected(rest);
    return node;
  }

  /** or = and *( "or" and ) */
  private parseOr(): FilterNode {
    const operands = [this.parseAnd()];
    while (isKeyword(this.tokens.peek(), 'or')) {
      this.tokens.next();
      operands.push(this.parseAnd());
    }
    return operands.length === 1 ? operands[0]! : { kind: 'or', operands };
  }

  /** and = unary *( "and" unary ) */
  private parseAnd(): FilterNode {
    const operands = [this.parseUnary()];
    while (isKeyword(this.tokens.peek(), 'and')) {
      this.tokens.next();
      operands.push(this.parseUnary());
    }
    return operands.length === 1 ? operands[0]! : { kind: 'and', operands };
  }

  /** unary = "not" unary / "(" or ")" / comparison */
  private parseUnary(): FilterNode {
    const token = this.tokens.peek();
    if (isKeyword(token, 'not')) {
      this.enter(this.tokens.next());
      const operand = this.parseUnary();
      this.depth--;
      return { kind: 'not', operand };
    }
    if (token.type === '(') {
      this.enter(this.tokens.next());
      const inner = this.parseOr();
      this.expect(')');
      this.depth--;
      return inner;
    }
    return this.parseComparison();
  }

  /** Counts one nesting level, checked before recursing so deep input cannot overflow the stack. */
  private enter(token: Token): void {
    if (++this.depth > FILTER_LIMITS.maxDepth) {
      throw new FilterSyntaxError({ code: 'tooDeep', max: FILTER_LIMITS.maxDepth }, token.pos, token.text);
    }
  }

  /** comparison = field op value / field "in" "(" value *( "," value ) ")" / field "between" value "and" value */
  private parseComparison(): FilterNode {
    const fieldToken = this.tokens.next();
    if (fieldToken.type !== 'word' || FILTER_KEYWORDS.has(fieldToken.text.toLowerCase())) throw unexpected(fieldToken);
    if (++this.comparisons > FILTER_LIMITS.maxComparisons) {
      throw new FilterSyntaxError({ code: 'tooManyComparisons', max: FILTER_LIMITS.maxComparisons }, fieldToken.pos, fieldToken.text);
    }
    const field = fieldToken.text;

    const opToken = this.tokens.next();
    const op = opToken.type === 'word' ? opToken.text.toLowerCase() : '';
    if (op === 'in') return { kind: 'in', field, values: this.parseInList() };
    if (op === 'between') {
      const low = this.parseValue();
      const andToken = this.tokens.next();
      if (!isKeyword(andToken, 'and')) throw unexpected(andToken);
      return { kind: 'between', field, low, high: this.parseValue() };
    }
    if (isComparisonOperator(op)) return { kind: 'compare', field, operator: op, value: this.parseValue() };
    throw unexpected(opToken);
  }

  /** "(" value *( "," value ) ")" with at most 100 values. */
  private parseInList(): FilterValue[] {
    this.expect('(');
    const values = [this.parseValue()];
    while (this.tokens.peek().type === ',') {
      this.tokens.next();
      if (values.length === FILTER_LIMITS.maxInValues) {
        const { pos, text } = this.tokens.peek();
        throw new FilterSyntaxError({ code: 'inListTooLong', max: FILTER_LIMITS.maxInValues, position: pos }, pos, text || null);
      }
      values.push(this.parseValue());
    }
    this.expect(')');
    return values;
  }

  /** value = string / number / "true" / "false" / "null" */
  private parseValue(): FilterValue {
    const token = this.tokens.next();
    if (token.type === 'value') return token.value;
    if (token.type === 'word') {
      const word = token.text.toLowerCase();
      if (word === 'true') return true;
      if (word === 'false') return false;
      if (word === 'null') return null;
    }
    throw unexpected(token);
  }

  private expect(type: '(' | ')'): void {
    const token = this.tokens.next();
    if (token.type !== type) throw unexpected(token);
  }
}

function isComparisonOperator(word: string): word is ComparisonOperator {
  return (COMPARISON_OPERATORS as readonly string[]).includes(word);
}
