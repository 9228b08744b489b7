/**
 * The configured Fastify instance of the service, started by nobody (main.ts listens, tests listen on a free
 * port). Two modes share one shell (`createShell`: Fastify's options, the zod validator, the error handler,
 * security headers, the OpenAPI document at `/api/openapi.json` and `/api/docs`, CORS) and the dashboard at `/`:
 * - `buildApp(config)`, direct mode: the API under `/api` over a database (docs/decisions.md section 0), the health
 *   check at `/healthz` (issue 8), the scheduled-post job. JSON bodies are shape-checked before they are parsed
 *   (plugins/json-body.ts: depth, members, values; issue 12); bodies, queries and params are then checked by the
 *   contract's zod schemas; failures become 400s with the messages of src/api/validation-message.ts.
 * - `buildProxyApp(config)`, proxy mode (issue 15): no database, no job; `/api/*` forwarded to
 *   `UPSTREAM_API_URL` (plugins/upstream-proxy.ts), `/healthz` says whether the upstream answers, and the
 *   OpenAPI document is `apiDocument()`, the direct mode's routes described without a database.
 */
import '../src/api/zod-messages';
import cors from '@fastify/cors';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { FastifySchemaCompiler } from 'fastify';
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { ZodType } from 'zod';
import { formatIssues } from '../src/api/validation-message';
import type { ServiceDatabase } from './db/connection';
import { CatalogStore } from './db/catalog';
import { ActivityStore } from './db/activity';
import { ContactStore } from './db/contacts';
import { IdempotencyStore } from './db/idempotency';
import { PostStore } from './db/posts';
import { Reverter } from './db/revert';
import { DEFAULT_EXPORT_CONCURRENCY, ExportSlots } from './export/export-slots';
import { rateLimitStorage } from './db/rate-limit-store';
import type { DemoSeedResult } from './db/seed';
import authPlugin from './plugins/auth';
import dashboardPlugin from './plugins/dashboard';
import idempotencyPlugin from './plugins/idempotency';
import errorsPlugin, { frameworkErrorHandler } from './plugins/errors';
import jsonBodyPlugin from './plugins/json-body';
import openapiPlugin, { type OpenApiDocument } from './plugins/openapi';
import securityHeaders from './plugins/security-headers';
import upstreamProxy from './plugins/upstream-proxy';
import transportPlugin, { DEFAULT_TIMEOUTS, type TransportTimeouts, transportOptions } from './plugins/transport';
import { activityRoutes } from './routes/activity';
import { authorizationRoutes } from './routes/authorization';
import { contactBatchRoutes } from './routes/contact-batch';
import { extensionRoutes } from './routes/extensions';
import { healthRoutes } from './routes/health';
import { contactRoutes } from './routes/contacts';
import { postRoutes } from './routes/posts';
import { statsRoutes } from './routes/stats';
import { catalogRoutes } from './routes/products';
import { startScheduler } from './scheduler';
import { SearchIndexUpkeep } from './db/search-upkeep';
import type { RouteContext } from './routes/context';
import { workspaceRoutes } from './routes/workspaces';
import { ViewStore } from './db/views';
import { EventHub, type EventHubOptions } from './events/hub';
import { changeSignal } from './events/signals';
import { eventRoutes } from './routes/events';
import { viewRoutes } from './routes/views';

/** What both modes take. */
export type CommonConfig = {
  /** Origins allowed to call the API from a browser (`CORS_ORIGINS`). */
  corsOrigins?: readonly string[];
  /** `API_ORIGINS`: origins the console may call besides its own, allowed in the CSP's `connect-src` (issue 15). */
  apiOrigins?: readonly string[];
  /** Folder of the built dashboard to serve at `/`, when it exists. */
  dashboardDir?: string;
  logger?: FastifyServerOptions['logger'];
  /**
   * `TRUST_PROXY`: addresses/CIDRs of the load balancers whose `X-Forwarded-For` gives the client address (the
   * key of per-address rate limits, docs/decisions.md section 4); none trusted when absent or empty.
   */
  trustProxy?: readonly string[];
  /** Connection timeouts (plugins/transport.ts, issue 12 point 9); DEFAULT_TIMEOUTS for what is not given. */
  timeouts?: Partial<TransportTimeouts>;
};

