/**
 * The `ApiError` of an answer (docs/style.md "One road to the server"): a non-2xx answer's status and error body,
 * a 2xx answer that is not JSON or fails its schema. Apart from src/api/api-error.ts, whose types and predicates
 * load no zod (issue 38 point 3): this module checks the error body against the contract's schema.
 */
import type { z } from 'zod/mini';
import { ApiError, ApiResponseError, parseExportQueue, parseRetryAfter } from './api-error';
import { errorBodySchema } from './common';
import { formatIssues } from './validation-message';

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 408: 'Request Timeout',
  409: 'Conflict', 413: 'Content Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Content', 429: 'Too Many Requests',
  500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

/** Readable text of an HTML page or any body: scripts, styles and tags removed, entities for `&<>"'` and spaces decoded, whitespace collapsed. */
function plainText(text: string, html: boolean): string {
  let out = text;
  if (html) {
    out = out
      .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(/<[^>]*>/g, ' ')
      .replace(/&nbsp;/gi, ' ')
      .replace(/&lt;/gi, '<')
      .replace(/&gt;/gi, '>')
      .replace(/&quot;/gi, '"')
      .replace(/&#39;/gi, "'")
      .replace(/&amp;/gi, '&');
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** The first `max` characters of `text`, with `…` when cut. */
export function excerpt(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The sentences in one `message` entry: a string, a list of them, or an object naming its own (`message`, `constraints`). */
function sentences(value: unknown, depth = 0): string[] {
  if (typeof value === 'string') return value.trim() ? [value.trim()] : [];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (depth > 3 || typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item) => sentences(item, depth + 1));
  const record = value as Record<string, unknown>;
  const own = [...sentences(record.message, depth + 1), ...sentences(record.constraints, depth + 1)];
  if (own.length) return own;
  // { property: 'email', constraints: ... } was handled above; any other object: its string values, or its JSON.
  const values = Object.values(record).flatMap((item) => sentences(item, depth + 1));
  return values.length ? values : [JSON.stringify(value)];
}

/**
 * The message of a JSON error body that is not a full error body (issue 15: a hosted service's bodies lack
 * `traceId`, `path`, `timestamp`): `message` as a string, or an array of strings (or of objects holding them,
 * class-validator style) joined with `; ` as docs/decisions.md section 3 joins validation failures; else `error`
 * (`"Forbidden"`). Never `[object Object]`. Null when the body names nothing.
 */
function messageOf(json: unknown): string | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const { message, error } = json as { message?: unknown; error?: unknown };
  const parts = sentences(message);
  if (parts.length) return parts.join('; ');
  return typeof error === 'string' && error.trim() ? error.trim() : null;
}

/**
 * The `ApiError` for a non-2xx `response` whose body text is `text` (already read by the caller).
 * The body is parsed as JSON whatever its content type; an error body (docs/decisions.md section 3) fills `body`.
 * `sent` is the JSON body the call sent, kept on the error (`ApiError.sent`).
 */
export function apiErrorFromResponse(response: Response, text: string, endpoint: string, url: string, sent?: unknown): ApiError {
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  const parsed = errorBodySchema.safeParse(json);
  const body = parsed.success ? parsed.data : null;
  const reason = response.statusText || REASONS[response.status] || '';
  const status = `HTTP ${response.status}${reason ? ` ${reason}` : ''}`;
  let message = body?.message || messageOf(json);
  if (!message) {
    const html = /html/i.test(response.headers.get('content-type') ?? '') || /^\s*</.test(text);
    const page = excerpt(plainText(text, html));
    message = page ? `${status}: ${page}` : status;
  }
  return new ApiError({
    status: response.status,
    message,
    body,
    traceId: body?.traceId || response.headers.get('x-trace-id') || null,
    retryAfter: parseRetryAfter(response.headers.get('retry-after')),
    exportQueue: parseExportQueue(response.headers.get('export-ticket'), response.headers.get('export-queue-position')),
    endpoint,
    url,
    sent,
  });
}

/** The `ApiResponseError` for a 2xx answer whose JSON failed `schema` (issues summarised as in docs/decisions.md section 3). */
export function unexpectedShapeError(response: Response, issues: readonly z.core.$ZodIssue[], endpoint: string, url: string): ApiResponseError {
  return new ApiResponseError({
    status: response.status,
    message: `${endpoint} answered an unexpected shape: ${formatIssues(issues, 'response')}`,
    traceId: response.headers.get('x-trace-id'),
    endpoint,
    url,
    issues,
  });
}

/** The `ApiResponseError` for a 2xx answer that is not JSON (e.g. the dashboard's index.html from a misrouted proxy). */
export function notJsonError(response: Response, text: string, endpoint: string, url: string): ApiResponseError {
  const type = response.headers.get('content-type') || 'no content type';
  const page = excerpt(plainText(text, /html/i.test(type)));
  return new ApiResponseError({
    status: response.status,
    message: `${endpoint} answered ${response.status} with ${type}, not JSON${page ? `: ${page}` : ''}`,
    traceId: response.headers.get('x-trace-id'),
    endpoint,
    url,
  });
}
