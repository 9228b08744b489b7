/**
 * Activity and revert, our service's extension `activity` (docs/decisions.md section 11, issue 33): every write through
 * the API leaves one entry per record it changed, `GET /activity` lists them, `POST /activity/revert` undoes one
 * entry or a whole batch as new writes. Shapes of both routes, the request headers that name a write's source and
 * batch, and the filter fields of `GET /activity`. Requests are strict, responses loose (a newer service may add
 * fields). Framework-free: the client, the console and the server import it.
 */
import * as z from 'zod/mini';
import { DEFAULT_PAGE_CAPS, isoTime, listEnvelope, listQuery } from './common';
import type { FieldTable } from './filter/fields';

/** The kinds of record an entry is about (docs/decisions.md section 11). */
export const ACTIVITY_RESOURCES = ['contact', 'product', 'collection', 'post-request'] as const;
export type ActivityResource = (typeof ACTIVITY_RESOURCES)[number];

/** What a write did to the record (docs/decisions.md section 11). */
export const ACTIVITY_ACTIONS = ['create', 'update', 'tags', 'notifications', 'erase', 'delete', 'withdraw', 'revert'] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** Why `POST /activity/revert` left an entry as it was (docs/decisions.md section 11). */
export const REVERT_CONFLICT_REASONS = ['changed-since', 'gone', 'published', 'not-revertible', 'already-reverted'] as const;
export type RevertConflictReason = (typeof REVERT_CONFLICT_REASONS)[number];

/**
 * Request headers (docs/decisions.md section 11): `Activity-Source` names what wrote (1 to 100 printable ASCII
 * characters; `api` when absent), `Activity-Batch` groups writes into one batch (1 to 255; none when absent).
 * Any other value is a 400.
 */
export const ACTIVITY_SOURCE_HEADER = 'Activity-Source';
export const ACTIVITY_BATCH_HEADER = 'Activity-Batch';
export const ACTIVITY_SOURCE_MAX = 100;
export const ACTIVITY_BATCH_MAX = 255;
export const DEFAULT_ACTIVITY_SOURCE = 'api';

/** The request headers that tag a write for the activity log: `{ 'Activity-Source': source, 'Activity-Batch': batchId }`. */
export function activityHeaders(source: string, batchId?: string): Record<string, string> {
  return batchId === undefined ? { [ACTIVITY_SOURCE_HEADER]: source } : { [ACTIVITY_SOURCE_HEADER]: source, [ACTIVITY_BATCH_HEADER]: batchId };
}

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/**
 * The problem with an `Activity-Source` or `Activity-Batch` header value, or null when it is valid (or absent).
 * `name` is the header's name as written in messages.
 */
export function activityHeaderProblem(name: string, value: string | undefined, max: number): string | null {
  if (value === undefined) return null;
  if (value.length === 0) return `${name} must not be empty`;
  if (value.length > max) return `${name} must be at most ${max} characters long`;
  if (!PRINTABLE_ASCII.test(value)) return `${name} must be printable ASCII characters`;
  return null;
}

/**
 * One entry of `GET /activity`. `changes` maps each changed field to `[before, after]` (`tags` to `[added,
 * removed]`; a create has `before` null for each field it set; null once the person was erased). `keyHint` is
 * `…` plus the last four characters of the key that wrote (null for keys made before the extension).
 */
export const activityEntrySchema = z.looseObject({
  activityId: z.string(),
  created: isoTime,
  resource: z.string(),
  resourceId: z.string(),
  action: z.string(),
  changes: z.nullable(z.record(z.string(), z.unknown())),
  keyHint: z.nullable(z.string()),
  source: z.string(),
  batchId: z.nullable(z.string()),
  requestId: z.nullable(z.string()),
  idempotencyKey: z.nullable(z.string()),
  revertOf: z.nullable(z.string()),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

/** `GET /activity` 200: the list envelope of entries. */
export const activityListSchema = listEnvelope(activityEntrySchema);
export type ActivityList = z.infer<typeof activityListSchema>;

/** `GET /activity` query: `$limit` at most 100 (default 20), `$filter`, `$orderBy` (`created desc` or `created asc`). */
export const activityListQuery = listQuery(DEFAULT_PAGE_CAPS, { orderBy: true });

/** The fields `GET /activity` filters on (docs/decisions.md section 11, with the operators of section 6). */
export const activityFilterFields: FieldTable = Object.freeze({
  resource: 'string',
  resourceId: 'string',
  action: 'string',
  batchId: 'string',
  source: 'string',
  keyHint: 'string',
  created: 'date',
});

/** The fields `GET /activity` sorts on: `created` only (ties in the order the entries were written). */
export const activitySortFields: readonly string[] = Object.freeze(['created']);

/** `POST /activity/revert` body: exactly one of `activityId` and `batchId`. */
export const revertRequestSchema = z
  .strictObject({
    activityId: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
    batchId: z.optional(z.string().check(z.minLength(1), z.maxLength(ACTIVITY_BATCH_MAX))),
  })
  .check(z.refine((body) => (body.activityId === undefined) !== (body.batchId === undefined), { error: 'needs exactly one of activityId, batchId' }));
export type RevertRequest = z.input<typeof revertRequestSchema>;

/** An entry `POST /activity/revert` did not undo, and why. */
export const revertConflictSchema = z.looseObject({ activityId: z.string(), resourceId: z.string(), reason: z.string() });
export type RevertConflict = z.infer<typeof revertConflictSchema>;

/** `POST /activity/revert` 200: how many entries were undone, the ones that were not, and the revert's own batch. */
export const revertResultSchema = z.looseObject({
  reverted: z.number().check(z.int(), z.nonnegative()),
  conflicts: z.array(revertConflictSchema),
  batchId: z.string(),
});
export type RevertResult = z.infer<typeof revertResultSchema>;

/** `…a1b2`: how an entry names the key (or Basic access key) that wrote, never more of it. */
export function keyHintOf(key: string): string {
  return `…${key.slice(-4)}`;
}
