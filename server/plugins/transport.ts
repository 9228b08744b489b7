/**
 * The HTTP layer below the routes (issue 12 points 8, 9 and 11): timeouts, the body limit, and the error body of
 * docs/decisions.md section 3 on every answer the process gives, including those Node's HTTP server and Fastify
 * would otherwise write themselves.
 *
 * - Timeouts (`transportOptions`, configured by `HEADERS_TIMEOUT_MS`, `REQUEST_TIMEOUT_MS`,
 *   `KEEP_ALIVE_TIMEOUT_MS`, `IDLE_TIMEOUT_MS`, server/config.ts; 0 turns one off): a connection must deliver
 *   a request's headers within `headersMs` of opening (or of its first byte after a keep-alive pause) and the
 *   whole request within `requestMs`, else 408 and the connection is closed, so sockets that never send a byte
 *   are closed too (without a 408: they sent no request, and a client that never reads would never see the
 *   close behind unread bytes, issue 37); a kept-alive connection idle for `keepAliveMs` after an answer is closed; a connection
 *   with no bytes either way for `idleMs` (a client that stopped reading an export) is destroyed, except while the
 *   service works on a request, from its headers to the answer's first byte, its body's arrival excepted (issue 33:
 *   a long write, or a slow credential check, is answered, not cut).
 * - Body limit: 2 MB on every request, keyed or not, whatever the route: a `Content-Length` above it is a 413
 *   before anything else runs (authentication included), and a parsed body that grows past it is cut at 2 MB
 *   (Fastify's `bodyLimit`, also 413).
 * - An answer given before the request's body has arrived in full (401 on the headers, 413, 404, ...) carries
 *   `Connection: close`: once it is written the connection is closed, so the rest of the body is never read
 *   (Node would otherwise read and discard all of it to keep the connection alive); the close lingers
 *   (`LINGER_MS`) so the client reads the answer before the connection goes (issue 37).
 * - Errors Node's HTTP parser raises (`clientError`): 431 for a request line and headers over 16 KB (a long
 *   URL), 408 for a timeout above, 400 for malformed HTTP and unknown methods; CONNECT (which Node hands to
 *   no route) 400; an `Expect` other than `100-continue` 417; an HTTP/1.1 request without `Host` 400; each with
 *   the error body, `X-Trace-Id` (and `X-Api-Version` under `/api/`), then the connection is closed.
 *   `path` there is the request line's path, cut to 2,048 characters with a trailing `…` when longer
 *   (`cutPath`, docs/hostile-input.md), or `''` when no request line was read; an answer to a HEAD request has
 *   no body (issue 21 point 5).
 * - While the server shuts down (after `app.close()`, docs/deploy.md "Stopping"), a request still arriving on an
 *   open connection answers 503 `Service Unavailable: the server is shutting down` with the error body of
 *   docs/decisions.md section 3 (Fastify's own 503 has another shape) and `Connection: close`. A kept-alive
 *   connection between two requests, or one whose answer finished during the close, is closed once it has been
 *   quiet for `QUIET_MS` (issue 37 point 3), so a client that sent its next request as the close began is answered
 *   503 instead of reset, and no kept-alive connection holds the close until its keep-alive timeout. Requests in
 *   flight finish; server/main.ts cuts what is still open after `SHUTDOWN_GRACE_MS`.
 */
import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { ConnectionError, FastifyInstance, FastifyRequest, FastifyServerOptions, preParsingHookHandler, preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { API_VERSION, type ErrorBody } from '../../src/api/common';
import { HttpError } from '../errors';

/** Connection timeouts in milliseconds; 0 turns one off. */
export type TransportTimeouts = {
  /** Time to receive a request's headers (Node `headersTimeout`). */
  headersMs: number;
  /** Time to receive a whole request, body included (Node `requestTimeout`); at least `headersMs`. */
  requestMs: number;
  /** How long a kept-alive connection may wait for its next request (Node `keepAliveTimeout`). */
  keepAliveMs: number;
  /** How long a connection may go without a byte either way (Node `server.timeout`, Fastify `connectionTimeout`). */
  idleMs: number;
};

/**
 * Defaults: 10 s for headers, 30 s for a whole request (2 MB at 70 KB/s), 72 s keep-alive (Fastify's default:
 * longer than the 60 s idle timeout of common load balancers, so the balancer, not the service, closes an idle
 * connection first), 60 s idle.
 */
export const DEFAULT_TIMEOUTS: TransportTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 72_000, idleMs: 60_000 };

