/**
 * The typed client of the workspace content and contacts service (issue 4): one method per endpoint of the
 * interface document (all 15) plus the contacts spreadsheet download. It is the one road to the server
 * (docs/style.md): it alone knows URLs, headers, `$`-parameters, the version header, error bodies and downloads.
 *
 * Every JSON answer is parsed with the contract's zod schema (loose objects: unknown fields are kept); every
 * failure is an `ApiError` (api-error.ts); an abort through a caller's `AbortSignal` rejects with the AbortError.
 * Framework-free: runs in the browser and in Node 20 (global `fetch`, `Blob`, `btoa`, `TextEncoder`).
 */
import * as z from 'zod/mini';
import { ApiResponseError, isApiError } from './api-error';
import { excerpt } from './api-error-response';
import { type Authorization, authorizationSchema } from './authorization';
import {
  type CollectionUpsert,
  type ProductUpsert,
  type UpsertResponse,
  collectionListSchema,
  productListSchema,
  upsertResponseSchema,
} from './catalog';
import { listEnvelope } from './common';
import {
  CSV_MEDIA_TYPE,
  type ContactCreate,
  type ContactCreateResponse,
  type ContactTag,
  type ContactTagsPatch,
  type NotificationSettingsPatch,
  XLSX_MEDIA_TYPE,
  contactCreateResponseSchema,
  contactListSchema,
  contactSchema,
  type Contact,
  contactTagListSchema,
  contactTagSchema,
  notificationSettingsResponseSchema,
} from './contacts';
import { type ContactPatch, type PostRequestItem, extensionsSchema, postRequestListSchema } from './extensions';
import type { ActivityList, RevertRequest, RevertResult } from './activity';
import type { ContactBatch, ContactBatchResponse, ContactBulkTags, ContactBulkTagsResponse, ContactStats, Stats } from './stats';
import type { FilterNode } from './filter/ast';
import type { StreamEvent } from './event-stream';
import type { SharedView, SharedViewList, ViewInput } from './live';
import type { DownloadFormat, DownloadProgress, DownloadResult } from './download';
import {
  type PostRequest,
  type PostRequestResponse,
  type PublicPostSummary,
  postListSchema,
  postRequestResponseSchema,
  publicPostListSchema,
} from './posts';
import { type ListCallParams, type UnsortedListCallParams, buildQueryString, filterText } from './query-string';
import type { RequestPriority } from './budget-skipped';
import { listWorkspacePosts } from './public-posts';
import { type ApiClientOptions, type Call, type CallOptions, createTransport, networkOrAbort, perCall, readText } from './transport';
import { pathSegment } from './url';

export type { ApiClientOptions, BasicCredentials, CallOptions } from './transport';
import { workspaceListSchema } from './workspaces';

/** `GET /contacts` answer: `{ items: Contact[], meta: { maxResults } }`. */
export type ContactList = z.infer<typeof contactListSchema>;
/** `GET /products` answer. */
export type ProductList = z.infer<typeof productListSchema>;
/** `GET /collections` answer. */
export type CollectionList = z.infer<typeof collectionListSchema>;
/** `GET /posts` and `GET /{workspaceId}/posts` answer. */
export type PostList = z.infer<typeof postListSchema>;
/** `GET /workspaces` answer. */
export type WorkspaceList = z.infer<typeof workspaceListSchema>;
/** `GET /post-requests` answer (our extension, docs/decisions.md section 10). */
export type PostRequestList = { items: PostRequestItem[]; meta: { maxResults: number } };
/** `PATCH /contacts/{contactId}/notification-settings` answer: `{ id, feedId, name, email, phone, image, state }`. */
export type NotificationSettingsResponse = z.infer<typeof notificationSettingsResponseSchema>;
/** An upsert's answer `{ id }` plus `created`: true for 201 (a record was created), false for 200 (updated) (docs/decisions.md section 2). */
export type UpsertResult = UpsertResponse & { created: boolean };

/** Options of `listPublicPosts`: `limit` 1..30, default 10 on the service (interface document, endpoint 13). */
export type PublicPostsParams = { limit?: number; signal?: AbortSignal; priority?: RequestPriority };

