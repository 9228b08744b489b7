/**
 * The summary and description of every operation of the API reference (`/api/docs`, issue 14 point 9), taken from
 * the contract: the interface document's endpoint list (numbers 1 to 15) and docs/decisions.md. A list endpoint's
 * description is built from the same tables the service checks with, so it cannot drift from them: its filterable
 * fields and their types (src/api/filter/fields.ts), its sortable fields and default order, its page caps
 * (src/api/common.ts, docs/decisions.md section 6) and the `$filter` limits (src/api/filter/parse.ts).
 *
 * `operationDocs` is keyed by `METHOD /api/path` as Fastify registers the route (`GET /api/contacts/:contactId/tags`);
 * the OpenAPI plugin applies it to each API route, and the OpenAPI test checks that every operation has both.
 */
import { DEFAULT_PAGE_CAPS, POSTS_PAGE_CAPS, type PageCaps } from '../../src/api/common';
import {
  type FieldTable,
  collectionFilterFields,
  collectionSortFields,
  contactFilterFields,
  contactSortFields,
  postFilterFields,
  postRequestFilterFields,
  postRequestSortFields,
  postSortFields,
  productFilterFields,
  productSortFields,
  workspaceFilterFields,
  workspaceSortFields,
} from '../../src/api/filter/fields';
import { FILTER_LIMITS } from '../../src/api/filter/parse';
import type { OrderByItem } from '../../src/api/filter/order-by';
import { activityFilterFields, activitySortFields } from '../../src/api/activity';
import { DEFAULT_ACTIVITY_ORDER } from '../db/activity';
import { NEWEST_FIRST } from '../db/catalog';
import { DEFAULT_CONTACT_ORDER } from '../db/contacts';
import { DEFAULT_POST_ORDER, DEFAULT_POST_REQUEST_ORDER } from '../db/posts';
import { DEFAULT_WORKSPACE_ORDER } from '../db/workspaces';

export type OperationDoc = { summary: string; description: string };

/** How values of each field type compare (docs/decisions.md section 6). */
const TYPE_NOTES: Record<string, string> = {
  string: 'text',
  number: 'number',
  boolean: 'true/false',
  date: 'ISO 8601 date-time in quotes, compared as an instant',
  'string-array': 'list: `eq` has, `ne` has not, `in` has any of',
};

const orderText = (order: readonly OrderByItem[]) => order.map((item) => `\`${item.field} ${item.direction}\``).join(', ');

/**
 * The Markdown description of a list endpoint: what it lists, then its filterable fields with their types, its
 * sortable fields (or that `$orderBy` is refused), the default order, the page caps and the filter limits.
 */
export function listDescription(what: string, fields: FieldTable, sortable: readonly string[], defaultOrder: readonly OrderByItem[], caps: PageCaps): string {
  const filterable = Object.entries(fields)
    .map(([field, type]) => `\`${field}\` (${TYPE_NOTES[type] ?? type})`)
    .join(', ');
  const sorting = sortable.length
    ? `**Sortable fields** (\`$orderBy\`, \`field [asc|desc]\`, several separated by commas): ${sortable.map((field) => `\`${field}\``).join(', ')}.`
    : '**Sortable fields**: none; `$orderBy` is refused with a 400 (`property $orderBy should not exist`).';
  const offset = caps.maxOffset === undefined ? '`$offset` from 0 (default 0)' : `\`$offset\` from 0 to ${caps.maxOffset} (default 0)`;
  return [
    what,
    '',
    `**Filterable fields** (\`$filter\`): ${filterable}.`,
    '',
    sorting,
    '',
    `**Default order**: ${orderText(defaultOrder)}, then \`id\` as the tie-breaker.`,
    '',
    `**Caps**: \`$limit\` from 1 to ${caps.maxLimit} (default ${caps.defaultLimit}); ${offset}. A value above a cap is a 400, never clamped. ` +
      `\`meta.maxResults\` is the exact number of matching items. A \`$filter\` holds at most ${FILTER_LIMITS.maxLength.toLocaleString('en-US')} characters, ` +
      `${FILTER_LIMITS.maxComparisons} comparisons, nesting depth ${FILTER_LIMITS.maxDepth} and ${FILTER_LIMITS.maxInValues} values in one \`in\`; ` +
      'an unknown field or a value of the wrong type is a 400.',
  ].join('\n');
}

