/**
 * The one place query strings are built (docs/style.md "One road to the server"; interface document, "Pagination,
 * sorting and filtering"): names and values percent-encoded with `encodeURIComponent` (so `$filter` goes out as
 * `%24filter`), `$filter` printed from an AST by `printFilter`, `$orderBy` by `printOrderBy`.
 */
import type { ListParams } from './common';
import type { FilterNode } from './filter/ast';
import { type OrderByItem, printOrderBy } from './filter/order-by';
import { printFilter } from './filter/print';
import type { RequestPriority } from './rate-budget';

/** A query parameter value; `undefined` and `null` leave the parameter out. */
export type QueryValue = string | number | boolean | null | undefined;

/**
 * Parameters of a list call (endpoints 3, 12, 14, 15; docs/decisions.md section 6): the `ListParams`, whose filter and
 * order may also be text, and the call's options.
 * - `offset`, `limit`: integers sent as `$offset`, `$limit` (service defaults apply when absent; caps are in
 *   `DEFAULT_PAGE_CAPS` / `POSTS_PAGE_CAPS`, a value above a cap is a 400, never clamped);
 * - `filter`: an AST (printed canonically by `printFilter`) or filter text exactly as a user typed it;
 * - `orderBy`: items (printed by `printOrderBy`; `[]` sends nothing) or text such as `name asc, created desc`;
 * - `signal`: aborts the call (it then rejects with the AbortError);
 * - `priority`: the call's place in the key's rate budget (default `person`; src/api/rate-budget.ts);
 * - `onHeaders`: called with the headers of a 2xx answer before its body is parsed, e.g. to read
 *   `X-RateLimit-Limit` (docs/decisions.md section 4; the contacts import's time estimate, issue 20).
 */
export type ListCallParams = Omit<ListParams, 'filter' | 'orderBy'> & {
  filter?: FilterNode | string;
  orderBy?: readonly OrderByItem[] | string;
  signal?: AbortSignal;
  priority?: RequestPriority;
  onHeaders?: (headers: Headers) => void;
};

/** List parameters of endpoints that do not sort (`GET /products`, `GET /collections`: `$orderBy` is a 400 there). */
export type UnsortedListCallParams = Omit<ListCallParams, 'orderBy'>;

/**
 * `?name=value&...` from `params` in insertion order, both sides encoded with `encodeURIComponent`; `''` when
 * nothing is left. `undefined` and `null` values are omitted. Example: `{ $limit: 5, $filter: "name eq 'a&b'" }`
 * gives `?%24limit=5&%24filter=name%20eq%20'a%26b'`.
 */
export function buildQueryString(params: Readonly<Record<string, QueryValue>>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/**
 * `$filter` text: an AST printed by `printFilter`, a string passed through unchanged. A blank string (empty or
 * only whitespace) gives `undefined`, so an emptied filter box sends no `$filter` rather than a 400.
 * @throws RangeError from `printFilter` for a tree no filter text can express.
 */
export function filterText(filter: FilterNode | string | undefined): string | undefined {
  if (filter === undefined) return undefined;
  if (typeof filter === 'string') return filter.trim() === '' ? undefined : filter;
  return printFilter(filter);
}

/**
 * `$orderBy` text: items printed by `printOrderBy` (`[]` gives `undefined`), a string passed through unchanged
 * (blank gives `undefined`).
 * @throws RangeError from `printOrderBy` for a field that is not an identifier.
 */
export function orderByText(orderBy: readonly OrderByItem[] | string | undefined): string | undefined {
  if (orderBy === undefined) return undefined;
  const text = typeof orderBy === 'string' ? orderBy : printOrderBy(orderBy);
  return text.trim() === '' ? undefined : text;
}

/**
 * The query string of a list call: `?%24offset=...&%24limit=...&%24filter=...&%24orderBy=...`, absent parameters
 * omitted (see `ListCallParams`).
 * @throws RangeError when `filter` or `orderBy` is a tree that cannot be printed.
 */
export function listQueryString(params: ListCallParams): string {
  return buildQueryString({
    $offset: params.offset,
    $limit: params.limit,
    $filter: filterText(params.filter),
    $orderBy: orderByText(params.orderBy),
  });
}
