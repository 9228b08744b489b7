/**
 * The typed client of the workspace content and contacts service (issue 4): one method per endpoint of the
 * interface document (all 15) plus the contacts spreadsheet download. It is the one road to the server
 * (docs/style.md): it alone knows URLs, headers, `$`-parameters, the version header, error bodies and downloads.
 *
 * Every JSON answer is parsed with the contract's zod schema (loose objects: unknown fields are kept); every
 * failure is an `ApiError` (api-error.ts); an abort through a caller's `AbortSignal` rejects with the AbortError.
 * Framework-free: runs in the browser and in Node 20 (global `fetch`, `Blob`, `btoa`, `TextEncoder`).
 */
import { loadZodMessages } from './load-zod-messages';
import * as z from 'zod/mini';
import { ApiNetworkError, ApiResponseError, apiErrorFromResponse, excerpt, isAbortError, isApiError, notJsonError, unexpectedShapeError } from './api-error';
import { type Authorization, authorizationSchema } from './authorization';
import {
  type CollectionUpsert,
  type ProductUpsert,
  type UpsertResponse,
  collectionListSchema,
  productListSchema,
  upsertResponseSchema,
} from './catalog';
import { API_VERSION, listEnvelope } from './common';
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
import type { DownloadFormat, DownloadProgress, DownloadResult } from './download';
import {
  type PostRequest,
  type PostRequestResponse,
  type PublicPostSummary,
  postListSchema,
  postRequestResponseSchema,
  publicPostListSchema,
} from './posts';
import { type ListParams, type UnsortedListParams, buildQueryString, listQueryString } from './query-string';
import { type RequestPriority, isBudgetSkipped } from './budget-skipped';
import type { RateBudget } from './rate-budget';
import { joinUrl, pathSegment } from './url';
import { workspaceListSchema } from './workspaces';

/** Basic credentials of endpoint 6: an access key (`wsa_...`) and its secret, issued for one workspace (docs/decisions.md section 4). */
export type BasicCredentials = { accessKey: string; secret: string };

/**
 * Options of `createApiClient`.
 * - `baseUrl`: the API base, absolute (`http://127.0.0.1:8080/api`) or relative in the browser (`/api`);
 * - `apiKey`: sent as `x-api-key` on every keyed endpoint (all but 6 and 14); may be left out for a client that
 *   only calls `listWorkspacePosts` (the embed page), keyed calls then answer 401;
 * - `basic`: credentials for `patchNotificationSettings` (endpoint 6), sent as `Authorization: Basic`;
 * - `version`: the `X-Api-Version` value, default `API_VERSION` (`2026-07`); `null` sends no header;
 * - `fetch`: the fetch to use (default: the global one, looked up at call time);
 * - `budget`: the key's request budget (rate-budget.ts, issue 19): every call then waits for, or is refused by, it
 *   according to its `priority`, and every answer's rate-limit headers feed it.
 */
export type ApiClientOptions = {
  baseUrl: string;
  apiKey?: string;
  basic?: BasicCredentials;
  version?: string | null;
  fetch?: typeof fetch;
  budget?: RateBudget;
};

/**
 * Per-call options of the calls that take no list parameters: `signal` aborts the call; `priority` is its place in
 * the key's budget (default `person`; a refused `speculative` call rejects with `BudgetSkippedError`);
 * `idempotencyKey` is sent as `Idempotency-Key` on a POST or PATCH (docs/decisions.md section 9); `queueSignal` withdraws
 * the call while it still waits for the key's budget (it rejects with the signal's reason and is never sent), and
 * leaves it alone once sent: a job that is paused or cancelled sends nothing more, yet hears every answer it asked for.
 * `headers`: more request headers, such as `activityHeaders(...)` (src/api/activity.ts: `Activity-Source` and
 * `Activity-Batch`, which our service's activity log records and a service without it ignores).
 */
