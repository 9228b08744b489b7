/**
 * Authentication, versioning and rate limiting for the API routes (docs/decisions.md sections 4 and 5).
 *
 * Each route states `config.auth`: `key` (with `config.scope`), `basic` (endpoint 6) or `none` (endpoint 14).
 * Order per request, all in one `onRequest` hook bound to each route as it is added, so nothing is parsed for a
 * refused caller:
 * 1. identify the caller on its headers: a live API key (one SHA-256 and one indexed lookup), or the access key
 *    of Basic credentials, not yet checked;
 * 2. rate limit (`RATE_LIMIT_PER_MINUTE`, 0 = off), 429 `ThrottlerException: Too Many Requests` with
 *    `Retry-After`, counted where `rateLimitStorage` says (in memory, PostgreSQL or Redis: shared by every
 *    process of the service, issue 8): per key; per client address where there is no valid key; and a Basic
 *    request both per access key and per client address, the limit each, before its secret is hashed, so a
 *    flood of bad Basic attempts costs one counter update each, not an scrypt (issue 12 point 7);
 * 3. check the Basic secret (scrypt), then refuse: unknown `X-Api-Version` 400 (not on endpoint 6), no or bad
 *    key 401, missing scope 403, bad Basic credentials 401 with `WWW-Authenticate: Basic realm="contacts"`.
 * `X-RateLimit-Limit`, `-Remaining` and `-Reset` describe the counter closest to its limit.
 * Public routes (`none`) answer `Access-Control-Allow-Origin: *`, errors included.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { ACTIVITY_BATCH_HEADER, ACTIVITY_BATCH_MAX, ACTIVITY_SOURCE_HEADER, ACTIVITY_SOURCE_MAX, activityHeaderProblem } from '../../src/api/activity';
import { API_VERSION } from '../../src/api/common';
import { type Scope, grants } from '../../src/api/scopes';
import { type KeyPrincipal, findApiKey, verifyBasicCredential } from '../db/credentials';
import type { RateLimitStorage } from '../db/rate-limit-store';
import type { Database } from '../db/schema';
import { HttpError } from '../errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: 'key' | 'basic' | 'none';
    scope?: Scope;
  }
  interface FastifyRequest {
    /** The caller's API key, when it sent a live one. */
    principal: KeyPrincipal | null;
    /** The workspace of the caller's Basic credentials, when they matched (endpoint 6). */
    basicWorkspaceId: string | null;
    /** The access key and secret of the `Authorization: Basic` header, not yet checked (endpoint 6). */
    basicPair: { accessKey: string; secret: string } | null;
  }
}

export type AuthOptions = {
  db: Kysely<Database>;
  rateLimitPerMinute: number;
  rateLimitWindowSeconds?: number;
  /** Where the counts live (db/rate-limit-store.ts): in memory when absent. */
  rateLimitStorage?: RateLimitStorage['options'];
};

const BASIC_CHALLENGE = { 'WWW-Authenticate': 'Basic realm="contacts"' };

function parseBasic(header: string | undefined): { accessKey: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? { accessKey: decoded.slice(0, colon), secret: decoded.slice(colon + 1) } : null;
}

/** The key principal of a request, ready for routes that require `auth: 'key'`. */
/**
 * 400 for an `Activity-Source` or `Activity-Batch` header that is empty, too long, repeated or not printable ASCII
 * (docs/decisions.md section 11); checked on every authenticated request, after its credentials.
 */
function checkActivityHeaders(request: FastifyRequest): void {
  for (const [name, max] of [[ACTIVITY_SOURCE_HEADER, ACTIVITY_SOURCE_MAX], [ACTIVITY_BATCH_HEADER, ACTIVITY_BATCH_MAX]] as const) {
    const value = request.headers[name.toLowerCase()];
    if (Array.isArray(value)) throw new HttpError(400, `${name} must be given once`);
    const problem = activityHeaderProblem(name, value, max);
    if (problem) throw new HttpError(400, problem);
  }
}

export function keyPrincipal(request: FastifyRequest): KeyPrincipal {
  if (!request.principal) throw new HttpError(401, 'Invalid API key');
  return request.principal;
}