/** Direct mode: the service over its database. */
export type AppConfig = CommonConfig & {
  database: ServiceDatabase;
  /** Requests a minute per key (or client address); 0 turns limiting off (docs/decisions.md section 4). */
  rateLimitPerMinute: number;
  /** The window the rate limit counts over, in seconds; default 60. */
  rateLimitWindowSeconds?: number;
  /** The demo workspaces' credentials to offer on /connect (`DEMO_SEED=auto` only), or null. */
  demo?: () => DemoSeedResult | null;
  /** `PUBLIC_URL`, the base of `postUrl`; each request's own origin when unset. */
  publicUrl?: string;
  /** How often due scheduled posts are marked published, in ms; 0 turns the job off. Default 1000. */
  schedulerIntervalMs?: number;
  /**
   * `REDIS_URL`: count rate limits in this Redis. Without it they are counted in PostgreSQL when that is the
   * database, in memory on SQLite (db/rate-limit-store.ts; issue 8).
   */
  redisUrl?: string;
  /**
   * Spreadsheet exports run at once (`EXPORT_CONCURRENCY`, issue 12 point 10), more wait in a fair queue (issue 21
   * point 2, export/export-slots.ts); DEFAULT_EXPORT_CONCURRENCY (3) when absent.
   */
  exportConcurrency?: number;
  /** `ACTIVITY_RETENTION_DAYS`: activity entries older than this are deleted by the scheduler; 0 keeps all. Default 400. */
  activityRetentionDays?: number;
  /**
   * `ACTIVITY_LOG` (`on` by default): `off` records no activity and leaves out the extension's routes, so `GET
   * /extensions` does not name `activity` (docs/decisions.md section 11); for a deployment that must keep no history,
   * and to measure what the log costs a write (docs/benchmarks.md).
   */
  activityLog?: boolean;
  /** The `GET /events` timings (tests only; docs/decisions.md section 13's by default). */
  events?: EventHubOptions;
};

/** Proxy mode (issue 15): `/api/*` forwarded to an upstream service; no database. */
export type ProxyAppConfig = CommonConfig & {
  /** `UPSTREAM_API_URL` as server/config.ts normalized it (`https://api.example.com`, `http://127.0.0.1:8080/api`). */
  upstreamApiUrl: string;
  /** `UPSTREAM_TIMEOUT_MS`: the proxy's wait for the upstream (plugins/upstream-proxy.ts); default 30000. */
  upstreamTimeoutMs?: number;
};

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'headers' };

/** A lone UTF-16 surrogate: with the u flag a pair is one code point, so only a lone half matches. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The first string in `value` that a database cannot store as text, as `{ path, problem }` (`name`,
 * `items.0.title`), or null; any depth, no recursion. U+0000: PostgreSQL refuses it. A lone UTF-16 surrogate
 * (U+D800 to U+DFFF without its pair) has no UTF-8 form: both databases would store U+FFFD instead, so what was
 * accepted could not be read back (issue 12, found by the accepted-bodies property).
 */
function unstorableAt(value: unknown): { path: string; problem: string } | null {
  const pending: [unknown, string][] = [[value, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, path] = next;
    if (typeof item === 'string') {
      if (item.includes('\0')) return { path, problem: 'must not contain the NUL character (U+0000)' };
      if (LONE_SURROGATE.test(item)) return { path, problem: 'must not contain a lone UTF-16 surrogate (U+D800 to U+DFFF without its pair)' };
    }
    if (typeof item === 'object' && item !== null) {
      for (const [key, child] of Object.entries(item).reverse()) pending.push([child, path ? `${path}.${key}` : key]);
    }
  }
  return null;
}

/**
 * Validates a request part with its zod schema; the error message lists every problem (docs/decisions.md section 3).
 * Text a database cannot store (`unstorableAt`) in a body or path is refused first, on every database.
 */
/** Longest query string (as JSON) whose checked form is kept; longer ones are checked on every request. */
const CHECKED_QUERY_MAX_LENGTH = 2048;