const postsList = (what: string) => listDescription(what, postFilterFields, postSortFields, DEFAULT_POST_ORDER, POSTS_PAGE_CAPS);

/** Every operation of the interface document, by `METHOD /api/path`. */
export const operationDocs: Readonly<Record<string, OperationDoc>> = {
  'GET /api/authorization': {
    summary: 'Check a key',
    description:
      'Validates the `x-api-key` and returns its workspace (`feed`), organization and `permissions`, one entry per resource the key has ' +
      '(`contacts`, `products`, `posts`, `feeds`: `read-only` or `read-write`, the higher level winning). Needs no particular scope (endpoint 1).',
  },
  'POST /api/contacts': {
    summary: 'Create a contact',
    description:
      'Creates a contact in the key workspace (endpoint 2). Without `addDirectly: true` it starts `pending`. `email` must be a valid address, ' +
      '`phone` E.164 after removing spaces, dashes and brackets, `image` an http(s) URL; tags are trimmed, 1 to 64 characters, at most 100. ' +
      'A second contact with the same email (case-insensitive) or phone is a 409.',
  },
  'GET /api/contacts': {
    summary: 'List contacts (or download them as CSV or xlsx)',
    description: listDescription(
      'The contacts of the key workspace in the list envelope (endpoint 3). With `Accept: text/csv` or the xlsx media type the matching contacts ' +
        'are a download instead (columns id, name, email, phone, state, tags, source, address, city, postalCode, region, created, updated); ' +
        '`$offset`/`$limit` then apply only when given.',
      contactFilterFields,
      contactSortFields,
      DEFAULT_CONTACT_ORDER,
      DEFAULT_PAGE_CAPS,
    ),
  },
  'GET /api/contacts/contacts-tags': {
    summary: 'List contact tags with counts',
    description: 'The tags used in the key workspace as a bare array `[{ "name", "count" }]`, sorted by name, counting contacts per tag (endpoint 4).',
  },
  'PATCH /api/contacts/:contactId/tags': {
    summary: 'Add or remove tags on one contact',
    description:
      'Adds `tagsToAdd` and removes `tagsToRemove` on the contact (endpoint 5); at least one must be non-empty and no tag may be in both. ' +
      'Adding a present tag or removing an absent one changes nothing. Answers 204 with no body; 404 for a contact outside the key workspace.',
  },
  'PATCH /api/contacts/:contactId/notification-settings': {
    summary: 'Update notification settings (activates the contact)',
    description:
      'Turns email and/or SMS notifications on or off and makes the contact `active` (endpoint 6). Uses Basic credentials (access key and secret ' +
      'of the workspace), not an API key, and ignores `X-Api-Version`. Turning on email for a contact without an email (or SMS without a phone) is a 400.',
  },
  'GET /api/products': {
    summary: 'List products',
    description: listDescription(
      'The products of the key workspace in the list envelope (endpoint 7).',
      productFilterFields,
      productSortFields,
      NEWEST_FIRST,
      DEFAULT_PAGE_CAPS,
    ),
  },
  'POST /api/products': {
    summary: 'Create or update a product (upsert)',
    description:
      'Upserts a product (endpoint 8): with `id`, that product is updated (404 when not in the workspace); else with a known `externalId` that ' +
      'product is updated; else a product is created (a `title` is then required). Answers 201 when created, 200 when updated. Fields absent from ' +
      'an update stay as they were; `tags`, `collectionIds` and `customProperties` replace the stored value whole.',
  },
  'GET /api/collections': {
    summary: 'List collections',
    description: listDescription(
      'The collections of the key workspace in the list envelope (endpoint 9).',
      collectionFilterFields,
      collectionSortFields,
      NEWEST_FIRST,
      DEFAULT_PAGE_CAPS,
    ),
  },
  'POST /api/collections': {
    summary: 'Create or update a collection (upsert)',
    description:
      'Upserts a collection (endpoint 10), matched by `id` then `externalId` like products; `title` (1 to 255 characters) is always required. ' +
      'Answers 201 when created, 200 when updated.',
  },
  'POST /api/post-requests': {
    summary: 'Publish, schedule or suggest a post',
    description:
      '`action` decides (endpoint 11): `publish` publishes now, `schedule` publishes at `publishDate` (required, in the future), `suggest` waits ' +
      'for approval in the product app and is never listed here. A post needs at least one of `text`, `header`, `imageUrl`, `mediaImageUrls`; ' +
      'one with `recipients` is private and never appears in the post lists.',
  },
  'GET /api/posts': {
    summary: 'List published posts',
    description: postsList('The published, public posts of the key workspace in the list envelope (endpoint 12).'),
  },
  'GET /api/public-posts': {
    summary: 'List public post summaries',
    description:
      'The latest published public posts of the key workspace as a bare array of summaries (endpoint 13). `limit` (no `$`) from 1 to 30, default 10.',
  },
  'GET /api/:workspaceId/posts': {
    summary: 'List a workspace’s published posts without a key',
    description: postsList(
      'The published, public posts of the workspace named in the path, in the list envelope, for public embeds (endpoint 14). Needs no credential, ' +
        'answers `Access-Control-Allow-Origin: *`, is rate limited per client address, and answers 404 `Workspace not found` for an unknown id.',
    ),
  },
  'GET /api/workspaces': {
    summary: 'List the workspaces of the organization',
    description: listDescription(
      'Every workspace of the key organization in the list envelope (endpoint 15).',
      workspaceFilterFields,
      workspaceSortFields,
      DEFAULT_WORKSPACE_ORDER,
      DEFAULT_PAGE_CAPS,
    ),
  },
  // Our service's extensions (docs/decisions.md sections 9 and 10, issue 22).
  'GET /api/extensions': {
    summary: 'List this service’s extensions',
    description:
      'Answers `{ "extensions": [...] }`: the names of the extensions this service supports (`contact-update`, `contact-erasure`, ' +
      '`post-requests-list`, `post-request-cancel`, `catalog-delete`, `idempotency-key`, `activity`, `stats`, `contact-batch`). Any valid key; a service answering 404 here has none ' +
      '(docs/decisions.md section 10). Every POST and PATCH takes an `Idempotency-Key` header (1 to 255 printable ASCII characters): the same key and body ' +
      'within 24 hours replays the first answer with `Idempotent-Replayed: true`; 409 while the first still runs, 422 with another body (section 9).',
  },
  'PATCH /api/contacts/:contactId': {
    summary: 'Correct a contact (extension contact-update)',
    description:
      'Sets any field of the create request except `tags`, `addDirectly` and `notificationSettings`, with the same checks; `null` clears a field ' +
      '(clearing the email or phone turns that channel off). Answers 200 with the contact as `GET /contacts` lists it; 404 for a contact outside the ' +
      'key workspace; 409 when another contact holds the email or phone. Scope contacts:read-write.',
  },
  'GET /api/stats': {
    summary: 'A workspace’s figures in one request (extension stats)',
    description:
      'Answers the overview’s figures, one section per resource the key can read: `contacts` `{ total, byState: { pending, active }, createdByWeek: ' +
      '[{ weekStart, count }] (the last 12 ISO weeks, Monday, UTC, oldest first, zeros included), topTags: [{ name, count }] (at most 20, by count ' +
      'then name) }` (contacts:read-only), `products` `{ total, byStatus: { active, draft, archived } }` and `collections` `{ total }` ' +
      '(products:read-only), `posts` `{ publishedLast30Days, scheduled, suggested, clapsLast30Days }` (posts:read-only). Counts are exact; contact ' +
      'figures are cached per workspace and data version (docs/decisions.md section 12). Any valid key.',
  },
  'GET /api/contacts/stats': {
    summary: 'Facets of a filtered contact list in one request (extension stats)',
    description:
      'Answers `{ total, byState: { pending, active }, topTags: [{ name, count }] }` (at most 20 tags, by count then name) for the contacts of the key ' +
      'workspace that `$filter` matches (all without it), with the filter grammar and 400 messages of `GET /api/contacts`. Exact, cached per ' +
      'workspace, data version and filter (docs/decisions.md section 12). Scope contacts:read-only.',
  },
  'POST /api/contacts/batch': {
    summary: 'Create up to 1,000 contacts in one request (extension contact-batch)',
    description:
      'Takes `{ "items": [...] }`, 1 to 1,000 bodies of `POST /api/contacts`, and creates each on its own, in order, as that endpoint would: one ' +
      'item’s failure does not undo another, and a repeated email within the batch is a 409 for the later item. Answers 200 `{ "results": [{ index, ' +
      'status, id?, error? }] }`, `status` 201, 400 or 409 and `error` the error body. More than 1,000 items, or no `items`: 400. One request ' +
      'against the rate limit; `Idempotency-Key` replays the whole batch (docs/decisions.md section 12). Scope contacts:read-write.',
  },
  'POST /api/contacts/tags': {
    summary: 'Edit the tags of every matching contact in one request (extension contact-batch)',
    description:
      'Takes `{ filter?, ids?, tagsToAdd?, tagsToRemove? }`: exactly one of `filter` (a `$filter`) and `ids` (1 to 1,000), and the tag rules of ' +
      '`PATCH /api/contacts/{contactId}/tags`. Edits every matching contact of the key workspace, each in its own short transaction (no other writer ' +
      'waits for the whole set), and answers 200 `{ matched, changed, batchId }`: unknown ids are not matched; `batchId` is the `Activity-Batch` ' +
      'header or a fresh id (docs/decisions.md section 12). Scope contacts:read-write.',
  },
  'DELETE /api/contacts/:contactId': {
    summary: 'Erase a contact (extension contact-erasure)',
    description:
      'Erases the person, finally, in one transaction: the contact, its tag rows, its search-index rows, its id in post recipients and every kept ' +
      'Idempotency-Key answer holding its data. On SQLite the bytes are overwritten (`secure_delete`) and the WAL truncated before the answer; on ' +
      'PostgreSQL the rows are gone from every query at once and from the files at the next vacuum. Answers 204; 404 for an unknown id. Scope contacts:read-write.',
  },
  'GET /api/post-requests': {
    summary: 'List post requests in every state (extension post-requests-list)',
    description: listDescription(
      'The post requests of the key workspace, private ones included, in the list envelope: `{ requestId, state, action, header, text, imageUrl, ' +
        'publishDate, created }`, `state` `published`, `scheduled` or `suggested` as of now (a scheduled post whose time has come is `published`). ' +
        'Scope posts:read-only.',
      postRequestFilterFields,
      postRequestSortFields,
      DEFAULT_POST_REQUEST_ORDER,
      DEFAULT_PAGE_CAPS,
    ),
  },
  'DELETE /api/post-requests/:requestId': {
    summary: 'Withdraw a scheduled or suggested post (extension post-request-cancel)',
    description:
      'Withdraws the post so it is never published. Answers 204; 409 `Post request <id> is already published` for a published one (a scheduled ' +
      'post whose time has come counts as published); 404 for an unknown id. Scope posts:read-write.',
  },
  'DELETE /api/products/:id': {
    summary: 'Delete a product (extension catalog-delete)',
    description: 'Deletes the product and removes it from its collections. Answers 204; 404 for a product outside the key workspace. Scope products:read-write.',
  },
  'GET /api/activity': {
    summary: 'List the activity log (extension activity)',
    description: listDescription(
      'One entry per record each write through the API changed, in the list envelope: `{ activityId, created, resource, resourceId, action, changes, ' +
        'keyHint, source, batchId, requestId, idempotencyKey, revertOf }`. `changes` maps each changed field to `[before, after]` (`tags` to ' +
        '`[added, removed]`; null once the person was erased); `keyHint` is `…` and the last four characters of the key that wrote; `source` and ' +
        '`batchId` come from the `Activity-Source` and `Activity-Batch` request headers of the write. A key sees the entries of the resources it can ' +
        'read (docs/decisions.md section 11); `$orderBy` is `created desc` (default) or `created asc`, ties in the order of writing.',
      activityFilterFields,
      activitySortFields,
      DEFAULT_ACTIVITY_ORDER,
      DEFAULT_PAGE_CAPS,
    ),
  },
  'POST /api/activity/revert': {
    summary: 'Revert an entry or a whole batch (extension activity)',
    description:
      'Body `{ "activityId": "..." }` or `{ "batchId": "..." }` (exactly one). Undoes each entry, newest first, by a new write recorded as `revert` ' +
      '(a create deletes the record, an update restores the before values, tags and consent are put back) and answers 200 `{ reverted, conflicts: ' +
      '[{ activityId, resourceId, reason }], batchId }`, `batchId` being the revert\'s own. An entry is left as it was and named in `conflicts` when a ' +
      'later write of another batch changed the same field (`changed-since`), the record is gone (`gone`), a post is already published ' +
      '(`published`), it is an erase, delete, withdraw or revert (`not-revertible`), or it was reverted before (`already-reverted`). 403 without ' +
      'read-write on every resource involved; 404 for an unknown entry or an empty batch (docs/decisions.md section 11).',
  },
  'GET /api/events': {
    summary: 'Stream the workspace\'s changes (extension events)',
    description:
      'A Server-Sent Events stream (`text/event-stream`) of the committed writes of the key workspace to the resources the key can read (contacts and ' +
      'shared views with contacts:read-only, products and collections with products:read-only, post requests with posts:read-only). Within 1 s of ' +
      'each write: `event: change`, `id:` the activity log\'s growing sequence number, `data: { "resource", "ids", "action" }` (`ids` at most 100, ' +
      '`null` beyond: load the list again); changes less than 250 ms apart are merged. A `: keepalive` comment every 25 s. Without `Last-Event-ID` ' +
      'the stream starts with `event: reset` whose `id` is the position to resume from; with it, what was missed is replayed from the activity log, ' +
      'or `event: reset` is sent when that is not possible (an unknown or pruned position, more than 1,000 entries). Opening counts as one request; ' +
      'a key holds at most 5 streams over every process, the 6th is a 429. Streams end when the server shuts down (docs/decisions.md section 13).',
  },
  'GET /api/views': {
    summary: 'List the shared views (extension shared-views)',
    description:
      'Every shared view of the key workspace, by name ignoring case, in the list envelope: `{ viewId, name, resource: "contacts", query: { filter, ' +
      'orderBy, columns, pageSize }, keyHint, created, updated }`. Every key of the workspace sees the same views. Scope contacts:read-only ' +
      '(docs/decisions.md section 13).',
  },
  'POST /api/views': {
    summary: 'Share a view with the workspace (extension shared-views)',
    description:
      'Body `{ name, resource?: "contacts", query: { filter?, orderBy?, columns?, pageSize? } }`: `name` trimmed, 1 to 100 characters, unique in ' +
      'the workspace ignoring case (409 otherwise); `query.filter` a `$filter` and `query.orderBy` an `$orderBy` of `GET /contacts` (400 otherwise); ' +
      '`columns` at most 50 field names; `pageSize` 1 to 100 (default 20). Answers 201 with the view, `keyHint` naming the key that made it; a ' +
      'workspace holds at most 200 views. Recorded in the activity log (`resource: "view"`) and sent as an event. Scope contacts:read-write.',
  },
  'PUT /api/views/:viewId': {
    summary: 'Replace a shared view (extension shared-views)',
    description:
      'The body and checks of `POST /api/views`; the whole view is replaced (its maker and `created` stay). Any read-write key of the workspace ' +
      'may change any view. Answers 200 with the view; 404 `View not found`; 409 for a name another view has. Scope contacts:read-write.',
  },
  'DELETE /api/views/:viewId': {
    summary: 'Delete a shared view (extension shared-views)',
    description: 'Deletes the view for every key of the workspace. Answers 204; 404 `View not found`. Scope contacts:read-write.',
  },
  'DELETE /api/collections/:id': {
    summary: 'Delete a collection (extension catalog-delete)',
    description: 'Deletes the collection and removes it from every product. Answers 204; 404 for a collection outside the key workspace. Scope products:read-write.',
  },
};
