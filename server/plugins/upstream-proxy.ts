/**
 * Proxy mode (docs/decisions.md section 0, issue 15): every `/api/*` request is forwarded to `UPSTREAM_API_URL` with
 * @fastify/http-proxy (@fastify/reply-from over undici), for a console used against a hosted service that does not
 * allow browser calls from another origin. Register it after the OpenAPI plugin: `/api/openapi.json` and
 * `/api/docs` are static routes, which the router prefers to this plugin's `/api/*`, so they stay local.
 *
 * What goes up: the method, the path with `/api` replaced by the upstream's path (`/api/contacts` to
 * `https://api.example.com/contacts`, or to `http://127.0.0.1:8080/api/contacts`), the query string byte for
 * byte, the body as sent, and every end-to-end header (`x-api-key`, `Authorization`, `X-Api-Version`, `Accept`,
 * `Content-Type`, ...) with `Host` set to the upstream's. Dropped: the hop-by-hop headers (RFC 9110 section
 * 7.6.1: `Connection` and those it names, `Keep-Alive`, `Proxy-Connection`, `TE`, `Trailer`,
 * `Transfer-Encoding`, `Upgrade`, `Proxy-Authorization`) and `Expect` (Node answered `100-continue` already).
 * Set: `X-Forwarded-For` (the client address after the part of an incoming `X-Forwarded-For` that
 * `TRUST_PROXY` trusts; an untrusted one is replaced, not extended), `X-Forwarded-Proto`, `X-Forwarded-Host`.
 *
 * Request bodies are read whole before they are sent on (up to `PROXY_BODY_LIMIT`, 10 MB; a larger one is a
 * 413 from this server), as nginx does by default: an upstream that refuses a body from its headers alone (our
 * service's 413 over 2 MB) answers and closes the connection at once, and a body still trickling through from
 * the client would then fail with EPIPE and lose that answer (a 502 instead of the upstream's 413). A body
 * handed over whole is written at once, and the answer read. Bodies of this interface are small JSON; the
 * memory this holds is bounded by the limit per request.
 *
 * What comes back: the upstream's status, headers (hop-by-hop ones dropped; `Retry-After`, `X-RateLimit-*`,
 * `X-Trace-Id`, `Content-Disposition` as they are) and body, streamed with backpressure, so a 1,000,000-row
 * export passes in bounded memory. Nothing is retried (a 503 or 429 reaches the console as sent). This
 * server's `X-Api-Version` is not added to proxied answers (the version is the upstream's to state); its
 * `X-Trace-Id` stays when the upstream sends none, naming this proxy's log lines for the request.
 *
 * When no answer comes: 502 `Bad gateway: the upstream service could not be reached` (refused, reset, DNS,
 * TLS, an invalid answer) or 504 `Gateway timeout: the upstream service did not answer within N ms` (no
 * connection, no headers, within `UPSTREAM_TIMEOUT_MS`), with the service's error body (docs/decisions.md section 3);
 * the cause goes to the log under the `traceId`. A body that stalls for longer than that after the headers were
 * sent ends the connection (the client sees a cut download).
 *
 * `GET /healthz` (issue 8's health check, proxy flavour): 200 `{ "status": "ok", "upstream": { "status": N } }`
 * when `GET <UPSTREAM_API_URL>` answers with any HTTP status within 2 s (a 404 or 401 there still means it
 * answers), else 503 with the error body `Upstream unavailable`.
 */
import httpProxy, { type FastifyHttpProxyOptions } from '@fastify/http-proxy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ServerResponse, get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import { errorBody } from './errors';
import { HttpError } from '../errors';
import { HEALTH_TIMEOUT_MS } from '../routes/health';

export type UpstreamProxyOptions = {
  /** `UPSTREAM_API_URL` as server/config.ts normalized it: `https://api.example.com`, `http://127.0.0.1:8080/api`. */
  upstreamApiUrl: string;
  /** `UPSTREAM_TIMEOUT_MS`: the wait for a connection, for the answer's headers, and between two body chunks. */
  timeoutMs: number;
};

/** The largest request body the proxy takes, in bytes: 10 MB, five times our service's own limit. */
export const PROXY_BODY_LIMIT = 10 * 1024 * 1024;

/** Hop-by-hop headers (RFC 9110 section 7.6.1) never passed on, in either direction; `Connection`'s own list is added per message. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

/** `headers` without the hop-by-hop ones (including those `Connection` names). Mutates and returns `headers`. */
function dropHopByHop<T extends Record<string, unknown>>(headers: T): T {
  const named = String(headers.connection ?? '').split(',').map((name) => name.trim().toLowerCase()).filter(Boolean);
  for (const name of [...HOP_BY_HOP, ...named]) delete headers[name];
  return headers;
}

