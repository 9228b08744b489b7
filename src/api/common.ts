/**
 * Shapes shared by every endpoint of the interface: the error body, the list envelope, the `$`-parameters of
 * list queries, and the formats of docs/decisions.md section 1. Framework-free: imported by the client and the server.
 *
 * The contract is written with `zod/mini` (issue 16): the same zod 4 core, checks and issues as `zod`, as
 * functions (`z.optional(s)`, `s.check(z.maxLength(n))`) rather than methods, so a bundle carries only the
 * checks it uses (about 10 KB of gzip on the console's first screen instead of 25). `zod/mini` does not load a
 * locale by itself; the English one is configured by src/api/zod-messages.ts (at the server's start, on demand in the
 * console: load-zod-messages.ts), so every issue message (which src/api/validation-message.ts words from) is the
 * same as with `zod`, in the browser and on the server.
 */
import * as z from 'zod/mini';
import type { FilterNode } from './filter/ast';
import type { OrderByItem } from './filter/order-by';

/** The only API version the service accepts; a request without `X-Api-Version` uses it (docs/decisions.md section 5). */
export const API_VERSION = '2026-07';

/** Error body of every non-2xx answer (interface document, "Error body"; docs/decisions.md section 3). */
export const errorBodySchema = z.looseObject({
  traceId: z.string(),
  message: z.string(),
  path: z.string(),
  timestamp: z.string(),
  statusCode: z.number(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/**
 * `{ items, meta: { maxResults } }`, the envelope of every paged list (interface document, "List envelope").
 * `maxResults` is the exact number of items matching the request, not the page size.
 */
export function listEnvelope<Item extends z.ZodMiniType>(item: Item) {
  return z.looseObject({
    items: z.array(item),
    meta: z.looseObject({ maxResults: z.number().check(z.int(), z.nonnegative()) }),
  });
}
export type ListEnvelope<Item> = { items: Item[]; meta: { maxResults: number } };

/** ISO 8601 UTC time with milliseconds as the service writes it (docs/decisions.md section 1), kept as a string. */
export const isoTime = z.string();

/**
 * The instants the service takes, on every date input (`publishDate`, `$filter` date literals): years 1970 to 9999
 * in UTC, after the input's offset is applied (issue 12 point 4). Beyond 9999 an ISO string has six digits and a
 * sign (`+010000-01-01T...`), which compares as text before every four-digit year: a post scheduled there was
 * listed at once. Before 1970 nothing in the service's data exists.
 */
export const DATE_RANGE = { min: '1970-01-01T00:00:00.000Z', max: '9999-12-31T23:59:59.999Z' } as const;

/** True when `date` is a valid instant within DATE_RANGE. */
export function isInDateRange(date: Date): boolean {
  const time = date.getTime();
  return time >= Date.parse(DATE_RANGE.min) && time <= Date.parse(DATE_RANGE.max);
}

/** The message for a date outside DATE_RANGE: `must be between 1970-01-01T00:00:00.000Z and ... (UTC)`. */
export const DATE_RANGE_MESSAGE = `must be between ${DATE_RANGE.min} and ${DATE_RANGE.max} (UTC, after its offset is applied)`;

/** An absolute http(s) URL (docs/decisions.md section 7). */
export const httpUrl = (max = 2048) =>
  z.string().check(
    z.maxLength(max),
    z.refine((value) => /^https?:\/\/[^\s]+$/i.test(value) && URL.canParse(value), {
      error: 'must be an absolute http(s) URL',
    }),
  );

/** Caps of a list endpoint's `$limit`/`$offset` (docs/decisions.md section 6). */
export type PageCaps = { defaultLimit: number; maxLimit: number; maxOffset?: number };
export const DEFAULT_PAGE_CAPS: PageCaps = { defaultLimit: 20, maxLimit: 100 };
export const POSTS_PAGE_CAPS: PageCaps = { defaultLimit: 10, maxLimit: 30, maxOffset: 100 };

/**
 * A non-negative integer query parameter on the wire (a decimal string), as a number within `[min, max]`.
 * Errors name the parameter: `$limit must not be greater than 30` (docs/decisions.md section 3).
 */
export function integerParam(min: number, max: number) {
  return z
    .pipe(z.pipe(z.string().check(z.regex(/^\d{1,15}$/, { error: 'must be a non-negative integer' })), z.transform(Number)), z.number().check(z.int(), z.gte(min), z.lte(max)))
    .check(z.meta({ [INTEGER_PARAM]: { minimum: min, maximum: max } }));
}

/** Metadata key marking an integer query parameter, so the OpenAPI document shows it as an integer with its range. */
export const INTEGER_PARAM = 'x-integer-param';

/**
 * The query-string schema of a list endpoint: `$offset`, `$limit`, `$filter` and, where the endpoint sorts,
 * `$orderBy`. Unknown parameters are rejected (`property foo should not exist`, docs/decisions.md section 6).
 * Parsed output: `{ $offset: number; $limit: number; $filter?: string; $orderBy?: string }`.
 */
export function listQuery(caps: PageCaps, options: { orderBy: boolean }) {
  const base = {
    $offset: z._default(z.optional(integerParam(0, caps.maxOffset ?? Number.MAX_SAFE_INTEGER)), 0).check(z.describe('Number of items to skip')),
    $limit: z._default(z.optional(integerParam(1, caps.maxLimit)), caps.defaultLimit).check(z.describe(`Page size, at most ${caps.maxLimit}`)),
    $filter: z.optional(z.string()).check(z.describe("OData-style filter: `field op value` joined by and/or, e.g. `state eq 'active' and tags in ('vip')`")),
  };
  return options.orderBy
    ? z.strictObject({ ...base, $orderBy: z.optional(z.string()).check(z.describe('`field [asc|desc]`, several separated by commas')) })
    : z.strictObject(base);
}
export type ListQuery = { $offset: number; $limit: number; $filter?: string; $orderBy?: string };

/**
 * A list call's `$offset`, `$limit`, `$filter` and `$orderBy` as values: the filter an AST, the order its items
 * (`ListQuery` is the same parameters as text, as the query string holds them). The one shape of the idea for the
 * console's list queries, the service's checked parameters (server/routes/list-params.ts) and its database queries;
 * where one needs some of them, `Required<Pick<ListParams, ...>> & ListParams` says which.
 */
export type ListParams = { offset?: number; limit?: number; filter?: FilterNode; orderBy?: readonly OrderByItem[] };

/** A tag: trimmed, 1 to 64 characters (docs/decisions.md section 7, contacts). */
export const tagSchema = z.string().check(z.trim(), z.minLength(1), z.maxLength(64));

/** A list of tags: at most 100, duplicates collapsed, order of first appearance kept. */
export const tagListSchema = z.pipe(
  z.array(tagSchema).check(z.maxLength(100)),
  z.transform((tags: string[]) => [...new Set(tags)]),
);
