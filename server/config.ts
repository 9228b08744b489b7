/**
 * The service's environment (docs/decisions.md section 8), read once: `PORT` (8080), `HOST` (127.0.0.1),
 * `DATABASE_URL` (./data/app.sqlite), `DEMO_SEED` (auto|off), `RATE_LIMIT_PER_MINUTE` (60, 0 = off),
 * `PUBLIC_URL`, `UPSTREAM_API_URL`, `CORS_ORIGINS` (comma-separated), `DASHBOARD_DIR` (the built dashboard,
 * ./dist by default), and `RATE_LIMIT_WINDOW_SECONDS` (60; the
 * window the limit counts over, shortened by the browser tests). Issue 8 (several processes over PostgreSQL,
 * docs/deploy.md) adds `REDIS_URL` (`redis://` or `rediss://`: count rate limits there instead of in
 * PostgreSQL), `SCHEDULER_INTERVAL_MS` (1000, 0 = off: how often this process publishes due scheduled
 * posts) and `TRUST_PROXY` (comma-separated addresses, CIDRs or `loopback`/`linklocal`/`uniquelocal`: the load
 * balancers whose `X-Forwarded-For` names the client address that rate limits count by; unset = none);
 * `PG_POOL_MAX` (10) is read where the pool is made, db/connection.ts. Issue 15 adds proxy mode:
 * `UPSTREAM_API_URL` (an absolute http(s) URL of the upstream API base, no credentials, query or fragment; its
 * trailing slash dropped) and `UPSTREAM_TIMEOUT_MS` (30000: how long the proxy waits for the upstream's headers,
 * and between two chunks of its body, before answering 504), and, in either mode, `API_ORIGINS`
 * (comma-separated origins `scheme://host[:port]` the console may call besides its own, allowed in the
 * Content-Security-Policy's `connect-src`).
 * Issue 12 adds the connection timeouts in milliseconds, 0 = off (plugins/transport.ts): `HEADERS_TIMEOUT_MS`
 * (10000), `REQUEST_TIMEOUT_MS` (30000, not below the headers timeout), `KEEP_ALIVE_TIMEOUT_MS` (72000),
 * `IDLE_TIMEOUT_MS` (60000), and `EXPORT_CONCURRENCY` (3 since issue 21, at least 1: spreadsheet exports one
 * process runs at once; more wait in its queue, export/export-slots.ts). Issue 33 adds `ACTIVITY_RETENTION_DAYS` (400, 0 =
 * keep all) and `ACTIVITY_LOG` (on|off, default on), docs/decisions.md section 11. Issue 21 adds `DEMO_PUBLIC` (on|off,
 * default off: offer the one-click demo when `HOST` is not a loopback address, server/demo-exposure.ts).
 * Issue 37 adds `SHUTDOWN_GRACE_MS` (5000, from 1 to 60000: after SIGTERM/SIGINT, how long requests in flight,
 * exports included, may go on before their connections are cut, server/main.ts; docs/deploy.md "Stopping").
 * Throws on a malformed value.
 */
import { isIP } from 'node:net';
import { DEFAULT_EXPORT_CONCURRENCY } from './export/export-slots';
import { DEFAULT_TIMEOUTS, type TransportTimeouts } from './plugins/transport';