const zodValidator: FastifySchemaCompiler<ZodType> = ({ schema, httpPart }) => {
  // A query string already checked is not checked again (issue 16: zod was a tenth of a page's CPU): the
  // result is kept by the parsed query's JSON, so the same list request (a page reloaded, paged back to, or
  // refetched) gets the same object, which list-params.ts and the contact store key their own work on.
  const checked = httpPart === 'querystring' ? new LRUCache<string, { value: unknown }>({ max: 1000 }) : null;
  return (data) => {
    if (httpPart === 'body' || httpPart === 'params') {
      const unstorable = unstorableAt(data);
      if (unstorable) return { error: new Error(`${unstorable.path || PART_NAMES[httpPart]} ${unstorable.problem}`) };
    }
    let key = checked && data && typeof data === 'object' ? JSON.stringify(data) : undefined;
    if (key !== undefined && key.length > CHECKED_QUERY_MAX_LENGTH) key = undefined; // bounds the cache: 1,000 x 2 KB
    const hit = key === undefined ? undefined : checked?.get(key);
    if (hit) return hit;
    if (httpPart === 'querystring' && data && typeof data === 'object') {
      const repeated = Object.entries(data).filter(([, value]) => Array.isArray(value)).map(([name]) => `${name} must be given once`);
      if (repeated.length) return { error: new Error(repeated.join('; ')) };
    }
    const result = schema.safeParse(data);
    if (!result.success) return { error: new Error(formatIssues(result.error.issues, PART_NAMES[httpPart ?? 'body'] ?? 'body')) };
    const valid = { value: result.data };
    if (key !== undefined) checked?.set(key, valid);
    return valid;
  };
};

/** Fastify with what both modes share; `document` is the OpenAPI document to serve instead of describing own routes. */
async function createShell(config: CommonConfig, document?: OpenApiDocument): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logger ?? false,
    ...transportOptions({ ...DEFAULT_TIMEOUTS, ...config.timeouts }),
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    frameworkErrors: frameworkErrorHandler,
    trustProxy: config.trustProxy?.length ? [...config.trustProxy] : false,
  });
  app.setValidatorCompiler(zodValidator);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.removeContentTypeParser('text/plain');

  await app.register(errorsPlugin);
  await app.register(transportPlugin);
  await app.register(securityHeaders, { connectOrigins: config.apiOrigins });
  await app.register(openapiPlugin, { document });
  // The headers a page of another origin must be able to read: the trace id, the rate limit (the console's request
  // budget, issue 19), how long to wait and where in the export queue (issue 21 point 2), and an idempotent replay
  // (docs/decisions.md section 9). Preflights allow whatever headers they ask for (`Idempotency-Key` included).
  if (config.corsOrigins?.length) {
    await app.register(cors, {
      origin: [...config.corsOrigins],
      exposedHeaders: ['X-Trace-Id', 'X-Api-Version', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Export-Ticket', 'Export-Queue-Position', 'Content-Disposition', 'Idempotent-Replayed'],
    });
  }
  return app;
}

/**
 * The API's routes (not their auth plugin), registered into the `/api` scope `api`. `hub` serves `GET /events`, which
 * needs the activity log: with the log off (`activityLog` false) neither `activity` nor `events` is offered.
 */
async function registerApiRoutes(api: FastifyInstance, context: RouteContext, hub: EventHub, activityLog = true): Promise<void> {
  api.decorateRequest('activityLog', activityLog);
  await api.register(authorizationRoutes(context));
  await api.register(contactRoutes(context));
  await api.register(workspaceRoutes(context));
  await api.register(catalogRoutes(context));
  await api.register(postRoutes(context));
  await api.register(extensionRoutes(activityLog ? [] : ['activity', 'events']));
  if (activityLog) await api.register(activityRoutes(context));
  if (activityLog) await api.register(eventRoutes(hub));
  await api.register(viewRoutes(context.views));
  await api.register(statsRoutes(context));
  await api.register(contactBatchRoutes(context));
}