export type CallOptions = { signal?: AbortSignal; priority?: RequestPriority; idempotencyKey?: string; queueSignal?: AbortSignal; headers?: Record<string, string> };

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
export type DownloadContactsOptions = ListParams & {
  format: DownloadFormat;
  onProgress?: (progress: DownloadProgress) => void;
  /**
   * The ticket of an earlier 503 of the export queue (`ApiError.exportQueue.ticket`), sent as `Export-Ticket` so
   * the retry keeps its place (our service's extension, issue 21 point 2; docs/exports.md).
   */
  exportTicket?: string;
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
 * List methods send `$offset`, `$limit`, `$filter`, `$orderBy` only when given (see `ListParams`).
 */
export type ApiClient = {
  /** Endpoint 1, `GET /authorization`: the key's workspace (`feed`), organization and permissions. 401 for a bad key. */
  authorization(options?: CallOptions): Promise<Authorization>;
  /** Endpoint 2, `POST /contacts` (scope feeds:read-write): 201 `{ id, state, name, email, phone, image }`. 400 invalid, 409 duplicate email or phone. */
  createContact(body: ContactCreate, options?: CallOptions): Promise<ContactCreateResponse>;
  /** Endpoint 3, `GET /contacts` (contacts:read-only): the list envelope. 400 for a bad `$filter`/`$orderBy`/cap. */
  listContacts(params?: ListParams): Promise<ContactList>;
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
  listProducts(params?: UnsortedListParams): Promise<ProductList>;
  /** Endpoint 8, `POST /products` (products:read-write): `{ id, created }`. 400 invalid (a create without `title`), 404 unknown `id`, 409 taken `handle`. */
  upsertProduct(body: ProductUpsert, options?: CallOptions): Promise<UpsertResult>;
  /** Endpoint 9, `GET /collections` (products:read-only): the list envelope. No `$orderBy` on this endpoint. */
  listCollections(params?: UnsortedListParams): Promise<CollectionList>;
  /** Endpoint 10, `POST /collections` (products:read-write): `{ id, created }`. 400 without `title`, 404 unknown `id`. */
  upsertCollection(body: CollectionUpsert, options?: CallOptions): Promise<UpsertResult>;
  /** Endpoint 11, `POST /post-requests` (posts:read-write): 201 `{ body: { requestId }, state }`, state `published`, `scheduled` or `suggested`. */
  createPostRequest(body: PostRequest, options?: CallOptions): Promise<PostRequestResponse>;
  /** Endpoint 12, `GET /posts` (posts:read-only): published public posts. `$limit` at most 30, `$offset` at most 100 (`POSTS_PAGE_CAPS`). */
  listPosts(params?: ListParams): Promise<PostList>;
  /** Endpoint 13, `GET /public-posts` (posts:read-only): a bare array of summaries; `limit` (no `$`) 1..30, default 10. */
  listPublicPosts(params?: PublicPostsParams): Promise<PublicPostSummary[]>;
  /** Endpoint 14, `GET /{workspaceId}/posts`: no credential at all (the version header only). 404 `Workspace not found`. Caps as `listPosts`. */
  listWorkspacePosts(workspaceId: string, params?: ListParams): Promise<PostList>;
  /** Endpoint 15, `GET /workspaces` (feeds:read-only): the organization's workspaces, default order `name asc`. */
  listWorkspaces(params?: ListParams): Promise<WorkspaceList>;
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
  listPostRequests(params?: ListParams): Promise<PostRequestList>;
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
  listActivity(params?: ListParams): Promise<ActivityList>;
  /**
   * `POST /activity/revert` (read-write on every resource involved; extension `activity`): undoes one entry or a whole
   * batch; resolves to `{ reverted, conflicts, batchId }`. 403 missing scope, 404 unknown entry or empty batch.
   */
  revertActivity(body: RevertRequest, options?: CallOptions): Promise<RevertResult>;
  /**
   * `GET /events` (any valid key; extension `events`, docs/decisions.md section 13): opens the workspace's change
   * stream, sending `lastEventId` as `Last-Event-ID` to be sent what was missed. Resolves to the 200 answer's body,
   * to read with `readEvents` (src/api/events.ts) until it ends or `signal` aborts. Opening counts as one request of
   * the budget. 429 when the key holds 5 streams already; 404 on a service without the extension.
   */
  openEvents(options: CallOptions & { lastEventId?: string | undefined }): Promise<ReadableStream<Uint8Array>>;
};

/** How a call authenticates: API key (`x-api-key`), Basic (endpoint 6) or none (endpoint 14). */
type Auth = 'key' | 'basic' | 'none';

type Call = {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** `METHOD /template`, for messages: `PATCH /contacts/{contactId}/tags`. */
  endpoint: string;
  /** Path with parameters already encoded by `pathSegment`. */
  path: string;
  query?: string;
  auth: Auth;
  body?: unknown;
  accept?: string;
  /** More request headers (`Export-Ticket`). */
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
  priority?: RequestPriority | undefined;
  /** Sent as `Idempotency-Key` (docs/decisions.md section 9). */
  idempotencyKey?: string | undefined;
  /** Withdraws the call while it waits for the budget (`CallOptions.queueSignal`). */
  queueSignal?: AbortSignal | undefined;
  /** Called with a 2xx answer's headers (`ListParams.onHeaders`). */
  onHeaders?: ((headers: Headers) => void) | undefined;
};

/** The per-call part of a `Call`: its signals, priority and Idempotency-Key. */
const perCall = ({ signal, priority, idempotencyKey, queueSignal, headers }: CallOptions) => ({ signal, priority, idempotencyKey, queueSignal, headers });

/** The signal that ends a wait for the budget: the call's own, or its `queueSignal`, whichever aborts first. */
function waitSignal(call: Call): AbortSignal | undefined {
  if (!call.queueSignal) return call.signal;
  return call.signal ? AbortSignal.any([call.signal, call.queueSignal]) : call.queueSignal;
}

/** Base64 of the UTF-8 bytes of `text` (`btoa` alone accepts only Latin-1). */
function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The `Authorization` header value for Basic credentials: `Basic base64(accessKey:secret)`. */
export function basicAuthorization(credentials: BasicCredentials): string {
  return `Basic ${base64Utf8(`${credentials.accessKey}:${credentials.secret}`)}`;
}

/**
 * Creates the typed client (see `ApiClient` for each method, its endpoint, scope and errors). Requests carry
 * `Accept`, `x-api-key` (keyed endpoints), `X-Api-Version` (all but endpoint 6) and, with a body,
 * `Content-Type: application/json`, and go past the browser's HTTP cache (`cache: 'no-store'`), with no cookies
 * (`credentials: 'omit'`) and no Referer. Nothing is sent until
 * a method is called.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const { baseUrl, apiKey, basic, budget } = options;
  const version = options.version === undefined ? API_VERSION : options.version;
  const custom = options.fetch;
  // Called as a plain function: a browser's fetch called as a method of another object throws "Illegal invocation".
  const doFetch: typeof fetch = custom ? (input, init) => custom(input, init) : (input, init) => globalThis.fetch(input, init);

  /** Sends one call; resolves to a 2xx Response and the URL requested, rejects as documented on `ApiClient`. */
  async function send(call: Call): Promise<{ response: Response; url: string }> {
    const url = joinUrl(baseUrl, call.path, call.query ?? '');
    const headers: Record<string, string> = { ...call.headers, Accept: call.accept ?? 'application/json' };
    if (call.auth === 'key' && apiKey !== undefined) headers['x-api-key'] = apiKey;
    if (call.auth === 'basic') {
      if (!basic) throw new TypeError(`${call.endpoint} needs Basic credentials: pass basic: { accessKey, secret } to createApiClient`);
      headers.Authorization = basicAuthorization(basic);
    }
    if (call.auth !== 'basic' && version !== null) headers['X-Api-Version'] = version;
    // Past the browser's HTTP cache both ways: an answer is never served from it (React Query is the console's
    // cache) and no contact, key or page is written to disk. It also spares the network process the cache's
    // look-up and write on every call: 2.0 against 1.2 ms of its CPU a look-up (issue 20 point 6). No cookies and
    // no Referer either: the interface authenticates by header alone, and the console's own addresses (workspace
    // ids) are none of the service's business; it spares the network process the cookie jar on every call too.
    // An import job's step: 1.13 against 1.19 ms of the network process (alternated runs).
    const init: RequestInit = { method: call.method, headers, cache: 'no-store', credentials: 'omit', referrerPolicy: 'no-referrer' };
    if (call.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(call.body);
    }
    if (call.idempotencyKey !== undefined && call.method !== 'GET') headers['Idempotency-Key'] = call.idempotencyKey;
    if (call.signal) init.signal = call.signal;
    call.signal?.throwIfAborted();
    call.queueSignal?.throwIfAborted();

    let response: Response;
    try {
      response = budget ? await budget.run(call.priority ?? 'person', () => doFetch(url, init), waitSignal(call)) : await doFetch(url, init);
    } catch (error) {
      if (isBudgetSkipped(error)) throw error;
      throw networkOrAbort(error, call, url);
    }
    if (!response.ok) {
      const text = await readText(response, call, url);
      throw apiErrorFromResponse(response, text, call.endpoint, url);
    }
    call.onHeaders?.(response.headers);
    return { response, url };
  }

  /** Sends a call and parses its JSON answer with `schema`. */
  async function json<S extends z.ZodMiniType>(call: Call, schema: S): Promise<{ data: z.output<S>; status: number }> {
    const { response, url } = await send(call);
    const text = await readText(response, call, url);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw notJsonError(response, text, call.endpoint, url);
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      // zod's messages load on demand: the answer is checked again once they are in, so its issues are worded.
      await loadZodMessages();
      const worded = schema.safeParse(value);
      throw unexpectedShapeError(response, (worded.error ?? parsed.error).issues, call.endpoint, url);
    }
    return { data: parsed.data, status: response.status };
  }

  /** Sends a call answered 204; releases the connection. */
  async function noContent(call: Call): Promise<void> {
    const { response } = await send(call);
    await response.body?.cancel().catch(() => undefined);
  }

  const listCall = (endpoint: string, path: string, auth: Auth, params: ListParams): Call => ({
    method: 'GET',
    endpoint,
    path,
    query: listQueryString(params),
    auth,
    signal: params.signal,
    priority: params.priority,
    onHeaders: params.onHeaders,
  });

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

    async listWorkspacePosts(workspaceId, params = {}) {
      return (await json(listCall('GET /{workspaceId}/posts', `/${pathSegment(workspaceId)}/posts`, 'none', params), postListSchema)).data;
    },

    async listWorkspaces(params = {}) {
      return (await json(listCall('GET /workspaces', '/workspaces', 'key', params), workspaceListSchema)).data;
    },

    async downloadContacts(download) {
      const { format, onProgress, signal } = download;
      const accept = format === 'csv' ? CSV_MEDIA_TYPE : XLSX_MEDIA_TYPE;
      const call: Call = { ...listCall('GET /contacts', '/contacts', 'key', download), accept };
      if (download.exportTicket) call.headers = { 'Export-Ticket': download.exportTicket };
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

    async openEvents(opts) {
      const headers = { ...opts.headers, ...(opts.lastEventId !== undefined ? { 'Last-Event-ID': opts.lastEventId } : {}) };
      const { response, url } = await send({ method: 'GET', endpoint: 'GET /events', path: '/events', auth: 'key', accept: 'text/event-stream', ...perCall(opts), headers });
      if (!response.body) throw notJsonError(response, '', 'GET /events', url);
      return response.body;
    },

    async revertActivity(body, opts = {}) {
      return (await json({ method: 'POST', endpoint: 'POST /activity/revert', path: '/activity/revert', auth: 'key', body, ...perCall(opts) }, (await activitySchemas()).revertResultSchema)).data;
    },
  };
}

/** src/api/activity.ts, loaded when the activity log is first asked for. */
const activitySchemas = () => import('./activity');

/** The error for a rejected `fetch` or body read: the AbortError as is, anything else an `ApiNetworkError`. */
function networkOrAbort(error: unknown, call: Call, url: string): unknown {
  if (call.signal?.aborted || isAbortError(error)) return error;
  const cause = error instanceof Error ? [error.message, (error.cause as { message?: unknown } | undefined)?.message].filter((part) => typeof part === 'string' && part).join(': ') : String(error);
  return new ApiNetworkError({
    status: 0,
    message: `Network error: ${call.method} ${url} could not be reached${cause ? ` (${cause})` : ''}`,
    endpoint: call.endpoint,
    url,
    cause: error,
  });
}

/** The whole body as text; a connection dropped mid-body is an `ApiNetworkError`, an abort the AbortError. */
async function readText(response: Response, call: Call, url: string): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    throw networkOrAbort(error, call, url);
  }
}
