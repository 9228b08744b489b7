/**
 * The contact search index on SQLite (issue 13): which parts of a contacts `$filter` the FTS5 table
 * `contacts_search` can answer, and the MATCH expression that does. PostgreSQL needs no MATCH: its `pg_trgm` GIN
 * indexes serve the `ilike` the filter compiles to as it is (migration `0006-contact-search`); there
 * `searchMatch` only tells a search (which then counts first, to choose how to read its page) from other filters.
 *
 * The table (migration `0006-contact-search`) is an FTS5 external-content table over the view
 * `contacts_search_source`, kept in step with `contacts` by triggers, with the `trigram` tokenizer and
 * `case_sensitive 1`. Its rowid is the contact's rowid. Columns:
 * - `workspace`: three characters that only that workspace has (view `contact_search_workspaces`), one trigram;
 * - `state`: three characters for `active`, for `pending`, and one for anything else (view
 *   `contact_search_states`), one trigram;
 * - `name`, `email`, `phone`, `city`, `address`: the value lower-cased by SQLite's own `lower()` (ASCII letters
 *   only, as SQLite's LIKE folds case) and cut at the first U+0000 (where LIKE stops reading it).
 *
 * So a trigram phrase `"abc"` on a text column matches exactly the values that contain `abc` once both are
 * ASCII-lower-cased: exactly SQLite's `like '%abc%'` (docs/decisions.md section 6: case-insensitive contains; SQLite
 * folds ASCII only, so `Ä` and `ä`, or the Kelvin sign and `k`, stay different, as they do here). That holds for
 * literals of 3 or more characters; a shorter one has no trigram. A LIKE pattern with wildcards is served as a
 * superset (its literal runs of 3 or more characters, ANDed) and checked again row by row with the LIKE itself.
 */
import { type RawBuilder, sql } from 'kysely';
import type { FilterNode } from '../../src/api/filter/ast';
import { CONTACT_STATES } from '../../src/api/contacts';
import { likePattern } from '../filter/compile';

/** The FTS5 table (migration `0006-contact-search`). */
export const CONTACT_SEARCH_TABLE = 'contacts_search';

/** Contact fields whose `like` the index serves; the FTS5 columns have the same names. */
export const SEARCHABLE_FIELDS: readonly string[] = ['name', 'email', 'phone', 'city', 'address'];

/** The shortest literal the trigram index can look up, in characters (code points). */
export const MIN_SEARCH_LENGTH = 3;

/** One element of a LIKE pattern (escape `\`): a literal run, `%` (any run) or `_` (one character). */
export type LikeToken = { kind: 'literal'; text: string } | { kind: 'any' } | { kind: 'one' };

/**
 * A SQL LIKE pattern with `\` as its escape character (what `likePattern` makes) as tokens: `\x` is the literal
 * `x`; adjacent literals are joined and adjacent `%` collapse into one (the same match).
 */
export function parseLikePattern(pattern: string): LikeToken[] {
  const tokens: LikeToken[] = [];
  const chars = Array.from(pattern);
  for (let i = 0; i < chars.length; i++) {
    let char = chars[i]!;
    if (char === '%') {
      if (tokens.at(-1)?.kind !== 'any') tokens.push({ kind: 'any' });
      continue;
    }
    if (char === '_') {
      tokens.push({ kind: 'one' });
      continue;
    }
    if (char === '\\' && i + 1 < chars.length) char = chars[++i]!;
    const last = tokens.at(-1);
    if (last?.kind === 'literal') last.text += char;
    else tokens.push({ kind: 'literal', text: char });
  }
  return tokens;
}

/** ASCII letters lower-cased, every other character kept: SQLite's `lower()` and LIKE folding. */
export const asciiLower = (text: string) => text.replace(/[A-Z]/g, (char) => char.toLowerCase());

/** A piece of a MATCH expression: query text, or the code of a state. */
export type MatchPart = string | { state: string };

/**
 * What the index can do for a filter: `parts` make the FTS5 query (without the workspace: `matchSql` adds it where needed);
 * `exact` when it matches exactly the contacts the filter does, else it is a superset; `residual` is what must
 * still be checked row by row (undefined when nothing is: then `exact`).
 */
export type SearchMatch = { parts: MatchPart[]; exact: boolean; residual: FilterNode | undefined };

/** `column`: the match is one phrase in one column (`name : "ann"`), which an OR can gather into a column filter. */
type NodeMatch = { parts: MatchPart[]; exact: boolean; selective: boolean; column?: { field: string; phrase: string } };

const phrase = (text: string) => `"${text.replaceAll('"', '""')}"`;
const length = (text: string) => Array.from(text).length;

/** A `like` on a searchable field: a contains of a long enough literal exactly, a pattern through its long runs. */
function likeMatch(field: string, value: string): NodeMatch | null {
  const pattern = likePattern(value);
  // SQLite's LIKE stops reading a pattern at U+0000 (the filter parser refuses one; kept out all the same).
  if (pattern.includes('\0')) return null;
  const tokens = parseLikePattern(pattern);
  const runs = tokens.flatMap((token) => (token.kind === 'literal' && length(token.text) >= MIN_SEARCH_LENGTH ? [asciiLower(token.text)] : []));
  if (!runs.length) return null;
  const contains = tokens.length === 3 && tokens[0]!.kind === 'any' && tokens[1]!.kind === 'literal' && tokens[2]!.kind === 'any';
  const text = runs.map((run) => `${field} : ${phrase(run)}`).join(' AND ');
  const column = runs.length === 1 ? { field, phrase: phrase(runs[0]!) } : undefined;
  return { parts: [runs.length > 1 ? `(${text})` : text], exact: contains, selective: true, column };
}