/** Builds the service in direct mode; registers everything, listens on nothing. */
export async function buildApp(config: AppConfig): Promise<FastifyInstance> {
  const app = await createShell(config);
  // Direct mode only: a proxy forwards bodies as they are (issue 15), the upstream judges them.
  await app.register(jsonBodyPlugin);
  const { db, dialect } = config.database;
  const stores = { contacts: new ContactStore(db, dialect), catalog: new CatalogStore(db, dialect), posts: new PostStore(db, dialect) };
  const context: RouteContext = {
    database: config.database,
    ...stores,
    activity: new ActivityStore(db, dialect),
    reverter: new Reverter(db, dialect, stores),
    views: new ViewStore(db, dialect),
    publicUrl: config.publicUrl,
    exportSlots: new ExportSlots(config.exportConcurrency ?? DEFAULT_EXPORT_CONCURRENCY),
  };
  const storage = config.rateLimitPerMinute > 0 ? rateLimitStorage(config.database, config.redisUrl, (error) => app.log.error({ err: error }, 'rate-limit Redis connection error')) : null;
  if (storage) app.addHook('onClose', () => storage.close());
  // Live changes (docs/decisions.md section 13): the streams end before the server waits for its connections.
  const signal = changeSignal(config.database, config.redisUrl, (error) => app.log.error({ err: error }, 'events: change signal error'));
  const hub = new EventHub(db, dialect, signal, app.log, config.events);
  app.addHook('preClose', () => hub.shutdown());
  await app.register(healthRoutes(config.database));
  await app.register(
    async (api) => {
      await api.register(authPlugin, {
        db: config.database.db,
        rateLimitPerMinute: config.rateLimitPerMinute,
        rateLimitWindowSeconds: config.rateLimitWindowSeconds,
        rateLimitStorage: storage?.options,
      });
      await api.register(idempotencyPlugin, { store: new IdempotencyStore(db, dialect) });
      // A committed write tells every process's streams (a no-op on PostgreSQL, whose transaction notified).
      api.addHook('onResponse', (request, reply, done) => {
        const workspaceId = request.principal?.workspaceId ?? request.basicWorkspaceId;
        if (workspaceId && request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) signal.publish(workspaceId);
        done();
      });
      await registerApiRoutes(api, context, hub, config.activityLog ?? true);
    },
    { prefix: '/api' },
  );

  const interval = config.schedulerIntervalMs ?? 1000;
  if (interval > 0) {
    const search = dialect.name === 'sqlite' ? new SearchIndexUpkeep(db) : undefined;
    const stop = startScheduler({ posts: context.posts, activity: context.activity, retentionDays: config.activityRetentionDays ?? 400, search }, interval, app.log);
    app.addHook('onClose', stop);
  }

  await app.register(dashboardPlugin, { root: config.dashboardDir ?? '', demo: config.demo ?? (() => null) });
  return app;
}

/** A stand-in for what only a running direct-mode handler touches; any use throws, naming `what`. */
function unavailable<T>(what: string): T {
  return new Proxy({}, {
    get: (_target, property) => {
      throw new Error(`${what}.${String(property)} is not available: the API routes are only being described (proxy mode has no database)`);
    },
  }) as T;
}

/**
 * The OpenAPI document of the API without a database (issue 15): the direct mode's routes registered, never
 * run, into a shell that never listens, over a context whose every store throws when used.
 */
export async function apiDocument(): Promise<OpenApiDocument> {
  const docs = await createShell({});
  const context: RouteContext = {
    database: unavailable('database'),
    contacts: unavailable('contacts'),
    catalog: unavailable('catalog'),
    posts: unavailable('posts'),
    activity: unavailable('activity'),
    reverter: unavailable('reverter'),
    views: unavailable('views'),
    exportSlots: unavailable('exportSlots'),
  };
  await docs.register((api) => registerApiRoutes(api, context, unavailable('hub')), { prefix: '/api' });
  await docs.ready();
  const document = docs.swagger();
  await docs.close();
  return document;
}

/** Builds the service in proxy mode (issue 15): opens nothing, starts nothing, listens on nothing. */
export async function buildProxyApp(config: ProxyAppConfig): Promise<FastifyInstance> {
  const app = await createShell(config, await apiDocument());
  await app.register(upstreamProxy, { upstreamApiUrl: config.upstreamApiUrl, timeoutMs: config.upstreamTimeoutMs ?? 30_000 });
  await app.register(dashboardPlugin, { root: config.dashboardDir ?? '', demo: () => null, upstreamApiUrl: config.upstreamApiUrl });
  return app;
}
