/**
 * Where the rate limit of docs/decisions.md section 4 counts, so that every process behind a load balancer counts
 * one key's requests together (issue 8):
 * - `REDIS_URL` set: Redis, through @fastify/rate-limit's own Redis store (ioredis);
 * - otherwise PostgreSQL: the `rate_limits` table (migration `0003-rate-limits`), one atomic upsert a request;
 * - otherwise (SQLite, one process): @fastify/rate-limit's in-memory store.
 *
 * A window starts with a key's first request and lasts `timeWindow` ms; the request that finds it over
 * starts a new one (the semantics of the library's LocalStore without `continueExceeding`/`exponentialBackoff`,
 * which the service does not use). Window ends are read off each process's clock: processes on NTP-synced
 * machines agree to within milliseconds, and a skew of s seconds only moves a window's end by s.
 */
import type { FastifyRateLimitOptions, FastifyRateLimitStore, RateLimitPluginOptions } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { type Kysely, sql } from 'kysely';
import { type ServiceDatabase, precompiled } from './connection';
import type { Database } from './schema';

/** How often one process deletes expired counters, at most (ms). */
export const CLEANUP_INTERVAL_MS = 60_000;

export type RateLimitCount = {
  /** Requests counted in the current window, this one included. */
  current: number;
  /** Milliseconds until the window ends (> 0). */
  ttl: number;
};

/**
 * Counts requests per key in the `rate_limits` table: `@fastify/rate-limit`'s store interface (`incr`,
 * `child`) over `increment`. Works on both databases; the service uses it on PostgreSQL.
 */
export class DatabaseRateLimitStore implements FastifyRateLimitStore {
  private nextCleanup = 0;
  /**
   * The upsert, compiled once (it runs on every request: built each time it cost some 25 µs more of Node's CPU a
   * request on PostgreSQL, docs/benchmarks.md "What each part of a request costs"); its parameters, in order: key,
   * 1, the new window's end, now, now, the new window's end.
   */
  private readonly upsert: ReturnType<typeof precompiled<{ count: number; reset_at: number }>>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly cleanupIntervalMs = CLEANUP_INTERVAL_MS,
  ) {
    const expired = sql<boolean>`rate_limits.reset_at <= ${0}`;
    this.upsert = precompiled(
      db
        .insertInto('rate_limits')
        .values({ key: '', count: 1, reset_at: 0 })
        .onConflict((conflict) =>
          conflict.column('key').doUpdateSet({
            count: sql<number>`case when ${expired} then 1 else rate_limits.count + 1 end`,
            reset_at: sql<number>`case when ${expired} then ${0} else rate_limits.reset_at end`,
          }),
        )
        .returning(['count', 'reset_at']),
    );
  }

  /** The class to hand to `@fastify/rate-limit` as `store` (it constructs its store itself). */
  static over(db: Kysely<Database>): new (options: FastifyRateLimitOptions) => DatabaseRateLimitStore {
    return class extends DatabaseRateLimitStore {
      constructor() {
        super(db);
      }
    };
  }

  /**
   * Counts one request of `key` at `now` (ms since the epoch) in a window of `windowMs`: one statement, atomic
   * however many processes count the same key at once (a unique-key upsert). Every `cleanupIntervalMs` it
   * also deletes expired counters, without waiting for that. Rejects when the database does.
   */
  async increment(key: string, windowMs: number, now = Date.now()): Promise<RateLimitCount> {
    if (now >= this.nextCleanup) {
      this.nextCleanup = now + this.cleanupIntervalMs;
      this.removeExpired(now).catch(() => {
        this.nextCleanup = 0;
      });
    }
    const end = now + windowMs;
    const { rows } = await this.db.executeQuery(this.upsert(key, 1, end, now, now, end));
    const row = rows[0]!;
    return { current: Number(row.count), ttl: Math.max(1, Number(row.reset_at) - now) };
  }

  /** Deletes the counters whose window ended by `now`; returns how many. */
  async removeExpired(now = Date.now()): Promise<number> {
    const result = await this.db.deleteFrom('rate_limits').where('reset_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  incr(key: string, callback: (error: Error | null, result?: RateLimitCount) => void, timeWindow: number): void {
    this.increment(key, timeWindow).then(
      (result) => callback(null, result),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    );
  }

  /** Route-level limiters share the counters: keys already say whose requests they count. */
  child(): DatabaseRateLimitStore {
    return this;
  }
}

export type RateLimitStorage = {
  kind: 'memory' | 'postgres' | 'redis';
  /** What to spread into `@fastify/rate-limit`'s options. */
  options: Pick<RateLimitPluginOptions, 'store' | 'redis' | 'nameSpace'>;
  /** Closes what the storage opened (the Redis connection); the database is not its to close. */
  close(): Promise<void>;
};

/**
 * The rate-limit storage for `database`, or Redis at `redisUrl` (`redis://` or `rediss://`) when given. The
 * Redis client connects in the background and fails a request fast (one retry) while Redis is unreachable,
 * rather than queueing it; `onRedisError` hears about connection errors (a logger).
 */
export function rateLimitStorage(database: ServiceDatabase, redisUrl?: string, onRedisError: (error: Error) => void = () => {}): RateLimitStorage {
  if (redisUrl) {
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
    redis.on('error', onRedisError);
    return {
      kind: 'redis',
      options: { redis, nameSpace: 'wsa-rate-limit:' },
      close: async () => {
        await redis.quit().catch(() => redis.disconnect());
      },
    };
  }
  if (database.dialect.name === 'postgres') {
    return { kind: 'postgres', options: { store: DatabaseRateLimitStore.over(database.db) }, close: async () => {} };
  }
  return { kind: 'memory', options: {}, close: async () => {} };
}
