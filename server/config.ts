/**
 * The service's environment (decisions.md section 8), read once: `PORT` (8080), `HOST` (127.0.0.1),
 * `DATABASE_URL` (./data/app.sqlite), `DEMO_SEED` (auto|off), `RATE_LIMIT_PER_MINUTE` (60, 0 = off),
 * `PUBLIC_URL`, `UPSTREAM_API_URL`, `CORS_ORIGINS` (comma-separated), `DASHBOARD_DIR` (the built dashboard,
 * ./dist by default), and `RATE_LIMIT_WINDOW_SECONDS` (60; the
 * window the limit counts over, shortened by the browser tests). Issue 8 (several processes over PostgreSQL,
 * docs/deploy.md) adds `REDIS_URL` (`redis://` or `rediss://`: count rate limits there instead of in
 * PostgreSQL), `SCHEDULER_INTERVAL_MS` (1000, 0 = off: how often this process publishes due scheduled
 * posts) and `TRUST_PROXY` (comma-separated addresses, CIDRs or `loopback`/`linklocal`/`uniquelocal`: the load
 * balancers whose `X-Forwarded-For` names the client address that rate limits count by; unset = none);
 * `PG_POOL_MAX` (10) is read where the pool is made, db/connection.ts. Throws on a malformed value.
 */
import { isIP } from 'node:net';

export type Config = {
  port: number;
  host: string;
  databaseUrl: string;
  demoSeed: 'auto' | 'off';
  rateLimitPerMinute: number;
  /** Length of the rate-limit window in seconds (`RATE_LIMIT_WINDOW_SECONDS`, default 60: "per minute"). */
  rateLimitWindowSeconds: number;
  publicUrl: string | undefined;
  upstreamApiUrl: string | undefined;
  corsOrigins: string[];
  /** Directory of the built dashboard (`DASHBOARD_DIR`); undefined means the repository's `dist/`. */
  dashboardDir: string | undefined;
  /** `REDIS_URL`: where rate limits are counted when set (db/rate-limit-store.ts). */
  redisUrl: string | undefined;
  /** `SCHEDULER_INTERVAL_MS`: the scheduled-post job's period in ms, 0 = this process runs no job. */
  schedulerIntervalMs: number;
  /** `TRUST_PROXY`: proxies trusted to say the client address (`X-Forwarded-For`); empty = trust none. */
  trustProxy: string[];
};

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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const demoSeed = env.DEMO_SEED ?? 'auto';
  if (demoSeed !== 'auto' && demoSeed !== 'off') throw new Error(`DEMO_SEED must be auto or off, got '${demoSeed}'`);
  return {
    port: integer('PORT', env.PORT, 8080, 65535),
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || './data/app.sqlite',
    demoSeed,
    rateLimitPerMinute: integer('RATE_LIMIT_PER_MINUTE', env.RATE_LIMIT_PER_MINUTE, 60, 1_000_000_000),
    rateLimitWindowSeconds: Math.max(1, integer('RATE_LIMIT_WINDOW_SECONDS', env.RATE_LIMIT_WINDOW_SECONDS, 60, 86_400)),
    publicUrl: env.PUBLIC_URL || undefined,
    upstreamApiUrl: env.UPSTREAM_API_URL || undefined,
    corsOrigins: (env.CORS_ORIGINS ?? '').split(',').map((origin) => origin.trim()).filter(Boolean),
    dashboardDir: env.DASHBOARD_DIR || undefined,
    redisUrl: redisUrl(env.REDIS_URL),
    schedulerIntervalMs: integer('SCHEDULER_INTERVAL_MS', env.SCHEDULER_INTERVAL_MS, 1000, 3_600_000),
    trustProxy: trustProxy(env.TRUST_PROXY),
  };
}