/**
 * Options of `downloadContacts`: the list parameters of `GET /contacts` (`$offset`/`$limit` only when given,
 * otherwise every matching contact is exported), the format, and `onProgress`, called as chunks arrive.
 */
export type DownloadContactsOptions = ListCallParams & {
  format: DownloadFormat;
  onProgress?: (progress: DownloadProgress) => void;
  /**
   * The ticket of an earlier 503 of the export queue (`ApiError.exportQueue.ticket`), sent as `Export-Ticket` so
   * the retry keeps its place (our service's extension, issue 21 point 2; docs/exports.md).
   */
  exportTicket?: string;
  /**
   * xlsx only: the language of the sheet's header row (`en`, `nb`), sent as `Export-Language`; the service then
   * writes people's words, real dates, widths and a frozen header row (our service's extension, docs/exports.md).
   */
  language?: string;
};

/**
 * The typed client. Every method rejects with:
 * - `ApiError` for a non-2xx answer (`status`, `body`, `traceId`, `retryAfter`, `message`; docs/decisions.md section 3);
 *   `isAuthError` is true for 401 and 403;
 * - `ApiNetworkError` (status 0) when no answer arrived;
 * - `ApiResponseError` when a 2xx answer is not JSON or fails the endpoint's schema;
 * - the AbortError when the call's `signal` aborts;
 * - `RangeError` before sending for a path parameter that is `''`, `.` or `..`, or a filter/orderBy tree that
 *   cannot be printed.
 * List methods send `$offset`, `$limit`, `$filter`, `$orderBy` only when given (see `ListCallParams`).
 */
