/**
 * Aggregates and batches (docs/decisions.md section 12; issue 35): our service's extensions `stats` and
 * `contact-batch`, offered where `GET /extensions` names them. Requests are strict, responses loose.
 */
import * as z from 'zod/mini';
import { tagListSchema } from './common';
import { contactCreateSchema } from './contacts';

/** At most this many items in `POST /contacts/batch`, ids in `POST /contacts/tags` (docs/decisions.md section 12). */
export const MAX_BATCH_ITEMS = 1000;

const count = z.number();
const tagCount = z.looseObject({ name: z.string(), count });

/** `GET /contacts/stats` 200: `{ total, byState: { pending, active }, topTags: [{ name, count }] }` (at most 20). */
export const contactStatsSchema = z.looseObject({
  total: count,
  byState: z.looseObject({ pending: count, active: count }),
  topTags: z.array(tagCount),
});
export type ContactStats = z.infer<typeof contactStatsSchema>;

/** `GET /contacts/stats` query: an optional `$filter` (the grammar of docs/contract.md section 6). */
export const contactStatsQuery = z.strictObject({ $filter: z.optional(z.string()) });

/**
 * `GET /stats` 200: one section per resource the key can read (docs/decisions.md section 12). `weekStart` is a
 * `YYYY-MM-DD` Monday (UTC); `createdByWeek` holds the last 12 ISO weeks, oldest first, zeros included.
 */
export const statsSchema = z.looseObject({
  contacts: z.optional(
    z.looseObject({
      total: count,
      byState: z.looseObject({ pending: count, active: count }),
      createdByWeek: z.array(z.looseObject({ weekStart: z.string(), count })),
      topTags: z.array(tagCount),
    }),
  ),
  products: z.optional(z.looseObject({ total: count, byStatus: z.looseObject({ active: count, draft: count, archived: count }) })),
  collections: z.optional(z.looseObject({ total: count })),
  posts: z.optional(z.looseObject({ publishedLast30Days: count, scheduled: count, suggested: count, clapsLast30Days: count })),
});
export type Stats = z.infer<typeof statsSchema>;

/**
 * `POST /contacts/batch` body: `{ items }`, 1 to 1,000 values. Each item is checked on its own against the
 * create request (`contactCreateSchema`) by the route, so one bad item is that item's 400, not the batch's.
 */
export const contactBatchSchema = z.strictObject({
  items: z.array(z.unknown()).check(z.minLength(1), z.maxLength(MAX_BATCH_ITEMS)),
});
export type ContactBatch = { items: z.input<typeof contactCreateSchema>[] };

/**
 * One item's outcome: `status` as `POST /contacts` would answer it; `id` on 201 (the new contact) and, where the
 * service gives it, on a 409 (the contact holding the email or phone: docs/decisions.md section 12); the error body
 * on a failure.
 */
export const contactBatchResultSchema = z.looseObject({
  index: z.number(),
  status: z.number(),
  id: z.optional(z.string()),
  error: z.optional(z.looseObject({ traceId: z.string(), message: z.string(), path: z.string(), timestamp: z.string(), statusCode: z.number() })),
});
/** `POST /contacts/batch` 200: `{ results }`, one per item, in order. */
export const contactBatchResponseSchema = z.looseObject({ results: z.array(contactBatchResultSchema) });
export type ContactBatchResponse = z.infer<typeof contactBatchResponseSchema>;

/**
 * `POST /contacts/tags` body: exactly one of `filter` (a `$filter`) and `ids` (1 to 1,000), and the tag rules of
 * the tags PATCH (a non-empty `tagsToAdd` or `tagsToRemove`, no tag in both).
 */
export const contactBulkTagsSchema = z
  .strictObject({
    filter: z.optional(z.string()),
    ids: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(200))).check(z.minLength(1), z.maxLength(MAX_BATCH_ITEMS))),
    tagsToAdd: z.optional(tagListSchema),
    tagsToRemove: z.optional(tagListSchema),
  })
  .check(
    z.superRefine((body, ctx) => {
      if ((body.filter === undefined) === (body.ids === undefined)) ctx.addIssue({ code: 'custom', path: [], message: 'needs exactly one of filter and ids' });
      if (!body.tagsToAdd?.length && !body.tagsToRemove?.length) ctx.addIssue({ code: 'custom', path: [], message: 'needs a non-empty tagsToAdd or tagsToRemove' });
      const both = (body.tagsToAdd ?? []).filter((tag) => body.tagsToRemove?.includes(tag));
      if (both.length) ctx.addIssue({ code: 'custom', path: [], message: `names ${both.join(', ')} in both tagsToAdd and tagsToRemove` });
    }),
  );
export type ContactBulkTags = z.input<typeof contactBulkTagsSchema>;

/** `POST /contacts/tags` 200: contacts matched, contacts whose tags changed, and the batch id of their entries. */
export const contactBulkTagsResponseSchema = z.looseObject({ matched: count, changed: count, batchId: z.string() });
export type ContactBulkTagsResponse = z.infer<typeof contactBulkTagsResponseSchema>;
