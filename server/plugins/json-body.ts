/**
 * The `application/json` body parser of the service (issue 12, points 1 and 10): the raw text is scanned for its
 * shape first, and a body deeper or wider than `JSON_BODY_LIMITS` is refused with a 400 naming where, before
 * it is built into objects; what passes is parsed by Fastify's own parser (secure-json-parse, so `__proto__` and
 * `constructor.prototype` keys stay a 400, as do malformed and empty bodies).
 *
 * The limits hold for every field of every write endpoint at once (POST /contacts, PATCH tags and
 * notification-settings, POST /products, /collections, /post-requests), free-form values included (`follows`,
 * `statusTags`, `customProperties`, `recipients`):
 * - depth 32: the body object is level 1, so a field's value can nest 31 levels. SQLite's JSON functions stop at
 *   depth 1,000 (a deeper stored value made every contact page holding it fail: issue 12 point 1), PostgreSQL's
 *   json parser recurses until its stack limit (about 5,000 to 20,000 levels at the default `max_stack_depth`),
 *   and JSON.stringify, zod and the exports recurse too. No field of the contract needs more than 3 levels;
 *   32 leaves room for free-form shapes and keeps every stored value some 30 times below SQLite's limit.
 * - 1,000 members in one array or object: the longest list the contract takes (`recipients`, 1,000 contact ids).
 * - 50,000 values in the whole body (every member of every array and object, the body itself included): enough
 *   for the largest valid bodies (two free-form values of 16 KiB as JSON each hold fewer than 17,000), and a
 *   2 MB body can no longer become a million small objects (issue 12 point 10: 150,000-element arrays at 16 in
 *   flight held 505 MiB).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../errors';

export const JSON_BODY_LIMITS = {
  /** Deepest nesting of arrays and objects, the body itself being level 1. */
  maxDepth: 32,
  /** Most members (items, or keys) of one array or object. */
  maxMembers: 1000,
  /** Most values in the whole body: every member of every array and object, and the body itself. */
  maxValues: 50_000,
} as const;

const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \
const COMMA = 0x2c; // ,
const COLON = 0x3a; // :

/** One open array or object while scanning: its members so far and the path segment of the current one. */
type Frame = { isObject: boolean; members: number; key: string; keyStart: number };

const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/** A member name as the message shows it: unescaped when it is valid JSON text, cut at 60 characters. */
function keyText(raw: string): string {
  let key = raw;
  try {
    key = JSON.parse(`"${raw}"`) as string;
  } catch {
    // The parser will call the body malformed; the raw text names it well enough here.
  }
  return key.length > 60 ? `${key.slice(0, 60)}…` : key;
}

/**
 * `recipients.contactIds`: the path of the value that `stack[depth - 1]` is currently reading, `body` for the body
 * itself; at most `maxParts` segments (then `…`).
 */
function pathOf(stack: readonly Frame[], depth: number, maxParts = 6): string {
  const parts: string[] = [];
  for (let i = 0; i < depth && i < stack.length; i++) {
    if (parts.length === maxParts) return `${parts.join('.')}…`;
    const frame = stack[i]!;
    parts.push(frame.isObject ? frame.key : String(frame.members - 1));
  }
  return parts.length ? parts.join('.') : 'body';
}

/**
 * Scans JSON text for its shape without building it: the first limit of `JSON_BODY_LIMITS` it exceeds, as a 400
 * message naming the value (`follows is nested deeper than 32 levels (the body counts as level 1)`, `tags has more
 * than 1000 items`, `body holds more than 50000 values`), or null. Linear in the text, constant memory beyond
 * the 32 open levels. Malformed text is not judged here (null unless a limit is crossed first): the JSON parser
 * reports it.
 */
export function jsonShapeProblem(text: string, limits = JSON_BODY_LIMITS): string | null {
  const stack: Frame[] = [];
  let values = 0;
  let expectingFirst = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) continue;
    const top = stack[stack.length - 1];
    if (expectingFirst) {
      expectingFirst = false;
      if (top && code !== CLOSE_ARRAY && code !== CLOSE_OBJECT) {
        top.members = 1;
        if (++values > limits.maxValues) return `body holds more than ${limits.maxValues} values`;
      }
    }
    if (code === QUOTE) {
      const start = i + 1;
      for (i = start; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === BACKSLASH) i++;
        else if (c === QUOTE) break;
      }
      if (top?.isObject && top.keyStart === -1) {
        top.keyStart = start;
        top.key = keyText(text.slice(start, Math.min(i, start + 200)));
      }
    } else if (code === COLON) {
      // The string just read was the member's name: the value comes next.
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (stack.length === 0) values++;
      if (stack.length + 1 > limits.maxDepth) {
        const field = stack[0]?.isObject ? pathOf(stack, 1) : 'body';
        return `${field} is nested deeper than ${limits.maxDepth} levels (the body counts as level 1)`;
      }
      stack.push({ isObject: code === OPEN_OBJECT, members: 0, key: '', keyStart: -1 });
      expectingFirst = true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      stack.pop();
    } else if (code === COMMA && top) {
      top.members++;
      if (top.isObject) top.keyStart = -1;
      if (top.members > limits.maxMembers) {
        const where = pathOf(stack, stack.length - 1);
        return top.isObject ? `${where} has more than ${limits.maxMembers} members` : `${where} has more than ${limits.maxMembers} items`;
      }
      if (++values > limits.maxValues) return `body holds more than ${limits.maxValues} values`;
    }
  }
  return null;
}

/** Replaces Fastify's `application/json` parser with the shape check followed by Fastify's own parser. */
export default fp(
  async function jsonBodyPlugin(app: FastifyInstance) {
    const parse = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const problem = jsonShapeProblem(body as string);
      if (problem) {
        done(badRequest(problem), undefined);
        return;
      }
      parse(request, body as string, done);
    });
  },
  { name: 'json-body' },
);
