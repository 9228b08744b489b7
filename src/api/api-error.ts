/**
 * The errors of the typed client (docs/style.md "One road to the server"): one `ApiError` type for every failed call,
 * with two subclasses for the cases where no error answer exists: `ApiNetworkError` (nothing came back) and
 * `ApiResponseError` (a 2xx answer of an unexpected shape). Framework-free: browser and Node 20.
 *
 * The errors built from an answer (its body checked against the contract's error body) are in
 * api-error-response.ts, so that a screen that only tells errors apart (/connect) does not load zod (issue 38
 * point 3).
 */
import type { z } from 'zod/mini';
import type { ErrorBody } from './common';

/** What every `ApiError` is built from. `endpoint` names the call as `GET /contacts/{contactId}/tags`. */
export type ApiErrorInit = {
  /** HTTP status; 0 when no response arrived (`ApiNetworkError`). */
  status: number;
  message: string;
  body?: ErrorBody | null;
  traceId?: string | null;
  retryAfter?: number | null;
  exportQueue?: ExportQueuePlace | null;
  /** `METHOD /path/template`, e.g. `PATCH /contacts/{contactId}/tags`. */
  endpoint: string;
  /** The full URL requested, query string included. */
  url: string;
  /** The JSON body the call sent, when it sent one. */
  sent?: unknown;
  cause?: unknown;
};

/**
 * Where a refused export waits in our service's export queue (issue 21 point 2; docs/exports.md): from the 503's
 * `Export-Ticket` (sent back to keep the place) and `Export-Queue-Position` (1 = next to run).
 */
export type ExportQueuePlace = { ticket: string; position: number };

/** The export queue's place from its two headers; null unless both are there and the position is a whole number from 1. */
export function parseExportQueue(ticket: string | null, position: string | null): ExportQueuePlace | null {
  if (!ticket || !position || !/^[1-9]\d{0,8}$/.test(position.trim())) return null;
  return { ticket: ticket.trim(), position: Number(position.trim()) };
}

/**
 * A call that did not succeed (docs/decisions.md section 3). For a non-2xx answer:
 * - `status`: the HTTP status;
 * - `body`: the error body `{ traceId, message, path, timestamp, statusCode }` when the answer is one, else null
 *   (an HTML page from a proxy, or a hosted service's JSON without those fields);
 * - `traceId`: the body's `traceId`, else the `X-Trace-Id` header, else null;
 * - `retryAfter`: seconds to wait, from `Retry-After` (delta-seconds or an HTTP date), else null;
 * - `exportQueue`: the export queue's ticket and position of a 503 that carries them, else null;
 * - `message`: the body's `message` (for JSON that is not a full error body, such as a hosted service's
 *   `{"statusCode":403,"message":"Forbidden resource","error":"Forbidden"}`: its `message` string, or its strings
 *   joined with `; `, or its `error`), else `HTTP 502 Bad Gateway: <first 200 characters of the page text>`;
 * - `sent`: the JSON body the call sent (undefined for none), so that a refusal about `tags.0` can name that tag
 *   (src/lib/error-sentence.ts, issue 34 point 9).
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly body: ErrorBody | null;
  readonly traceId: string | null;
  readonly retryAfter: number | null;
  readonly exportQueue: ExportQueuePlace | null;
  readonly endpoint: string;
  readonly url: string;
  readonly sent: unknown;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.body = init.body ?? null;
    this.traceId = init.traceId ?? null;
    this.retryAfter = init.retryAfter ?? null;
    this.exportQueue = init.exportQueue ?? null;
    this.endpoint = init.endpoint;
    this.url = init.url;
    this.sent = init.sent;
  }
}

/**
 * No HTTP answer: refused connection, DNS failure, CORS refusal in a browser, a connection dropped mid-body, or a
 * URL `fetch` cannot parse. `status` is 0 and `message` names the method and URL:
 * `Network error: GET http://127.0.0.1:9/api/authorization could not be reached (fetch failed: connect ECONNREFUSED ...)`.
 * An abort through the caller's `AbortSignal` is never wrapped in this: the AbortError is rethrown as is.
 */
export class ApiNetworkError extends ApiError {
  override name = 'ApiNetworkError';
}

/**
 * A 2xx answer the client cannot use: not JSON, or JSON that fails the endpoint's zod schema (a hosted service
 * that changed, or a proxy answering its own page). `status` is that 2xx status; `issues` holds the zod issues
 * (empty when the text was not JSON). Message: `GET /contacts answered an unexpected shape: items.0.id must be a string`.
 */
export class ApiResponseError extends ApiError {
  override name = 'ApiResponseError';
  readonly issues: readonly z.core.$ZodIssue[];

  constructor(init: ApiErrorInit & { issues?: readonly z.core.$ZodIssue[] }) {
    super(init);
    this.issues = init.issues ?? [];
  }
}

/** True for any `ApiError` (including `ApiNetworkError` and `ApiResponseError`). */
export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * True for a 401 or a 403 answer: "this key cannot do that". The two are treated alike because a hosted service
 * answers 403 `Forbidden resource` for a missing or wrong key as well as for a missing scope (docs/decisions.md
 * section 4); `error.status` tells which one was sent.
 */
export function isAuthError(error: unknown): error is ApiError {
  return isApiError(error) && (error.status === 401 || error.status === 403);
}

/** True for the rejection of an aborted call (`AbortError`, or `TimeoutError` from `AbortSignal.timeout`). */
export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && ((error as { name?: unknown }).name === 'AbortError' || (error as { name?: unknown }).name === 'TimeoutError');
}

/**
 * Seconds to wait from a `Retry-After` header value: delta-seconds (`"30"` gives 30) or an HTTP date (seconds from
 * `now` until then, at least 0, rounded up). Null for a missing or unreadable value.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