export type Config = {
  port: number;
  host: string;
  databaseUrl: string;
  demoSeed: 'auto' | 'off';
  rateLimitPerMinute: number;
  /** Length of the rate-limit window in seconds (`RATE_LIMIT_WINDOW_SECONDS`, default 60: "per minute"). */
  rateLimitWindowSeconds: number;
  publicUrl: string | undefined;
  /** `UPSTREAM_API_URL`: proxy mode when set (docs/decisions.md section 0); normalized without a trailing slash. */
  upstreamApiUrl: string | undefined;
  /** `UPSTREAM_TIMEOUT_MS`: the proxy's wait for the upstream's headers and between body chunks, in ms. */
  upstreamTimeoutMs: number;
  /** `SHUTDOWN_GRACE_MS`: after SIGTERM/SIGINT, how long requests in flight may go on before their connections are cut (ms). */
  shutdownGraceMs: number;
  /** `API_ORIGINS`: origins the console may call besides its own (CSP `connect-src`), normalized by `URL`. */
  apiOrigins: string[];
  corsOrigins: string[];
  /** Directory of the built dashboard (`DASHBOARD_DIR`); undefined means the repository's `dist/`. */
  dashboardDir: string | undefined;
  /** `REDIS_URL`: where rate limits are counted when set (db/rate-limit-store.ts). */
  redisUrl: string | undefined;
  /** `SCHEDULER_INTERVAL_MS`: the scheduled-post job's period in ms, 0 = this process runs no job. */
  schedulerIntervalMs: number;
  /** `TRUST_PROXY`: proxies trusted to say the client address (`X-Forwarded-For`); empty = trust none. */
  trustProxy: string[];
  /** `HEADERS_TIMEOUT_MS`, `REQUEST_TIMEOUT_MS`, `KEEP_ALIVE_TIMEOUT_MS`, `IDLE_TIMEOUT_MS` (ms, 0 = off). */
  timeouts: TransportTimeouts;
  /** `EXPORT_CONCURRENCY`: spreadsheet exports this process runs at once; more wait in the export queue. */
  exportConcurrency: number;
  /** `ACTIVITY_RETENTION_DAYS` (400, 0 = keep all): days an activity entry is kept (docs/decisions.md section 11). */
  activityRetentionDays: number;
  /** `ACTIVITY_LOG` (`on`/`off`, default on): `off` keeps no activity log and offers no `activity` extension. */
  activityLog: boolean;
  /** `DEMO_PUBLIC` (`on`/`off`, default off): offer the one-click demo even when `HOST` is not loopback (demo-exposure.ts). */
  demoPublic: boolean;
};

/** `on` or `off` (empty: `fallback`); anything else throws naming the variable. */
function onOff(name: string, value: string | undefined, fallback: boolean): boolean {
  if (!value) return fallback;
  if (value !== 'on' && value !== 'off') throw new Error(`${name} must be on or off, got '${value}'`);
  return value === 'on';
}

function integer(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) > max) throw new Error(`${name} must be an integer from 0 to ${max}, got '${value}'`);
  return Number(value);
}

function redisUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!/^rediss?:\/\/./.test(value) || !URL.canParse(value)) throw new Error('REDIS_URL must be a redis:// or rediss:// URL');
  return value;
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function trustProxy(value: string | undefined): string[] {
  const entries = (value ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.split('/');
    const maxPrefix = isIP(address) === 4 ? 32 : 128;
    const ok = PROXY_NAMES.includes(entry) || (isIP(address) !== 0 && extra === undefined && (prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= maxPrefix)));
    if (!ok) throw new Error(`TRUST_PROXY must list IP addresses, CIDRs or ${PROXY_NAMES.join('/')}, separated by commas; got '${entry}'`);
  }
  return entries;
}

