/**
 * Post requests and posts (endpoints 11 to 14) with the rules of docs/decisions.md section 7: the three actions,
 * content, `publishDate`, the object shapes, and the listed shapes of the three post lists.
 */
import * as z from 'zod/mini';
import { DATE_RANGE_MESSAGE, POSTS_PAGE_CAPS, httpUrl, integerParam, isInDateRange, isoTime, listEnvelope, listQuery } from './common';

export const POST_ACTIONS = ['publish', 'schedule', 'suggest'] as const;
export type PostAction = (typeof POST_ACTIONS)[number];
export const POST_STATES = ['published', 'scheduled', 'suggested'] as const;
export type PostState = (typeof POST_STATES)[number];

/**
 * An ISO 8601 date-time with an offset (`2026-07-01T10:00:00.000Z`, `2026-07-01T12:00:00+02:00`) within
 * DATE_RANGE once the offset is applied: `9999-12-31T23:59:59-23:59` is a 400 (issue 12 point 4).
 */
export const dateTimeSchema = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 date-time with an offset, such as 2026-07-01T10:00:00.000Z' })
  // A string that is no date-time at all already has the format issue (zod runs every check).
  .check(z.refine((text) => Number.isNaN(Date.parse(text)) || isInDateRange(new Date(text)), { error: DATE_RANGE_MESSAGE }));

export const ctaLinkSchema = z.strictObject({
  url: httpUrl(),
  title: z.optional(z.string().check(z.maxLength(255))),
  description: z.optional(z.string().check(z.maxLength(1000))),
  imageUrl: z.optional(httpUrl()),
});
export const buttonSchema = z.strictObject({ text: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)), url: httpUrl() });
export const authorSchema = z.strictObject({ name: z.string().check(z.trim(), z.minLength(1), z.maxLength(255)), imageUrl: z.optional(httpUrl()) });
export const postNotificationSettingsSchema = z.strictObject({ email: z.optional(z.boolean()), sms: z.optional(z.boolean()) });
const contactIds = z.array(z.string().check(z.minLength(1), z.maxLength(200))).check(z.maxLength(1000));
/** `{ tags?, contactIds? }` or a bare list of contact ids; non-empty makes the post private. */
export const recipientsSchema = z.union([
  contactIds,
  z.strictObject({
    tags: z.optional(z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(64))).check(z.maxLength(100))),
    contactIds: z.optional(contactIds),
  }),
]);
export type Recipients = z.infer<typeof recipientsSchema>;

/** True when `recipients` names anyone (the post is then private, docs/decisions.md section 7). */
export function hasRecipients(recipients: Recipients | undefined): boolean {
  if (!recipients) return false;
  if (Array.isArray(recipients)) return recipients.length > 0;
  return Boolean(recipients.tags?.length || recipients.contactIds?.length);
}

/** `POST /post-requests` body, with the cross-field rules (content, `publishDate` by action). */
export const postRequestSchema = z
  .strictObject({
    action: z.enum(POST_ACTIONS, { error: 'must be one of publish, schedule, suggest' }),
    text: z.optional(z.string().check(z.maxLength(10_000))),
    header: z.optional(z.string().check(z.maxLength(500))),
    imageUrl: z.optional(httpUrl()),
    mediaImageUrls: z.optional(z.array(httpUrl()).check(z.maxLength(20))),
    publishDate: z.optional(dateTimeSchema),
    ctaLink: z.optional(ctaLinkSchema),
    button: z.optional(buttonSchema),
    author: z.optional(authorSchema),
    recipients: z.optional(recipientsSchema),
    notificationSettings: z.optional(postNotificationSettingsSchema),
  })
  .check(
    z.superRefine((body, ctx) => {
      if (!body.text?.trim() && !body.header?.trim() && !body.imageUrl && !body.mediaImageUrls?.length) {
        ctx.addIssue({ code: 'custom', path: [], message: 'needs content: text, header, imageUrl or mediaImageUrls' });
      }
      if (body.action === 'schedule' && !body.publishDate) ctx.addIssue({ code: 'custom', path: ['publishDate'], message: 'is required to schedule a post' });
      if (body.action === 'publish' && body.publishDate) ctx.addIssue({ code: 'custom', path: ['publishDate'], message: 'is not allowed with publish; use schedule' });
    }),
  );
export type PostRequest = z.input<typeof postRequestSchema>;
export type PostRequestParsed = z.output<typeof postRequestSchema>;

/** `POST /post-requests` 201 response. */
export const postRequestResponseSchema = z.looseObject({
  body: z.looseObject({ requestId: z.string() }),
  state: z.string(),
});
export type PostRequestResponse = z.infer<typeof postRequestResponseSchema>;

/** An item of `GET /posts` and `GET /{workspaceId}/posts`. */
export const postSchema = z.looseObject({
  id: z.string(),
  feedId: z.string(),
  header: z.nullable(z.string()),
  text: z.nullable(z.string()),
  imageUrl: z.nullable(z.string()),
  mediaImageUrls: z.array(z.string()),
  ctaLink: z.nullable(z.looseObject({ url: z.string() })),
  button: z.nullable(z.looseObject({ text: z.string(), url: z.string() })),
  author: z.nullable(z.looseObject({ name: z.string() })),
  publishedDate: isoTime,
  claps: z.number(),
  postUrl: z.string(),
});
export type Post = z.infer<typeof postSchema>;
export const postListSchema = listEnvelope(postSchema);
export const postListQuery = listQuery(POSTS_PAGE_CAPS, { orderBy: true });

/** An item of `GET /public-posts` (interface document, "Public post summary"). */
export const publicPostSummarySchema = z.looseObject({
  postId: z.string(),
  postUrl: z.string(),
  postText: z.nullable(z.string()),
  publishedDate: isoTime,
  feedId: z.string(),
  feedName: z.string(),
  feedImageUrl: z.nullable(z.string()),
  claps: z.number(),
  postImage: z.nullable(z.looseObject({ type: z.string(), alt: z.string(), src: z.string() })),
});
export type PublicPostSummary = z.infer<typeof publicPostSummarySchema>;
export const publicPostListSchema = z.array(publicPostSummarySchema);

/** `GET /public-posts` query: `limit` 1..30, default 10 (no `$`). */
export const publicPostsQuery = z.strictObject({
  limit: z._default(z.optional(integerParam(1, 30)), 10).check(z.describe('Number of posts, 1 to 30')),
});