/** The largest request body, in bytes (docs/decisions.md section 3: 413 above 2 MB). */
export const BODY_LIMIT = 2 * 1024 * 1024;

/** The most characters of a path an answer given below the routes echoes (docs/hostile-input.md). */
export const PATH_LIMIT = 2048;
/** What ends a path cut to PATH_LIMIT: U+2026, which a request line read as Latin-1 can never hold. */
export const PATH_CUT_MARK = '\u2026';

/**
 * `path` as an answer below the routes echoes it (issue 21 point 5, docs/hostile-input.md): unchanged up to
 * PATH_LIMIT (2,048) characters; a longer one is cut to its first 2,047 characters followed by `…` (U+2026),
 * 2,048 characters in all, so a reader can tell a cut path from a whole one.
 */
export function cutPath(path: string): string {
  return path.length <= PATH_LIMIT ? path : `${path.slice(0, PATH_LIMIT - 1)}${PATH_CUT_MARK}`;
}

/** The error body of docs/decisions.md section 3 for an answer given outside any request Fastify made. */
function rawErrorBody(statusCode: number, message: string, path: string): ErrorBody {
  return { traceId: randomUUID(), message, path, timestamp: new Date().toISOString(), statusCode };
}

/** The headers of an error answer given outside Fastify; it closes the connection. */
function errorHeaders(body: ErrorBody): Record<string, string> {
  return {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(JSON.stringify(body))),
    'X-Trace-Id': body.traceId,
    ...(body.path.startsWith('/api/') ? { 'X-Api-Version': API_VERSION } : {}),
    'X-Content-Type-Options': 'nosniff',
    Connection: 'close',
  };
}

/**
 * A whole HTTP/1.1 error response as text for a bare socket; without its body when it answers a HEAD request
 * (RFC 9110 section 9.3.2: a client reads no body after a HEAD answer, so body bytes would be taken for a
 * broken next answer; Node's client failed such a request with `HPE_CLOSED_CONNECTION`, issue 21 point 5).
 */
function rawErrorResponse(body: ErrorBody, head = false): string {
  const lines = Object.entries(errorHeaders(body)).map(([name, value]) => `${name}: ${value}`);
  return [`HTTP/1.1 ${body.statusCode} ${STATUS_CODES[body.statusCode] ?? 'Error'}`, ...lines, '', head ? '' : JSON.stringify(body)].join('\r\n');
}

/** The method and path of the request line at the start of `packet` (no query string; the path cut by `cutPath`). */
export function requestLine(packet: Buffer | undefined): { method: string; path: string } {
  const line = /^([!-~]+) ([^\s?#]+)/.exec(packet?.toString('latin1', 0, PATH_LIMIT + 64) ?? '');
  return { method: line?.[1] ?? '', path: line?.[2] ? cutPath(line[2]) : '' };
}

/** The path of the request line at the start of `packet` (see `requestLine`), or ''. */
export function requestLinePath(packet: Buffer | undefined): string {
  return requestLine(packet).path;
}

type ClientError = Error & { code?: string; reason?: string; rawPacket?: Buffer };

/** Status and message for an error of Node's HTTP parser or connection timers. */
function describeClientError(error: ClientError): [number, string] {
  if (error.code === 'HPE_HEADER_OVERFLOW') return [431, 'Request line and headers are larger than 16 KB'];
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'Request Timeout: the request did not arrive in time'];
  if (error.code === 'HPE_INVALID_METHOD') return [400, 'Malformed HTTP request: unknown method'];
  const reason = error.reason ?? (error.code?.startsWith('HPE_') ? error.code : undefined);
  return [400, reason ? `Malformed HTTP request: ${reason}` : 'Malformed HTTP request'];
}

/**
 * Writes the error response on `socket` unless an answer is already under way there, then closes it; `head`:
 * the request was a HEAD (no body).
 */
function answerOnSocket(socket: Duplex, body: ErrorBody, head = false) {
  const current = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !current?.headersSent) {
    socket.end(rawErrorResponse(body, head));
    (socket as Duplex & { destroySoon?: () => void }).destroySoon?.();
  } else {
    socket.destroy();
  }
}

