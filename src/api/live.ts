/**
 * Live changes and shared views, our service's extensions `events` and `shared-views` (docs/decisions.md section 13,
 * issue 36; docs/live.md): the data of a `GET /events` change event, the limits of the stream, and the shapes of
 * `GET /views`, `POST /views`, `PUT /views/{viewId}`. Requests are strict, responses loose (a newer service may add
 * fields). Framework-free: the client, the console and the server import it.
 */
import * as z from 'zod/mini';
import { isoTime, listEnvelope } from './common';

/** Within this many ms of a committed write its change event is sent (docs/decisions.md section 13). */
export const EVENT_LATENCY_MS = 1000;
/** Changes less than this many ms apart may be merged into one event (docs/decisions.md section 13). */
export const EVENT_COALESCE_MS = 250;
/** A comment line is sent this often, in ms, so nothing between closes an idle stream (docs/decisions.md section 13). */
export const EVENT_HEARTBEAT_MS = 25_000;
/** Streams one key may hold open at once, over every process; the next is a 429 (docs/decisions.md section 13). */
export const MAX_STREAMS_PER_KEY = 5;
/** At most this many ids in one event; more are sent as `ids: null`, "load the list again" (docs/decisions.md section 13). */
export const MAX_EVENT_IDS = 100;

/** The activity resource name of a shared view (its entries in `GET /activity`, its change events). */
export const VIEW_RESOURCE = 'view';

/**
 * The `data` of an `event: change`: which kind of record (`contact`, `product`, `collection`, `post-request`,
 * `view`), which records (at most MAX_EVENT_IDS; `null` meaning "too many: load the list again"), and what was done
 * (the activity log's actions: `create`, `update`, `tags`, `notifications`, `erase`, `delete`, `withdraw`, `revert`).
 */
export const changeEventSchema = z.looseObject({
  resource: z.string(),
  ids: z.nullable(z.array(z.string())),
  action: z.string(),
});
export type ChangeEvent = z.infer<typeof changeEventSchema>;

/** The most views one workspace may hold (docs/live.md); one more is a 409. */
export const MAX_VIEWS_PER_WORKSPACE = 200;
/** A view's name: trimmed, 1 to 100 characters (docs/decisions.md section 13). */
export const VIEW_NAME_MAX = 100;
/** At most this many columns in a view, each a field name of 1 to 64 characters. */
export const VIEW_COLUMNS_MAX = 50;

const columnName = z.string().check(z.regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, { error: 'must be a field name (a letter, then letters, digits, _ . -; at most 64 characters)' }));

/**
 * A view's `query` as sent: `filter` (a `$filter` of `GET /contacts`, checked by docs/decisions.md section 6; null or
 * absent for none), `orderBy` (an `$orderBy` of `GET /contacts`; null or absent for the default order), `columns`
 * (field names, at most VIEW_COLUMNS_MAX, no repeats; default `[]`) and `pageSize` (1 to 100, default 20).
 */
export const viewQueryInputSchema = z.strictObject({
  filter: z._default(z.optional(z.nullable(z.string().check(z.maxLength(2000)))), null),
  orderBy: z._default(z.optional(z.nullable(z.string().check(z.maxLength(500)))), null),
  columns: z._default(
    z.optional(z.array(columnName).check(z.maxLength(VIEW_COLUMNS_MAX), z.refine((columns) => new Set(columns).size === columns.length, { error: 'must not repeat a column' }))),
    [],
  ),
  pageSize: z._default(z.optional(z.number().check(z.int(), z.gte(1), z.lte(100))), 20),
});

/**
 * `POST /views` and `PUT /views/{viewId}` body (PUT replaces the whole view): `name` (trimmed, 1 to 100 characters,
 * unique in the workspace ignoring case), `resource` (`contacts`, the default and the only one) and `query`.
 */
export const viewInputSchema = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(VIEW_NAME_MAX)),
  resource: z._default(z.optional(z.literal('contacts')), 'contacts'),
  query: viewQueryInputSchema,
});
export type ViewInput = z.input<typeof viewInputSchema>;
export type ViewInputParsed = z.output<typeof viewInputSchema>;

/** A view's `query` as answered: every member present. */
export const viewQuerySchema = z.looseObject({
  filter: z.nullable(z.string()),
  orderBy: z.nullable(z.string()),
  columns: z.array(z.string()),
  pageSize: z.number(),
});

/** A shared view (docs/decisions.md section 13): `keyHint` names the key that made it (`…a1b2`, null for a Basic-less old key). */
export const viewSchema = z.looseObject({
  viewId: z.string(),
  name: z.string(),
  resource: z.string(),
  query: viewQuerySchema,
  keyHint: z.nullable(z.string()),
  created: isoTime,
  updated: isoTime,
});
export type SharedView = z.infer<typeof viewSchema>;

/** `GET /views` 200: every view of the workspace, by name (ignoring case), in the list envelope. */
export const viewListSchema = listEnvelope(viewSchema);
export type SharedViewList = z.infer<typeof viewListSchema>;

/** `PUT`/`DELETE /views/{viewId}` path parameters. */
export const viewParamsSchema = z.strictObject({ viewId: z.string().check(z.minLength(1), z.maxLength(200)) });
