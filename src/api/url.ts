/**
 * URL paths of the typed client: joining the base address and an endpoint path, and encoding path parameters.
 * Query strings are built in `query-string.ts`, nowhere else.
 */

/**
 * `baseUrl` + `path` + `query` with exactly one `/` between base and path. `baseUrl` is absolute
 * (`http://127.0.0.1:8080/api`) or relative (`/api`, in the browser; docs/decisions.md section 0); trailing slashes are
 * ignored. `path` starts with `/` and has its parameters already encoded by `pathSegment`; `query` is `''` or
 * `?...` from `buildQueryString`. Example: `joinUrl('/api/', '/contacts', '?%24limit=5')` is `/api/contacts?%24limit=5`.
 */
export function joinUrl(baseUrl: string, path: string, query = ''): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}${query}`;
}

/**
 * One path parameter, percent-encoded with `encodeURIComponent` (`a/b?c` gives `a%2Fb%3Fc`), so an id can never
 * reach another route.
 * @throws RangeError for `''`, `'.'` and `'..'`, which a URL parser would drop or resolve as dot segments
 *   (sending `PATCH /contacts/../tags` would call a different path). No id the service makes looks like these.
 */
export function pathSegment(value: string): string {
  if (value === '' || value === '.' || value === '..') throw new RangeError(`'${value}' cannot be a path parameter`);
  return encodeURIComponent(value);
}
