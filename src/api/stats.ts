/**
 * Aggregates (docs/decisions.md section 12; issue 35): our service's extension `stats`, offered where
 * `GET /extensions` names it. Requests are strict, responses loose. The batches (`contact-batch`) are in
 * contact-batch.ts, so the overview, which reads `GET /stats` on its first screen, does not load their schemas.
 */
import * as z from 'zod/mini';

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
