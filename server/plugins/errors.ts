/**
 * One error handler for the whole service (docs/decisions.md section 3): every error becomes the error body
 * `{ traceId, message, path, timestamp, statusCode }` as JSON, `X-Trace-Id` rides on every response (and
 * `X-Api-Version` on every `/api` response, docs/decisions.md section 5), unknown
 * `/api` routes answer 404 `Cannot GET /api/nope`, and anything unexpected is a 500 `Internal server error`
 * whose details go only to the log under the same trace id.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { API_VERSION, type ErrorBody } from '../../src/api/common';
import { HttpError } from '../errors';

/** Messages for Fastify's own client errors, by code. */
const FASTIFY_MESSAGES: Record<string, (error: FastifyError, request: FastifyRequest) => string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (_e, request) =>
    `Unsupported Media Type: ${request.headers['content-type'] ?? 'none'}; send application/json`,
  FST_ERR_CTP_BODY_TOO_LARGE: (_e, request) => `Request body is larger than ${request.routeOptions.bodyLimit / (1024 * 1024)} MB`,
  FST_ERR_CTP_EMPTY_JSON_BODY: () => 'Body cannot be empty when content-type is set to application/json',
  FST_ERR_CTP_INVALID_JSON_BODY: (e) => `Malformed JSON: ${e.message}`,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => 'Content-Length does not match the body',
};

function requestPath(request: FastifyRequest): string {
  const url = request.raw.url ?? request.url;
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** The documented error body for `request`. */
export function errorBody(request: FastifyRequest, statusCode: number, message: string): ErrorBody {
  return { traceId: String(request.id), message, path: requestPath(request), timestamp: new Date().toISOString(), statusCode };
}

function sendError(reply: FastifyReply, statusCode: number, message: string, headers: Record<string, string> = {}) {
  return reply.status(statusCode).headers(headers).type('application/json; charset=utf-8').send(errorBody(reply.request, statusCode, message));
}

/**
 * Fastify's `frameworkErrors` option: errors the router raises before any route, hook or error handler runs
 * (a path parameter over `maxParamLength`, a path that is not valid percent-encoded UTF-8). Without it they
 * answer Fastify's own body (`{ error, code, message }`, 414 for the long parameter) with no trace id.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('X-Trace-Id', String(request.id));
  if (request.url.startsWith('/api/')) reply.header('X-Api-Version', API_VERSION);
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendError(reply, 400, 'a path parameter is longer than 500 characters');
  if (error.code === 'FST_ERR_BAD_URL') return sendError(reply, 400, 'path is not a valid URL: bad percent-encoding');
  request.log.error({ err: error, traceId: request.id }, 'unexpected router error');
  return sendError(reply, 500, 'Internal server error');
}

export default fp(
  async function errorsPlugin(app: FastifyInstance) {
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('X-Trace-Id', request.id);
      if (request.url.startsWith('/api/')) reply.header('X-Api-Version', API_VERSION);
      done();
    });

    app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
      if (error instanceof HttpError) return sendError(reply, error.statusCode, error.message, { ...error.headers });
      const fastifyError = error as FastifyError;
      const status = fastifyError.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        const describe = fastifyError.code ? FASTIFY_MESSAGES[fastifyError.code] : undefined;
        if (error instanceof SyntaxError && status === 400) return sendError(reply, 400, `Malformed JSON: ${error.message}`);
        return sendError(reply, status, describe ? describe(fastifyError, request) : error.message);
      }
      // The method and URL too: at the default level (warn) this is the request's only log line, and a HEAD answer
      // has no body to read the trace id from (issue 12 point 5: a HEAD 500 could not be found in the log).
      request.log.error({ err: error, traceId: request.id, method: request.method, url: request.url }, 'unexpected error');
      return sendError(reply, 500, 'Internal server error');
    });

    app.setNotFoundHandler((request, reply) => sendError(reply, 404, `Cannot ${request.method} ${requestPath(request)}`));
  },
  { name: 'errors' },
);