/** `state eq` / `state in` of known states: exact, but never on its own (it matches too many to drive a query). */
function stateMatch(values: readonly unknown[]): NodeMatch | null {
  if (!values.length || !values.every((value) => typeof value === 'string' && (CONTACT_STATES as readonly string[]).includes(value))) return null;
  const codes = [...new Set(values as string[])].flatMap((state, i): MatchPart[] => [i ? ' OR ' : '', '"', { state }, '"']);
  return { parts: ['state : (', ...codes, ')'], exact: true, selective: false };
}

function joinMatches(matches: NodeMatch[], operator: 'AND' | 'OR'): MatchPart[] {
  return matches.flatMap((match, i): MatchPart[] => [i ? ` ${operator} ` : '', '(', ...match.parts, ')']);
}

function nodeMatch(node: FilterNode): NodeMatch | null {
  switch (node.kind) {
    case 'compare':
      if (node.operator === 'like' && typeof node.value === 'string' && SEARCHABLE_FIELDS.includes(node.field)) return likeMatch(node.field, node.value);
      if (node.operator === 'eq' && node.field === 'state') return stateMatch([node.value]);
      return null;
    case 'in':
      return node.field === 'state' ? stateMatch(node.values) : null;
    case 'and': {
      const served = node.operands.map(nodeMatch);
      const found = served.filter((match): match is NodeMatch => match !== null);
      if (!found.length) return null;
      return { parts: joinMatches(found, 'AND'), exact: found.length === served.length && found.every((m) => m.exact), selective: found.some((m) => m.selective) };
    }
    case 'or': {
      const served = node.operands.map(nodeMatch);
      if (served.some((match) => match === null)) return null;
      const found = served as NodeMatch[];
      const exact = found.every((m) => m.exact);
      // One phrase in several columns (the search box: name, email or phone) as one column filter, `{name email phone}
      // : "ann"`: the same rows as the OR of the three, read in one pass of the phrase's entries instead of three
      // (at 10,000,000 contacts a count 7 to 12 ms against 16 to 32 ms; docs/benchmarks.md, "Ten million contacts on
      // SQLite, a second run").
      const phrases = new Set(found.map((m) => m.column?.phrase));
      if (found.length > 1 && phrases.size === 1 && found.every((m) => m.column)) {
        const fields = [...new Set(found.map((m) => m.column!.field))];
        return { parts: [`{${fields.join(' ')}} : ${found[0]!.column!.phrase}`], exact, selective: true };
      }
      return { parts: joinMatches(found, 'OR'), exact, selective: found.every((m) => m.selective) };
    }
    default:
      return null;
  }
}

/**
 * What the search index can do for `filter` (null: nothing worth it, the query takes its usual path). Used only
 * when the match is selective: some text must be looked up (`state eq` alone reads faster from its b-tree index).
 * The residual keeps every operand of a top-level `and` that is not served exactly.
 */
export function searchMatch(filter: FilterNode | undefined): SearchMatch | null {
  if (!filter) return null;
  const match = nodeMatch(filter);
  if (!match?.selective) return null;
  if (match.exact) return { parts: match.parts, exact: true, residual: undefined };
  if (filter.kind !== 'and') return { parts: match.parts, exact: false, residual: filter };
  const rest = filter.operands.filter((operand) => !nodeMatch(operand)?.exact);
  return { parts: match.parts, exact: false, residual: rest.length === 1 ? rest[0] : { kind: 'and', operands: rest } };
}

/**
 * The MATCH operand for `match` in `workspaceId`, as SQL: the codes of the workspace and of the states are read
 * from the views the migration made, so this is one statement with no round trip of its own. Every piece of text
 * is a bound parameter.
 *
 * The workspace's term (`workspace : "<code>" AND (...)`) is left out when no other workspace has a contact: the
 * kept counts (`contact_counts`, migration 0010, kept in each write's transaction, a row only while its count is
 * over 0) hold no row of another workspace, read by two seeks of their primary key in the same statement, so in the
 * same snapshot as the match. The term's entries list every contact of the workspace, and ANDing them cost a count
 * at 10,000,000 contacts some 50 to 70 ms of its 60 to 90 (docs/benchmarks.md, "Ten million contacts on SQLite, a
 * second run"); with one workspace in the database it excludes nothing.
 */
export function matchSql(workspaceId: string, match: SearchMatch): RawBuilder<string> {
  const pieces = ['(', ...match.parts, ')']
    .filter((part) => part !== '')
    .map((part) => {
      if (typeof part === 'string') return sql`${part}`;
      return sql`(select code from contact_search_states where state = ${part.state})`;
    });
  const others = sql`exists (select 1 from contact_counts where workspace_id < ${workspaceId}) or exists (select 1 from contact_counts where workspace_id > ${workspaceId})`;
  const workspace = sql`case when ${others} then 'workspace : "' || (select code from contact_search_workspaces where id = ${workspaceId}) || '" AND ' else '' end`;
  return sql<string>`(${workspace} || ${sql.join(pieces, sql` || `)})`;
}