export type ApiClient = {
  /** Endpoint 1, `GET /authorization`: the key's workspace (`feed`), organization and permissions. 401 for a bad key. */
  authorization(options?: CallOptions): Promise<Authorization>;
  /** Endpoint 2, `POST /contacts` (scope feeds:read-write): 201 `{ id, state, name, email, phone, image }`. 400 invalid, 409 duplicate email or phone. */
  createContact(body: ContactCreate, options?: CallOptions): Promise<ContactCreateResponse>;
  /** Endpoint 3, `GET /contacts` (contacts:read-only): the list envelope. 400 for a bad `$filter`/`$orderBy`/cap. */
  listContacts(params?: ListCallParams): Promise<ContactList>;
  /**
   * Endpoint 4, `GET /contacts/contacts-tags` (contacts:read-only): `[{ name, count }]` sorted by name. A list
   * envelope `{ items, meta }` (as some hosted services answer) is accepted too; its `items` are returned.
   */
  listContactTags(options?: CallOptions): Promise<ContactTag[]>;
  /** Endpoint 5, `PATCH /contacts/{contactId}/tags` (contacts:read-write): 204, resolves to undefined. 400 empty or overlapping lists, 404 unknown contact. */
  patchContactTags(contactId: string, body: ContactTagsPatch, options?: CallOptions): Promise<void>;
  /**
   * Endpoint 6, `PATCH /contacts/{contactId}/notification-settings`: sent with the client's `basic` credentials
   * as `Authorization: Basic`, no `x-api-key` and no `X-Api-Version` (interface document, Versioning rule 3).
   * Activates the contact and answers it. 401 for wrong credentials, 404 for a contact of another workspace.
   * @throws TypeError before sending when the client has no `basic` credentials.
   */
  patchNotificationSettings(contactId: string, body: NotificationSettingsPatch, options?: CallOptions): Promise<NotificationSettingsResponse>;
  /** Endpoint 7, `GET /products` (products:read-only): the list envelope. No `$orderBy` on this endpoint. */
  listProducts(params?: UnsortedListCallParams): Promise<ProductList>;
  /** Endpoint 8, `POST /products` (products:read-write): `{ id, created }`. 400 invalid (a create without `title`), 404 unknown `id`, 409 taken `handle`. */
  upsertProduct(body: ProductUpsert, options?: CallOptions): Promise<UpsertResult>;
  /** Endpoint 9, `GET /collections` (products:read-only): the list envelope. No `$orderBy` on this endpoint. */
  listCollections(params?: UnsortedListCallParams): Promise<CollectionList>;
  /** Endpoint 10, `POST /collections` (products:read-write): `{ id, created }`. 400 without `title`, 404 unknown `id`. */
  upsertCollection(body: CollectionUpsert, options?: CallOptions): Promise<UpsertResult>;
  /** Endpoint 11, `POST /post-requests` (posts:read-write): 201 `{ body: { requestId }, state }`, state `published`, `scheduled` or `suggested`. */
  createPostRequest(body: PostRequest, options?: CallOptions): Promise<PostRequestResponse>;
  /** Endpoint 12, `GET /posts` (posts:read-only): published public posts. `$limit` at most 30, `$offset` at most 100 (`POSTS_PAGE_CAPS`). */
  listPosts(params?: ListCallParams): Promise<PostList>;
  /** Endpoint 13, `GET /public-posts` (posts:read-only): a bare array of summaries; `limit` (no `$`) 1..30, default 10. */
  listPublicPosts(params?: PublicPostsParams): Promise<PublicPostSummary[]>;
  /** Endpoint 14, `GET /{workspaceId}/posts`: no credential at all (the version header only). 404 `Workspace not found`. Caps as `listPosts`. */
  listWorkspacePosts(workspaceId: string, params?: ListCallParams): Promise<PostList>;
  /** Endpoint 15, `GET /workspaces` (feeds:read-only): the organization's workspaces, default order `name asc`. */
  listWorkspaces(params?: ListCallParams): Promise<WorkspaceList>;
  /**
   * Endpoint 3 as a spreadsheet: `GET /contacts` with `Accept: text/csv` or the xlsx media type, the body streamed
   * with `onProgress({ receivedBytes, totalBytes, chunk })` after each chunk. Resolves to `{ blob, filename, bytes }`;
   * `filename` comes from `Content-Disposition` (`contacts-YYYY-MM-DD.csv`), else `contacts.<format>`.
   * Non-2xx is an `ApiError`; a JSON answer (a service that ignored `Accept`) is an `ApiResponseError`.
   */
  downloadContacts(options: DownloadContactsOptions): Promise<DownloadResult>;

  // Our service's extensions (docs/decisions.md section 10); a hosted service may have none of them: ask `extensions` first.
  /**
   * `GET /extensions` (any valid key): the names of the extensions the service has (`contact-update`, ...).
   * Resolves to `[]` when the service answers 404 (it has none); other failures reject as usual.
   */
  extensions(options?: CallOptions): Promise<string[]>;
  /**
   * `PATCH /contacts/{contactId}` (contacts:read-write, `contact-update`): corrects fields, `null` clearing one;
   * resolves to the contact as listed. 400 invalid, 404 unknown contact, 409 another contact's email or phone.
   */
  updateContact(contactId: string, body: ContactPatch, options?: CallOptions): Promise<Contact>;
  /** `DELETE /contacts/{contactId}` (contacts:read-write, `contact-erasure`): erases the person; 204. 404 unknown contact. */
  eraseContact(contactId: string, options?: CallOptions): Promise<void>;
  /** `GET /post-requests` (posts:read-only, `post-requests-list`): post requests in every state; `$limit` at most 100. */
  listPostRequests(params?: ListCallParams): Promise<PostRequestList>;
  /** `DELETE /post-requests/{requestId}` (posts:read-write, `post-request-cancel`): withdraws it; 409 already published, 404 unknown. */
  withdrawPostRequest(requestId: string, options?: CallOptions): Promise<void>;
  /** `DELETE /products/{id}` (products:read-write, `catalog-delete`): 204; the product leaves its collections. 404 unknown. */
  deleteProduct(id: string, options?: CallOptions): Promise<void>;
  /** `DELETE /collections/{id}` (products:read-write, `catalog-delete`): 204; the collection leaves its products. 404 unknown. */
  deleteCollection(id: string, options?: CallOptions): Promise<void>;
  /**
   * `GET /activity` (any key; entries of the resources it can read; extension `activity`, docs/decisions.md section 11):
   * the list envelope of entries; `$orderBy` `created desc` (default) or `created asc`; `$limit` at most 100.
   */
  listActivity(params?: ListCallParams): Promise<ActivityList>;
  /**
   * `POST /activity/revert` (read-write on every resource involved; extension `activity`): undoes one entry or a whole
   * batch; resolves to `{ reverted, conflicts, batchId }`. 403 missing scope, 404 unknown entry or empty batch.
   */
  revertActivity(body: RevertRequest, options?: CallOptions): Promise<RevertResult>;
  /**
   * `GET /stats` (any valid key; extension `stats`, docs/decisions.md section 12): the workspace's figures in one
   * request, a section per resource the key can read: `{ contacts?: { total, byState, createdByWeek, topTags },
   * products?: { total, byStatus }, collections?: { total }, posts?: { publishedLast30Days, scheduled, suggested,
   * clapsLast30Days } }`. 404 on a service without the extension.
   */
  stats(options?: CallOptions): Promise<Stats>;
  /**
   * `GET /contacts/stats?$filter=...` (contacts:read-only; extension `stats`, docs/decisions.md section 12):
   * `{ total, byState: { pending, active }, topTags }` over the contacts `filter` matches (every contact without
   * one). 400 for a bad `$filter` (docs/decisions.md section 6); `RangeError` before sending for a tree that cannot be printed.
   */
  contactStats(params?: { filter?: FilterNode | string } & CallOptions): Promise<ContactStats>;
  /**
   * `POST /contacts/batch` (contacts:read-write; extension `contact-batch`, docs/decisions.md section 12): 1 to
   * 1,000 create bodies, each created or refused on its own, in order; resolves to `{ results: [{ index, status,
   * id?, error? }] }` (201, 400 or 409 per item, with section 3's error body when refused). 400 for a body that is
   * not `{ items }` or holds more than 1,000. Takes `Idempotency-Key` (a repeat answers the first answer again).
   */
  createContactsBatch(body: ContactBatch, options?: CallOptions): Promise<ContactBatchResponse>;
  /**
   * `POST /contacts/tags` (contacts:read-write; extension `contact-batch`, docs/decisions.md section 12): adds and
   * removes tags on every contact a `filter` matches, or on up to 1,000 `ids`, in one request; resolves to
   * `{ matched, changed, batchId }`. 400 for a bad filter, both or neither of `filter` and `ids`, or bad tag lists.
   */
  tagContacts(body: ContactBulkTags, options?: CallOptions): Promise<ContactBulkTagsResponse>;
  /**
   * `GET /events` (any key; extension `events`, docs/decisions.md section 13): opens the workspace's change stream and
   * calls `onEvent` for each event (`change` with `{ resource, ids, action }`, `ids` null past 100; `reset`: reload
   * what is shown; each with the `id` to resume from). `lastEventId` is sent as `Last-Event-ID` to be told what was
   * missed. Resolves once the stream is open, to `{ done }`, which settles when the server ends it (resolves) or it
   * breaks (rejects with an `ApiNetworkError`); abort through `signal` to close it (`done` then rejects with the
   * AbortError). Opening costs one request of the budget; 429 when the key holds 5 streams already.
   */
  streamEvents(options: StreamEventsOptions): Promise<{ done: Promise<void> }>;
  /** `GET /views` (contacts:read-only; extension `shared-views`): every shared view of the workspace, by name. */
  listViews(options?: CallOptions): Promise<SharedViewList>;
  /** `POST /views` (contacts:read-write): shares a view; 201 with it. 400 bad filter or order, 409 name taken (ignoring case). */
  createView(body: ViewInput, options?: CallOptions): Promise<SharedView>;
  /** `PUT /views/{viewId}` (contacts:read-write): replaces a view; 404 unknown, 409 name taken. */
  replaceView(viewId: string, body: ViewInput, options?: CallOptions): Promise<SharedView>;
  /** `DELETE /views/{viewId}` (contacts:read-write): deletes it for the whole workspace; 204. 404 unknown. */
  deleteView(viewId: string, options?: CallOptions): Promise<void>;
};