export default fp(
  async function authPlugin(app: FastifyInstance, options: AuthOptions) {
    app.decorateRequest('principal', null);
    app.decorateRequest('basicWorkspaceId', null);
    app.decorateRequest('basicPair', null);

    /** The rate limit, or null when off: refuses (throws 429) past the limit; sets the X-RateLimit-* headers. */
    let limit: ((request: FastifyRequest, reply: FastifyReply) => Promise<void>) | null = null;
    if (options.rateLimitPerMinute > 0) {
      await app.register(rateLimit, { global: false, ...options.rateLimitStorage });
      const limits = { max: options.rateLimitPerMinute, timeWindow: (options.rateLimitWindowSeconds ?? 60) * 1000 };
      const byCaller = app.createRateLimit({
        ...limits,
        keyGenerator: (request) =>
          request.principal ? `key:${request.principal.keyId}` : request.basicPair ? `basic:${request.basicPair.accessKey}` : `ip:${request.ip}`,
      });
      const byAddress = app.createRateLimit({ ...limits, keyGenerator: (request) => `ip:${request.ip}` });
      limit = async (request, reply) => {
        const counts = await Promise.all(request.basicPair ? [byCaller(request), byAddress(request)] : [byCaller(request)]);
        const counted = counts.filter((count) => !count.isAllowed);
        const closest = counted.reduce<(typeof counted)[number] | undefined>((min, count) => (!min || count.remaining < min.remaining ? count : min), undefined);
        if (!closest) return;
        reply.header('X-RateLimit-Limit', closest.max).header('X-RateLimit-Remaining', closest.remaining).header('X-RateLimit-Reset', closest.ttlInSeconds);
        const exceeded = counted.filter((count) => count.isExceeded);
        if (exceeded.length) {
          const retryAfter = String(Math.max(1, ...exceeded.map((count) => count.ttlInSeconds)));
          throw new HttpError(429, 'ThrottlerException: Too Many Requests', { 'Retry-After': retryAfter });
        }
      };
    }

    /** Steps 1 to 3 above for a route that states `auth` (and `scope`), as one hook. */
    const authenticate = (auth: NonNullable<FastifyContextConfig['auth']>, scope: Scope | undefined) =>
      async function authenticateRequest(request: FastifyRequest, reply: FastifyReply) {
        if (auth === 'none') {
          // Public endpoints (14) are for embeds on any site, errors included.
          reply.header('Access-Control-Allow-Origin', '*').header('Access-Control-Expose-Headers', 'X-Trace-Id, X-Api-Version, Retry-After');
        } else if (auth === 'key') {
          const key = request.headers['x-api-key'];
          if (typeof key === 'string' && key) request.principal = await findApiKey(options.db, key);
        } else {
          request.basicPair = parseBasic(request.headers.authorization);
        }
        if (limit) await limit(request, reply);
        if (auth === 'basic') {
          const pair = request.basicPair;
          if (pair) request.basicWorkspaceId = (await verifyBasicCredential(options.db, pair.accessKey, pair.secret))?.workspaceId ?? null;
          if (!request.basicWorkspaceId) throw new HttpError(401, 'Invalid or missing Basic credentials', BASIC_CHALLENGE);
          checkActivityHeaders(request);
          return;
        }
        const version = request.headers['x-api-version'];
        if (version !== undefined && version !== API_VERSION) throw new HttpError(400, `API version ${String(version)} is not supported.`);
        if (auth === 'none') return;
        if (!request.principal) throw new HttpError(401, 'Invalid API key');
        if (scope && !grants(request.principal.scopes, scope)) throw new HttpError(403, `Missing scope ${scope}`);
        checkActivityHeaders(request);
      };

    // Bound to each route when it is added (the route's own onRequest, after the service-wide ones): no
    // per-request lookup of the route's options, and nothing at all on routes without `auth` (issue 16).
    app.addHook('onRoute', (route) => {
      const auth = route.config?.auth;
      if (!auth) return;
      const own = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
      route.onRequest = [authenticate(auth, route.config?.scope), ...own];
    });
  },
  { name: 'auth' },
);