/**
 * Fastify's `clientErrorHandler`: what Node's parser refused, answered with the error body. `this` is the
 * Fastify instance (for its logger).
 */
function clientErrorHandler(this: FastifyInstance, connectionError: ConnectionError, socket: Duplex) {
  // Fastify's type has `rawPacket` as a JSON-serialized Buffer; Node hands over the Buffer itself.
  const error = connectionError as unknown as ClientError;
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // A connection that timed out without sending a byte gets no 408, only the close (issue 37): a client that
  // never reads would hold the answer's bytes unread and so never see the end of the stream, keeping its
  // socket open forever (the issue's `node -e` client saw 5 of 5 open after 100 s). There is no request to answer.
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && (socket as Duplex & { bytesRead?: number }).bytesRead === 0) {
    socket.destroy();
    return;
  }
  const [status, message] = describeClientError(error);
  const { method, path } = requestLine(error.rawPacket);
  const body = rawErrorBody(status, message, path);
  this.log.debug({ err: error, traceId: body.traceId }, 'client error');
  answerOnSocket(socket, body, method === 'HEAD');
}

/** How long a connection closed after an answer given before its body arrived stays open for the client to read it. */
export const LINGER_MS = 2_000;

/**
 * Makes Node's close of `socket` after an answer (`destroySoon`, which Node's HTTP server calls once a
 * `Connection: close` answer is written) a lingering close: send the answer and the end of our side (FIN), wait
 * `LINGER_MS`, and only then destroy the socket. Destroying it at once, with the client's body still arriving,
 * makes the kernel answer the unread bytes with a reset, which throws away the answer the client had not read
 * yet: a keyless 500 MiB chunked upload saw `EPIPE` after 0.1 MiB and no 401 (issue 37). Unlike nginx's lingering
 * close it reads nothing more meanwhile: reading and dropping the body through Node's parser at loopback speed
 * (4 to 40 MiB in the linger) left the process 20 to 30 MiB larger, while a paused socket costs nothing and the
 * reset at the end of the linger comes long after the client read the answer. The sockets lingering are in
 * `lingering`, which the server's close destroys at once.
 */
function lingerOnClose(socket: Socket, lingering: Set<Socket>): void {
  const closing = socket as Socket & { destroySoon?: () => void };
  closing.destroySoon = () => {
    if (socket.destroyed) return;
    lingering.add(socket);
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once('close', () => {
      clearTimeout(timer);
      lingering.delete(socket);
    });
    socket.end();
    // Node resumes the socket on the next tick for the request it dumps (resOnFinish), so it is paused after that.
    setImmediate(() => socket.pause());
  };
}

/**
 * How long a connection between two requests must have been quiet (since its last answer, or since it opened)
 * before the close closes it (issue 37 point 3): a client that sent its next request just before, or on receiving
 * the answer, has it read and answered 503 instead of reset.
 */
export const QUIET_MS = 500;

/** The Fastify server options of the HTTP layer: timeouts, body limit, client errors. */
export function transportOptions(timeouts: TransportTimeouts = DEFAULT_TIMEOUTS): Partial<FastifyServerOptions> & { http: ServerOptions } {
  const { headersMs, requestMs, keepAliveMs, idleMs } = timeouts;
  if (requestMs > 0 && headersMs > requestMs) throw new Error(`the headers timeout (${headersMs} ms) must not exceed the request timeout (${requestMs} ms)`);
  return {
    bodyLimit: BODY_LIMIT,
    connectionTimeout: idleMs,
    keepAliveTimeout: keepAliveMs,
    requestTimeout: requestMs,
    return503OnClosing: false,
    clientErrorHandler,
    http: {
      headersTimeout: headersMs,
      requestTimeout: requestMs,
      keepAliveTimeout: keepAliveMs,
      // How often Node checks the two timeouts above (default 30 s, which would let a socket live 40 s with a
      // 10 s headers timeout): a quarter of the headers timeout, between 100 ms and 1 s.
      connectionsCheckingInterval: Math.min(1000, Math.max(100, Math.floor((headersMs || requestMs || 4000) / 4))),
      // Answered below with the error body instead of Node's bare 400.
      requireHostHeader: false,
    },
  };
}