/**
 * Options of `streamEvents`: `onEvent` for each event, `lastEventId` to resume after, `onRetry` hears the server's
 * reconnection delay (ms), `signal` closes the stream, `priority` its place in the budget (default `person`).
 */
export type StreamEventsOptions = {
  onEvent: (event: StreamEvent) => void;
  lastEventId?: string;
  onRetry?: (ms: number) => void;
  signal?: AbortSignal;
  priority?: RequestPriority;
};

/**
 * Creates the typed client (see `ApiClient` for each method, its endpoint, scope and errors). Requests carry
 * `Accept`, `x-api-key` (keyed endpoints), `X-Api-Version` (all but endpoint 6) and, with a body,
 * `Content-Type: application/json`, and go past the browser's HTTP cache (`cache: 'no-store'`), with no cookies
 * (`credentials: 'omit'`) and no Referer. Nothing is sent until
 * a method is called.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const { send, json, noContent, listCall } = createTransport(options);

  const tagsAnswer = z.union([contactTagListSchema, listEnvelope(contactTagSchema)]);

  return {
    async authorization(opts = {}) {
      return (await json({ method: 'GET', endpoint: 'GET /authorization', path: '/authorization', auth: 'key', ...perCall(opts) }, authorizationSchema)).data;
    },

    async createContact(body, opts = {}) {
      return (await json({ method: 'POST', endpoint: 'POST /contacts', path: '/contacts', auth: 'key', body, ...perCall(opts) }, contactCreateResponseSchema)).data;
    },

    async listContacts(params = {}) {
      return (await json(listCall('GET /contacts', '/contacts', 'key', params), contactListSchema)).data;
    },

    async listContactTags(opts = {}) {
      const request: Call = { method: 'GET', endpoint: 'GET /contacts/contacts-tags', path: '/contacts/contacts-tags', auth: 'key', ...perCall(opts) };
      const { data } = await json(request, tagsAnswer);
      return Array.isArray(data) ? data : data.items;
    },

    async patchContactTags(contactId, body, opts = {}) {
      const { response } = await send({
        method: 'PATCH',
        endpoint: 'PATCH /contacts/{contactId}/tags',
        path: `/contacts/${pathSegment(contactId)}/tags`,
        auth: 'key',
        body,
        ...perCall(opts),
      });
      await response.body?.cancel().catch(() => undefined); // 204: nothing to read; release the connection
    },

    async patchNotificationSettings(contactId, body, opts = {}) {
      const request: Call = {
        method: 'PATCH',
        endpoint: 'PATCH /contacts/{contactId}/notification-settings',
        path: `/contacts/${pathSegment(contactId)}/notification-settings`,
        auth: 'basic',
        body,
        ...perCall(opts),
      };
      return (await json(request, notificationSettingsResponseSchema)).data;
    },

    async listProducts(params = {}) {
      return (await json(listCall('GET /products', '/products', 'key', params), productListSchema)).data;
    },

    async upsertProduct(body, opts = {}) {
      const { data, status } = await json({ method: 'POST', endpoint: 'POST /products', path: '/products', auth: 'key', body, ...perCall(opts) }, upsertResponseSchema);
      return { ...data, created: status === 201 };
    },

    async listCollections(params = {}) {
      return (await json(listCall('GET /collections', '/collections', 'key', params), collectionListSchema)).data;
    },

    async upsertCollection(body, opts = {}) {
      const request: Call = { method: 'POST', endpoint: 'POST /collections', path: '/collections', auth: 'key', body, ...perCall(opts) };
      const { data, status } = await json(request, upsertResponseSchema);
      return { ...data, created: status === 201 };
    },

    async createPostRequest(body, opts = {}) {
      const request: Call = { method: 'POST', endpoint: 'POST /post-requests', path: '/post-requests', auth: 'key', body, ...perCall(opts) };
      return (await json(request, postRequestResponseSchema)).data;
    },

    async listPosts(params = {}) {
      return (await json(listCall('GET /posts', '/posts', 'key', params), postListSchema)).data;
    },

    async listPublicPosts(params = {}) {
      const request: Call = {
        method: 'GET',
        endpoint: 'GET /public-posts',
        path: '/public-posts',
        query: buildQueryString({ limit: params.limit }),
        auth: 'key',
        signal: params.signal,
        priority: params.priority,
      };
      return (await json(request, publicPostListSchema)).data;
    },

    listWorkspacePosts: (workspaceId, params = {}) => listWorkspacePosts({ json, listCall }, workspaceId, params),

    async listWorkspaces(params = {}) {
      return (await json(listCall('GET /workspaces', '/workspaces', 'key', params), workspaceListSchema)).data;
    },

    async downloadContacts(download) {
      const { format, onProgress, signal } = download;
      const accept = format === 'csv' ? CSV_MEDIA_TYPE : XLSX_MEDIA_TYPE;
      const call: Call = { ...listCall('GET /contacts', '/contacts', 'key', download), accept };
      if (download.exportTicket) call.headers = { 'Export-Ticket': download.exportTicket };
      // The xlsx in people's words (issue 34 point 10; docs/exports.md): a service without the extension ignores it.
      if (format === 'xlsx' && download.language) call.headers = { ...call.headers, 'Export-Language': download.language };
      const { response, url } = await send(call);
      const type = response.headers.get('content-type') ?? '';
      if (/json/i.test(type)) {
        const text = await readText(response, call, url);
        throw new ApiResponseError({
          status: response.status,
          message: `${call.endpoint} answered ${type} instead of a ${format} download (Accept: ${accept} was ignored): ${excerpt(text)}`,
          traceId: response.headers.get('x-trace-id'),
          endpoint: call.endpoint,
          url,
        });
      }
      // The body reader loads with the first download (off the first screens' budgets, docs/bundle.md).
      const { filenameFromContentDisposition, readBody } = await import('./download');
      let body: Awaited<ReturnType<typeof readBody>>;
      try {
        body = await readBody(response, { onProgress, signal });
      } catch (error) {
        throw networkOrAbort(error, call, url);
      }
      const { chunks, bytes } = body;
      return {
        blob: new Blob(chunks, { type: type || accept }),
        filename: filenameFromContentDisposition(response.headers.get('content-disposition')) ?? `contacts.${format}`,
        bytes,
      };
    },

    async extensions(opts = {}) {
      try {
        return (await json({ method: 'GET', endpoint: 'GET /extensions', path: '/extensions', auth: 'key', ...perCall(opts) }, extensionsSchema)).data.extensions;
      } catch (error) {
        if (isApiError(error) && error.status === 404) return [];
        throw error;
      }
    },

    async updateContact(contactId, body, opts = {}) {
      const request: Call = {
        method: 'PATCH',
        endpoint: 'PATCH /contacts/{contactId}',
        path: `/contacts/${pathSegment(contactId)}`,
        auth: 'key',
        body,
        ...perCall(opts),
      };
      return (await json(request, contactSchema)).data;
    },

    async eraseContact(contactId, opts = {}) {
      await noContent({ method: 'DELETE', endpoint: 'DELETE /contacts/{contactId}', path: `/contacts/${pathSegment(contactId)}`, auth: 'key', ...perCall(opts) });
    },

    async listPostRequests(params = {}) {
      return (await json(listCall('GET /post-requests', '/post-requests', 'key', params), postRequestListSchema)).data;
    },

    async withdrawPostRequest(requestId, opts = {}) {
      await noContent({ method: 'DELETE', endpoint: 'DELETE /post-requests/{requestId}', path: `/post-requests/${pathSegment(requestId)}`, auth: 'key', ...perCall(opts) });
    },

    async deleteProduct(id, opts = {}) {
      await noContent({ method: 'DELETE', endpoint: 'DELETE /products/{id}', path: `/products/${pathSegment(id)}`, auth: 'key', ...perCall(opts) });
    },

    async deleteCollection(id, opts = {}) {
      await noContent({ method: 'DELETE', endpoint: 'DELETE /collections/{id}', path: `/collections/${pathSegment(id)}`, auth: 'key', ...perCall(opts) });
    },

    // The activity log's schemas load with its first call (one import for both): the first screens never use them.
    async listActivity(params = {}) {
      return (await json(listCall('GET /activity', '/activity', 'key', params), (await activitySchemas()).activityListSchema)).data;
    },

    async revertActivity(body, opts = {}) {
      return (await json({ method: 'POST', endpoint: 'POST /activity/revert', path: '/activity/revert', auth: 'key', body, ...perCall(opts) }, (await activitySchemas()).revertResultSchema)).data;
    },

    // Section 12's schemas load with the first call of one of these, as the activity log's.
    async stats(opts = {}) {
      return (await json({ method: 'GET', endpoint: 'GET /stats', path: '/stats', auth: 'key', ...perCall(opts) }, (await statsSchemas()).statsSchema)).data;
    },

    async contactStats(params = {}) {
      const { filter, ...opts } = params;
      const request: Call = { method: 'GET', endpoint: 'GET /contacts/stats', path: '/contacts/stats', query: buildQueryString({ $filter: filterText(filter) }), auth: 'key', ...perCall(opts) };
      return (await json(request, (await statsSchemas()).contactStatsSchema)).data;
    },

    async createContactsBatch(body, opts = {}) {
      return (await json({ method: 'POST', endpoint: 'POST /contacts/batch', path: '/contacts/batch', auth: 'key', body, ...perCall(opts) }, (await statsSchemas()).contactBatchResponseSchema)).data;
    },

    async tagContacts(body, opts = {}) {
      return (await json({ method: 'POST', endpoint: 'POST /contacts/tags', path: '/contacts/tags', auth: 'key', body, ...perCall(opts) }, (await statsSchemas()).contactBulkTagsResponseSchema)).data;
    },

    // Live changes and shared views load their code with their first call (docs/decisions.md section 13).
    async streamEvents({ onEvent, lastEventId, onRetry, signal, priority }) {
      // Its 429 (5 streams a key) holds back no other request (ownLimit).
      const call: Call = { method: 'GET', endpoint: 'GET /events', path: '/events', auth: 'key', accept: 'text/event-stream', signal, priority, ownLimit: true };
      if (lastEventId !== undefined) call.headers = { 'Last-Event-ID': lastEventId };
      const [{ response, url }, { readEventStream }] = await Promise.all([send(call), import('./event-stream')]);
      const done = readEventStream(response, onEvent, signal, onRetry).catch((error: unknown) => {
        throw networkOrAbort(error, call, url);
      });
      return { done };
    },

    async listViews(opts = {}) {
      return (await json({ method: 'GET', endpoint: 'GET /views', path: '/views', auth: 'key', ...perCall(opts) }, (await liveSchemas()).viewListSchema)).data;
    },

    async createView(body, opts = {}) {
      return (await json({ method: 'POST', endpoint: 'POST /views', path: '/views', auth: 'key', body, ...perCall(opts) }, (await liveSchemas()).viewSchema)).data;
    },

    async replaceView(viewId, body, opts = {}) {
      const request: Call = { method: 'PUT', endpoint: 'PUT /views/{viewId}', path: `/views/${pathSegment(viewId)}`, auth: 'key', body, ...perCall(opts) };
      return (await json(request, (await liveSchemas()).viewSchema)).data;
    },

    async deleteView(viewId, opts = {}) {
      await noContent({ method: 'DELETE', endpoint: 'DELETE /views/{viewId}', path: `/views/${pathSegment(viewId)}`, auth: 'key', ...perCall(opts) });
    },
  };
}

/** src/api/stats.ts (docs/decisions.md section 12), loaded with the first aggregate or batch call. */
const statsSchemas = () => import('./stats');
/** src/api/live.ts, loaded when shared views are first asked for. */
const liveSchemas = () => import('./live');

/** src/api/activity.ts, loaded when the activity log is first asked for. */
const activitySchemas = () => import('./activity');
