/**
 * `buildApp(config)`: the configured Fastify instance of the service, started by nobody (main.ts listens,
 * tests listen on a free port). The API lives under `/api`, the built dashboard at `/` (decisions.md
 * section 0) and the health check at `/healthz` (issue 8). Request bodies, queries and params are checked by the contract's zod schemas; failures become
 * 400s with the messages of src/api/validation-message.ts.
 */
import cors from '@fastify/cors';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { FastifySchemaCompiler } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { ZodType } from 'zod';
import { formatIssues } from '../src/api/validation-message';
import type { ServiceDatabase } from './db/connection';
import { CatalogStore } from './db/catalog';
import { ContactStore } from './db/contacts';
import { PostStore } from './db/posts';
import { rateLimitStorage } from './db/rate-limit-store';
import type { DemoSeedResult } from './db/seed';
import authPlugin from './plugins/auth';
import dashboardPlugin from './plugins/dashboard';
import errorsPlugin, { frameworkErrorHandler } from './plugins/errors';
import openapiPlugin from './plugins/openapi';
import securityHeaders from './plugins/security-headers';
import { authorizationRoutes } from './routes/authorization';
import { healthRoutes } from './routes/health';
import { contactRoutes } from './routes/contacts';
import { postRoutes } from './routes/posts';
import { catalogRoutes } from './routes/products';
import { startScheduler } from './scheduler';
import type { RouteContext } from './routes/context';
import { workspaceRoutes } from './routes/workspaces';

export type AppConfig = {
  database: ServiceDatabase;
  /** Requests a minute per key (or client address); 0 turns limiting off (decisions.md section 4). */
  rateLimitPerMinute: number;
  /** The window the rate limit counts over, in seconds; default 60. */
  rateLimitWindowSeconds?: number;
  /** Origins allowed to call the API from a browser (`CORS_ORIGINS`). */
  corsOrigins?: readonly string[];
  /** Folder of the built dashboard to serve at `/`, when it exists. */
  dashboardDir?: string;
  /** The demo workspaces' credentials to offer on /connect (`DEMO_SEED=auto` only), or null. */
  demo?: () => DemoSeedResult | null;
  logger?: FastifyServerOptions['logger'];
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
   * `TRUST_PROXY`: addresses/CIDRs of the load balancers whose `X-Forwarded-For` gives the client address (the
   * key of per-address rate limits, decisions.md section 4); none trusted when absent or empty.
   */
  trustProxy?: readonly string[];
};

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'headers' };

/** The path (`name`, `items.0.title`) of the first string in `value` holding U+0000, or null; any depth, no recursion. */
function nulAt(value: unknown): string | null {
  const pending: [unknown, string][] = [[value, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, path] = next;
    if (typeof item === 'string' && item.includes('\0')) return path;
    if (typeof item === 'object' && item !== null) {
      for (const [key, child] of Object.entries(item).reverse()) pending.push([child, path ? `${path}.${key}` : key]);
    }
  }
  return null;
}

/**
 * Validates a request part with its zod schema; the error message lists every problem (decisions.md section 3).
 * Text holding U+0000 in a body or path is refused first, on every database: PostgreSQL cannot store it.
 */
const zodValidator: FastifySchemaCompiler<ZodType> = ({ schema, httpPart }) => (data) => {
  if (httpPart === 'body' || httpPart === 'params') {
    const nul = nulAt(data);
    if (nul !== null) return { error: new Error(`${nul || PART_NAMES[httpPart]} must not contain the NUL character (U+0000)`) };
  }
  if (httpPart === 'querystring' && data && typeof data === 'object') {
    const repeated = Object.entries(data).filter(([, value]) => Array.isArray(value)).map(([name]) => `${name} must be given once`);
    if (repeated.length) return { error: new Error(repeated.join('; ')) };
  }
  const result = schema.safeParse(data);
  if (result.success) return { value: result.data };
  return { error: new Error(formatIssues(result.error.issues, PART_NAMES[httpPart ?? 'body'] ?? 'body')) };
};

/** Builds the service; registers everything, listens on nothing. */
export async function buildApp(config: AppConfig): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logger ?? false,
    bodyLimit: 2 * 1024 * 1024,
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    frameworkErrors: frameworkErrorHandler,
    trustProxy: config.trustProxy?.length ? [...config.trustProxy] : false,
  });
  app.setValidatorCompiler(zodValidator);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.removeContentTypeParser('text/plain');

  await app.register(errorsPlugin);
  await app.register(securityHeaders);
  await app.register(openapiPlugin);
  if (config.corsOrigins?.length) await app.register(cors, { origin: [...config.corsOrigins] });

  const { db, dialect } = config.database;
  const context: RouteContext = {
    database: config.database,
    contacts: new ContactStore(db, dialect),
    catalog: new CatalogStore(db, dialect),
    posts: new PostStore(db, dialect),
    publicUrl: config.publicUrl,
  };
  const storage = config.rateLimitPerMinute > 0 ? rateLimitStorage(config.database, config.redisUrl, (error) => app.log.error({ err: error }, 'rate-limit Redis connection error')) : null;
  if (storage) app.addHook('onClose', () => storage.close());
  await app.register(healthRoutes(config.database));
  await app.register(
    async (api) => {
      await api.register(authPlugin, {
        db: config.database.db,
        rateLimitPerMinute: config.rateLimitPerMinute,
        rateLimitWindowSeconds: config.rateLimitWindowSeconds,
        rateLimitStorage: storage?.options,
      });
      await api.register(authorizationRoutes(context));
      await api.register(contactRoutes(context));
      await api.register(workspaceRoutes(context));
      await api.register(catalogRoutes(context));
      await api.register(postRoutes(context));
    },
    { prefix: '/api' },
  );

  const interval = config.schedulerIntervalMs ?? 1000;
  if (interval > 0) {
    const stop = startScheduler(context.posts, interval, app.log);
    app.addHook('onClose', async () => stop());
  }

  await app.register(dashboardPlugin, { root: config.dashboardDir ?? '', demo: config.demo ?? (() => null) });
  return app;
}
