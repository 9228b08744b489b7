/**
 * Our service's extensions (docs/decisions.md sections 9 and 10, issue 22): what the interface document cannot do,
 * offered where `GET /extensions` names it. Shapes of `GET /extensions`, `PATCH /contacts/{contactId}` and
 * `GET /post-requests`; the other extension routes (`DELETE /contacts/{id}`, `/post-requests/{id}`,
 * `/products/{id}`, `/collections/{id}`) take no body and answer 204. Requests are strict, responses loose.
 */
import * as z from 'zod/mini';
import { DEFAULT_PAGE_CAPS, isoTime, listEnvelope, listQuery } from './common';
import { contactCreateSchema } from './contacts';
import { POST_ACTIONS, POST_STATES } from './posts';

/**
 * Every extension name this project knows (docs/decisions.md section 10; `activity`: section 11; `stats`,
 * `contact-batch`: section 12; `events`, `shared-views`: section 13).
 */
export const EXTENSION_NAMES = ['contact-update', 'contact-erasure', 'post-requests-list', 'post-request-cancel', 'catalog-delete', 'idempotency-key', 'activity', 'stats', 'contact-batch', 'events', 'shared-views'] as const;
export type ExtensionName = (typeof EXTENSION_NAMES)[number];

/** `GET /extensions` 200: `{ extensions: [...] }`; unknown names (a newer service) are kept. */
export const extensionsSchema = z.looseObject({ extensions: z.array(z.string()) });
export type Extensions = z.infer<typeof extensionsSchema>;

/** The create request's fields a correction may change (docs/decisions.md section 10: all but tags, addDirectly, notificationSettings). */
export const CONTACT_PATCH_FIELDS = [
  'name', 'phone', 'email', 'source', 'systemSource', 'statusTags', 'follows', 'bio', 'image', 'address', 'city', 'postalCode', 'region', 'customMessage',
] as const;
export type ContactPatchField = (typeof CONTACT_PATCH_FIELDS)[number];

const createShape = contactCreateSchema.shape;
/** A create field's schema that also takes `null` (which clears the field). */
const clearable = <T extends z.ZodMiniType>(schema: T) => z.optional(z.nullable(schema));

/**
 * `PATCH /contacts/{contactId}` body: any of `CONTACT_PATCH_FIELDS` with the create request's checks, `null`
 * clearing one; at least one field; an unknown field (tags, addDirectly, notificationSettings, useEmailByDefault
 * included: the first three have their own endpoints, the last is a create-time default only) is a 400.
 */
export const contactPatchSchema = z
  .strictObject({
    name: clearable(createShape.name),
    phone: clearable(createShape.phone),
    email: clearable(createShape.email),
    source: clearable(createShape.source),
    systemSource: clearable(createShape.systemSource),
    statusTags: clearable(createShape.statusTags),
    follows: clearable(createShape.follows),
    bio: clearable(createShape.bio),
    image: clearable(createShape.image),
    address: clearable(createShape.address),
    city: clearable(createShape.city),
    postalCode: clearable(createShape.postalCode),
    region: clearable(createShape.region),
    customMessage: clearable(createShape.customMessage),
  })
  .check(z.refine((body) => Object.keys(body).length > 0, { error: `needs at least one of ${CONTACT_PATCH_FIELDS.join(', ')}` }));
export type ContactPatch = z.input<typeof contactPatchSchema>;
export type ContactPatchParsed = z.output<typeof contactPatchSchema>;

/** An item of `GET /post-requests` (docs/decisions.md section 10): a post request in any state. */
export const postRequestItemSchema = z.looseObject({
  requestId: z.string(),
  state: z.string(),
  action: z.string(),
  header: z.nullable(z.string()),
  text: z.nullable(z.string()),
  imageUrl: z.nullable(z.string()),
  publishDate: z.nullable(isoTime),
  created: isoTime,
});
export type PostRequestItem = z.infer<typeof postRequestItemSchema>;
export const postRequestListSchema = listEnvelope(postRequestItemSchema);
/** `GET /post-requests` query: `$limit` at most 100 (default 20), `$filter`, `$orderBy`. */
export const postRequestListQuery = listQuery(DEFAULT_PAGE_CAPS, { orderBy: true });

/** The states and actions a post request item can have, for filters built by the console. */
export const POST_REQUEST_STATES = POST_STATES;
export const POST_REQUEST_ACTIONS = POST_ACTIONS;