/** The query string of `url` as sent, without the `?` (http-proxy would re-encode it otherwise). */
function rawQuery(url: string): string {
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at + 1);
}

/** Undici error codes that mean "no answer in time" (504); every other failure is "no usable answer" (502). */
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'FST_REPLY_FROM_TIMEOUT', 'FST_REPLY_FROM_GATEWAY_TIMEOUT', 'ETIMEDOUT']);

/**
 * The status of `GET url`, read within `timeoutMs` (the body discarded); rejects when nothing answers in time.
 * node:http rather than `fetch`, which refuses the ports the Fetch standard bars (9, 6000, ...).
 */
function probe(url: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const get = url.startsWith('https:') ? httpsGet : httpGet;
    const request = get(url, { signal: AbortSignal.timeout(timeoutMs) }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
  });
}

function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let cause = error, depth = 0; cause && typeof cause === 'object' && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
  }
  return codes;
}

export default async function upstreamProxy(app: FastifyInstance, options: UpstreamProxyOptions) {
  const { upstreamApiUrl, timeoutMs } = options;

  app.get('/healthz', { schema: { hide: true } }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    try {
      return { status: 'ok' as const, upstream: { status: await probe(upstreamApiUrl, HEALTH_TIMEOUT_MS) } };
    } catch (error) {
      request.log.error({ err: error, traceId: request.id }, 'health check: upstream unavailable');
      throw new HttpError(503, 'Upstream unavailable');
    }
  });

  const onError: NonNullable<FastifyHttpProxyOptions['replyOptions']>['onError'] = (reply, { error }) => {
    const request = reply.request as FastifyRequest; // reply-from types it for any server; this one is HTTP/1
    const timedOut = codesOf(error).some((code) => TIMEOUT_CODES.has(code));
    request.log.error({ err: error, traceId: request.id }, 'upstream request failed');
    const [status, message] = timedOut
      ? [504, `Gateway timeout: the upstream service did not answer within ${timeoutMs} ms`]
      : [502, 'Bad gateway: the upstream service could not be reached'];
    // reply-from calls this before copying any upstream header, so the answer carries only this server's own.
    void reply.status(status).type('application/json; charset=utf-8').send(errorBody(request, status, message));
  };

  await app.register(async (proxy) => {
    // Every body, whatever its type (or none), is read into one Buffer as sent; nothing the rest of the app
    // parses applies here.
    proxy.removeAllContentTypeParsers();
    proxy.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    proxy.addHook('onRoute', (route) => {
      route.bodyLimit = PROXY_BODY_LIMIT; // on the route, so the 413's message states this limit
    });
    proxy.addHook('onRequest', async (_request, reply) => {
      reply.removeHeader('x-api-version');
    });
    // An event stream passed through (`GET /events`, docs/live.md) never ends on its own: at the close it is cut
    // (the client reconnects, to another process), or app.close() would wait for it as long as the upstream sends.
    const streams = new Set<ServerResponse>();
    proxy.addHook('onSend', async (_request, reply) => {
      if (!String(reply.getHeader('content-type') ?? '').startsWith('text/event-stream')) return;
      const raw = reply.raw;
      streams.add(raw);
      raw.once('close', () => streams.delete(raw));
    });
    app.addHook('preClose', async () => {
      for (const raw of streams) raw.destroy();
    });
    const proxyOptions: FastifyHttpProxyOptions = {
      upstream: upstreamApiUrl,
      prefix: '/api',
      undici: { connectTimeout: timeoutMs, headersTimeout: timeoutMs, bodyTimeout: timeoutMs },
      disableRequestLogging: true,
      proxyPayloads: false,
      // reply-from would JSON-encode a Buffer body of type application/json: hand it over as the raw bytes it is.
      handler: (request, reply, dest, options) =>
        Buffer.isBuffer(request.body)
          ? reply.from(dest, { ...options, body: request.body, contentType: request.headers['content-type'] ?? 'application/octet-stream' })
          : reply.from(dest, options),
      replyOptions: {
        queryString: (_search, url) => rawQuery(url),
        retryDelay: () => null,
        rewriteRequestHeaders: (request, headers) => {
          const forwarded = dropHopByHop({ ...headers });
          // Node's server has already answered `Expect: 100-continue` to the client; undici refuses to send it.
          delete forwarded.expect;
          // request.ips: the client address, then each trusted proxy's X-Forwarded-For entry (TRUST_PROXY), nearest first.
          forwarded['x-forwarded-for'] = [...(request.ips ?? [request.ip])].reverse().join(', ');
          forwarded['x-forwarded-proto'] = request.protocol;
          forwarded['x-forwarded-host'] = request.host;
          return forwarded;
        },
        rewriteHeaders: (headers) => dropHopByHop({ ...headers }),
        onError,
      },
    };
    await proxy.register(httpProxy, proxyOptions);
  });
}
