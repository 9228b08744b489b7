/**
 * How the typed client talks to the service (docs/style.md "One road to the server"): a call's URL, headers, budget,
 * errors, and its JSON answer checked against the contract's schema. src/api/client.ts builds every endpoint's method
 * on it; the public embed page (src/embed/main.ts) uses it with its one endpoint (src/api/public-posts.ts), so it
 * does not carry every endpoint's schemas (issue 38 point 3). Framework-free: browser and Node 20.
 */
import type * as z from 'zod/mini';
import { loadZodMessages } from './load-zod-messages';
import { ApiNetworkError, isAbortError } from './api-error';
import { apiErrorFromResponse, notJsonError, unexpectedShapeError } from './api-error-response';
import { API_VERSION } from './common';
import { type ListCallParams, listQueryString } from './query-string';
import { type RequestPriority, isBudgetSkipped } from './budget-skipped';
import type { RateBudget } from './rate-budget';
import { joinUrl } from './url';

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

/** How a call authenticates: API key (`x-api-key`), Basic (endpoint 6) or none (endpoint 14). */
export type Auth = 'key' | 'basic' | 'none';

export type Call = {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
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
  /** Called with a 2xx answer's headers (`ListCallParams.onHeaders`). */
  onHeaders?: ((headers: Headers) => void) | undefined;
  /** A 429 of this call is a limit of its own, not the key's rate limit (`RateBudget.run`'s `ownLimit`). */
  ownLimit?: boolean;
};

/** The per-call part of a `Call`: its signals, priority and Idempotency-Key. */
export const perCall = ({ signal, priority, idempotencyKey, queueSignal, headers }: CallOptions) => ({ signal, priority, idempotencyKey, queueSignal, headers });

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
 * The calls of a client with `options` (see `ApiClientOptions`): `send` sends one and resolves to its 2xx answer,
 * `json` also parses that answer with a schema, `noContent` releases a 204's connection, `listCall` makes a list call.
 */
export function createTransport(options: ApiClientOptions) {
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
      response = budget ? await budget.run(call.priority ?? 'person', () => doFetch(url, init), waitSignal(call), call.ownLimit) : await doFetch(url, init);
    } catch (error) {
      if (isBudgetSkipped(error)) throw error;
      throw networkOrAbort(error, call, url);
    }
    if (!response.ok) {
      const text = await readText(response, call, url);
      throw apiErrorFromResponse(response, text, call.endpoint, url, call.body);
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

  const listCall = (endpoint: string, path: string, auth: Auth, params: ListCallParams): Call => ({
    method: 'GET',
    endpoint,
    path,
    query: listQueryString(params),
    auth,
    signal: params.signal,
    priority: params.priority,
    onHeaders: params.onHeaders,
  });

  return { send, json, noContent, listCall };
}

/** What `createTransport` gives: the calls every endpoint is made of. */
export type Transport = ReturnType<typeof createTransport>;

/** The error for a rejected `fetch` or body read: the AbortError as is, anything else an `ApiNetworkError`. */
export function networkOrAbort(error: unknown, call: Call, url: string): unknown {
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
export async function readText(response: Response, call: Call, url: string): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    throw networkOrAbort(error, call, url);
  }
}