/** The hooks of the HTTP layer; register after the errors plugin (its `X-Trace-Id` hook runs first). */
export default fp(
  async function transportPlugin(app: FastifyInstance) {
    let closing = false;
    // Connections that have not sent a request yet: a client's connection opened ahead of use (a browser's or a
    // balancer's preconnect, or fetch connecting again after a stream it aborted). Node's server.close() counts
    // such a connection busy (it closes idle kept-alive ones only) and stops the headers timeout that would cut it,
    // so the close would wait for it until the idle timeout (60 s). At the close they are closed once quiet, and so
    // is one accepted while the close runs; a connection with a request under way is left to finish.
    const sockets = new Set<Socket>();
    // Per connection: its requests in flight (pipelined ones included), and when it last finished an answer (or opened).
    const inFlight = new Map<Socket, number>();
    const answeredAt = new WeakMap<Socket, number>();
    app.server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      answeredAt.set(socket, Date.now());
      socket.once('close', () => sockets.delete(socket));
      if (closing) closeWhenQuiet(socket);
    });
    // Such a connection is closed once it has been quiet for `QUIET_MS` since it opened (`closeWhenQuiet`), not at
    // once: on a busy process a client's first request may have arrived, not yet read (`bytesRead` 0); destroying
    // the connection then reset it (6 of 20 writers whose first request was still unread at SIGTERM,
    // server/test/graceful-shutdown.test.ts with both database projects running).
    app.addHook('preClose', async () => {
      closing = true;
      for (const socket of sockets) if (socket.bytesRead === 0 && !(socket as Socket & { _httpMessage?: unknown })._httpMessage) closeWhenQuiet(socket);
    });

    // While closing, a kept-alive connection between two requests is closed once it has been quiet for `QUIET_MS`
    // since its last answer (issue 37 point 3), instead of at once. Node's server.close() destroys every connection
    // idle at that moment (`closeIdleConnections`), and a request already on its way there, sent by a client that
    // had just read its previous answer, was reset unanswered (11 of 20 writers saw `ECONNRESET` on SQLite,
    // server/test/graceful-shutdown.test.ts); so was one sent behind an answer finished during the close, closed as
    // soon as it was idle (7 of 20 on PostgreSQL, whose writes were still running). Such a request is now read and
    // answered 503 with `Connection: close`. A connection that stays quiet is closed, as Node would have (a request
    // sent on it later races the close as it races the keep-alive timeout); one with a request arriving waits for it.
    // The decision waits for the turn's reads (`setImmediate` runs after the event loop's poll for input, timers
    // before it): when the process was held up past `QUIET_MS` (a loaded machine, a long synchronous write), a request
    // that arrived meanwhile is still unread as the timer comes due, and was reset as if the connection had been
    // quiet (6 of 20 writers in a loaded CI run; server/test/transport.test.ts holds the thread up to show it).
    const closeWhenQuiet = (socket: Socket) => {
      const read = socket.bytesRead;
      const wait = Math.max(0, (answeredAt.get(socket) ?? 0) + QUIET_MS - Date.now());
      setTimeout(() => setImmediate(() => {
        if (socket.destroyed || inFlight.has(socket)) return; // a request in flight schedules this again when answered
        if (socket.bytesRead === read) return socket.destroy();
        answeredAt.set(socket, Date.now()); // a request is arriving
        closeWhenQuiet(socket);
      }), wait);
    };
    const closeIdleConnections = app.server.closeIdleConnections.bind(app.server);
    app.server.closeIdleConnections = () => {
      if (!closing) return closeIdleConnections();
      for (const socket of sockets) if (!inFlight.has(socket)) closeWhenQuiet(socket);
    };

    // The idle timeout is for a client that stops sending or reading, not for a server still working on a request:
    // it is suspended from the request's headers to the answer's first byte, so a write that takes longer than
    // `idleMs` (a batch of 1,000 contacts, the revert of a 10,000-contact import, issue 33) is answered instead of
    // its connection being destroyed under it, and so is a request that waits on a busy process before its key is
    // checked (a batch cut with `ECONNRESET` on a loaded machine, server/test/activity.test.ts). It is back while a
    // body is still arriving (`preParsing` of the routes that take one; `requestMs` bounds that too) and before an
    // answer's body is written, so an answer streamed to a client that stops reading is still cut.
    const idleMs = app.initialConfig.connectionTimeout ?? 0;
    const suspendIdle = (request: FastifyRequest) => request.raw.socket?.setTimeout?.(0); // `app.inject`'s has no socket
    if (idleMs > 0) {
      const waitForBody: preParsingHookHandler = (request, _reply, payload, done) => {
        if (!request.raw.complete) request.raw.socket?.setTimeout?.(idleMs);
        done(null, payload);
      };
      const whole: preValidationHookHandler = (request, _reply, done) => {
        suspendIdle(request);
        done();
      };
      app.addHook('onRoute', (route) => {
        const methods = [route.method].flat();
        if (methods.every((method) => method === 'GET' || method === 'HEAD' || method === 'OPTIONS')) return;
        route.preParsing = [waitForBody, ...[route.preParsing ?? []].flat()];
        route.preValidation = [whole, ...[route.preValidation ?? []].flat()];
      });
    }

    app.addHook('onRequest', (request, reply, done) => {
      const socket = request.raw.socket as Socket | undefined; // `app.inject`'s request has no real socket
      if (idleMs > 0) suspendIdle(request);
      if (socket) {
        inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
        reply.raw.once('close', () => {
          const left = (inFlight.get(socket) ?? 1) - 1;
          if (left > 0) inFlight.set(socket, left);
          else inFlight.delete(socket);
          answeredAt.set(socket, Date.now());
          // A connection whose answer finished after the close began is closed once quiet: Node's server.close()
          // closes the connections idle at that moment only, and would wait for a kept-alive one until
          // `keepAliveMs` (72 s) passed (a request already past onRequest when app.close() started, such as a write
          // still running or a `GET /events` the event hub then refuses). A request already sent behind it on the
          // same connection is read first and answered 503.
          if (closing && left === 0 && sockets.has(socket)) closeWhenQuiet(socket);
        });
      }
      if (closing) {
        reply.header('Connection', 'close');
        return done(new HttpError(503, 'Service Unavailable: the server is shutting down'));
      }
      const raw = request.raw;
      if (raw.httpVersion === '1.1' && raw.headers.host === undefined) {
        reply.header('Connection', 'close'); // as Node itself does: the client is not speaking HTTP/1.1
        return done(new HttpError(400, 'Host header is required'));
      }
      const length = Number(raw.headers['content-length']);
      if (length > BODY_LIMIT) return done(new HttpError(413, 'Request body is larger than 2 MB'));
      done();
    });

    if (idleMs > 0) {
      app.addHook('onSend', (request, _reply, _payload, done) => {
        const { socket } = request.raw;
        if (socket && !socket.destroyed) socket.setTimeout?.(idleMs);
        done();
      });
    }

    const lingering = new Set<Socket>();
    app.addHook('onClose', async () => {
      for (const socket of lingering) socket.destroy();
    });

    app.addHook('onSend', (request, reply, _payload, done) => {
      if (request.raw.complete) return done();
      // An answer given on the headers can come before Node has parsed a body that arrived with them: one turn
      // of the event loop lets it finish the bytes it holds. Whatever is still missing after that is not read:
      // the answer closes the connection instead of Node reading (and discarding) the rest to keep it alive,
      // with a lingering close so the client reads the answer before the connection goes (issue 37).
      setImmediate(() => {
        if (!request.raw.complete) {
          reply.header('Connection', 'close');
          lingerOnClose(request.raw.socket, lingering);
        }
        done();
      });
    });

    app.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
      const path = cutPath((request.url ?? '').split('?')[0]!);
      const body = rawErrorBody(417, `Expectation Failed: Expect ${String(request.headers.expect)} is not supported`, path);
      response.writeHead(417, errorHeaders(body)).end(JSON.stringify(body));
    });
    app.server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
      answerOnSocket(socket, rawErrorBody(400, 'Malformed HTTP request: CONNECT is not supported', ''));
    });
  },
  { name: 'transport', dependencies: ['errors'] },
);