/** `UPSTREAM_API_URL` checked and normalized (`https://api.example.com/` gives `https://api.example.com`). */
function upstreamApiUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash) {
    const shown = value.includes('@') ? 'a URL with credentials' : `'${value}'`; // never echo a secret
    throw new Error(`UPSTREAM_API_URL must be an absolute http:// or https:// URL without credentials, query or fragment, such as https://api.example.com or http://127.0.0.1:8080/api; got ${shown}`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** `API_ORIGINS` checked: each entry an http(s) origin with no path, query or credentials (a trailing `/` is allowed). */
function apiOrigins(value: string | undefined): string[] {
  const entries = (value ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  return entries.map((entry) => {
    const url = URL.canParse(entry) ? new URL(entry) : null;
    const plain = url && (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && url.pathname === '/' && !url.search && !url.hash && !entry.includes('*');
    const shown = entry.includes('@') ? 'an entry with credentials' : `'${entry}'`;
    if (!url || !plain) throw new Error(`API_ORIGINS must list origins such as https://api.example.com or http://10.0.0.5:8080 (scheme, host, optional port; no path), separated by commas; got ${shown}`);
    return url.origin;
  });
}

const DAY_MS = 86_400_000;

function timeouts(env: NodeJS.ProcessEnv): TransportTimeouts {
  const result = {
    headersMs: integer('HEADERS_TIMEOUT_MS', env.HEADERS_TIMEOUT_MS, DEFAULT_TIMEOUTS.headersMs, DAY_MS),
    requestMs: integer('REQUEST_TIMEOUT_MS', env.REQUEST_TIMEOUT_MS, DEFAULT_TIMEOUTS.requestMs, DAY_MS),
    keepAliveMs: integer('KEEP_ALIVE_TIMEOUT_MS', env.KEEP_ALIVE_TIMEOUT_MS, DEFAULT_TIMEOUTS.keepAliveMs, DAY_MS),
    idleMs: integer('IDLE_TIMEOUT_MS', env.IDLE_TIMEOUT_MS, DEFAULT_TIMEOUTS.idleMs, DAY_MS),
  };
  if (result.requestMs > 0 && result.headersMs > result.requestMs) {
    throw new Error(`HEADERS_TIMEOUT_MS (${result.headersMs}) must not be greater than REQUEST_TIMEOUT_MS (${result.requestMs})`);
  }
  return result;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const demoSeed = env.DEMO_SEED ?? 'auto';
  if (demoSeed !== 'auto' && demoSeed !== 'off') throw new Error(`DEMO_SEED must be auto or off, got '${demoSeed}'`);
  const demoPublic = env.DEMO_PUBLIC || 'off';
  if (demoPublic !== 'on' && demoPublic !== 'off') throw new Error(`DEMO_PUBLIC must be on or off, got '${demoPublic}'`);
  return {
    port: integer('PORT', env.PORT, 8080, 65535),
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || './data/app.sqlite',
    demoSeed,
    rateLimitPerMinute: integer('RATE_LIMIT_PER_MINUTE', env.RATE_LIMIT_PER_MINUTE, 60, 1_000_000_000),
    rateLimitWindowSeconds: Math.max(1, integer('RATE_LIMIT_WINDOW_SECONDS', env.RATE_LIMIT_WINDOW_SECONDS, 60, 86_400)),
    publicUrl: env.PUBLIC_URL || undefined,
    upstreamApiUrl: upstreamApiUrl(env.UPSTREAM_API_URL),
    upstreamTimeoutMs: Math.max(1, integer('UPSTREAM_TIMEOUT_MS', env.UPSTREAM_TIMEOUT_MS, 30_000, 3_600_000)),
    shutdownGraceMs: Math.max(1, integer('SHUTDOWN_GRACE_MS', env.SHUTDOWN_GRACE_MS, 5_000, 60_000)),
    apiOrigins: apiOrigins(env.API_ORIGINS),
    corsOrigins: (env.CORS_ORIGINS ?? '').split(',').map((origin) => origin.trim()).filter(Boolean),
    dashboardDir: env.DASHBOARD_DIR || undefined,
    redisUrl: redisUrl(env.REDIS_URL),
    schedulerIntervalMs: integer('SCHEDULER_INTERVAL_MS', env.SCHEDULER_INTERVAL_MS, 1000, 3_600_000),
    trustProxy: trustProxy(env.TRUST_PROXY),
    timeouts: timeouts(env),
    exportConcurrency: Math.max(1, integer('EXPORT_CONCURRENCY', env.EXPORT_CONCURRENCY, DEFAULT_EXPORT_CONCURRENCY, 1000)),
    activityRetentionDays: integer('ACTIVITY_RETENTION_DAYS', env.ACTIVITY_RETENTION_DAYS, 400, 1_000_000),
    activityLog: onOff('ACTIVITY_LOG', env.ACTIVITY_LOG, true),
    demoPublic: demoPublic === 'on',
  };
}
