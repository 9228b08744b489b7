/**
 * How a process hears that a workspace's activity log grew, whichever process wrote (docs/decisions.md section 13,
 * issue 36; docs/live.md). A signal carries only a workspace id (or `null`: "any workspace may have changed", after
 * a reconnection or a poll): the event hub (hub.ts) then reads the log itself, so a lost or doubled signal never
 * loses or doubles an event. Three kinds:
 * - `REDIS_URL` set: Redis pub/sub on channel `wsa-events`; each process publishes its own committed writes
 *   (`publish`, called after the answer of a write) and hears everyone's.
 * - otherwise PostgreSQL: `LISTEN wsa_events`; the write's transaction itself notifies (db/activity.ts
 *   `recordActivity`), which PostgreSQL delivers at commit, so `publish` has nothing to do.
 * - otherwise SQLite: `publish` tells this process at once, and while any stream is open the log's highest `seq` is
 *   read every POLL_MS, for writes made by other processes on the same file (one indexed read of one row).
 */
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { EVENTS_CHANNEL } from '../db/activity';
import type { ServiceDatabase } from '../db/connection';

/** The Redis channel of change signals. */
export const REDIS_EVENTS_CHANNEL = 'wsa-events';
/** How often SQLite's log is polled for other processes' writes while a stream is open, in ms. */
export const POLL_MS = 250;

export type ChangeListener = (workspaceId: string | null) => void;

/** A change signal: `publish` after a committed write, `listen` to hear every process's, `close` at shutdown. */
export interface ChangeSignal {
  readonly kind: 'local' | 'postgres' | 'redis';
  /** Tells every process that `workspaceId`'s log grew. Never throws; failures go to `onError`. */
  publish(workspaceId: string): void;
  /** Starts hearing signals (idempotent). `active()` says whether anyone listens now (SQLite polls only then). */
  start(listener: ChangeListener, active: () => boolean): Promise<void>;
  close(): Promise<void>;
}

/**
 * The change signal of a process over `database`, through Redis at `redisUrl` when given. `onError` hears about
 * connection errors (a logger); none of them throws.
 */
export function changeSignal(database: ServiceDatabase, redisUrl: string | undefined, onError: (error: Error) => void): ChangeSignal {
  if (redisUrl) return redisSignal(redisUrl, onError);
  if (database.listen) return postgresSignal(database);
  return localSignal(database, onError);
}

function redisSignal(url: string, onError: (error: Error) => void): ChangeSignal {
  const options = { maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: true };
  const publisher = new Redis(url, options);
  const subscriber = new Redis(url, options);
  publisher.on('error', onError);
  subscriber.on('error', onError);
  let started = false;
  return {
    kind: 'redis',
    publish(workspaceId) {
      publisher.publish(REDIS_EVENTS_CHANNEL, workspaceId).catch(onError);
    },
    async start(listener) {
      if (started) return;
      started = true;
      subscriber.on('message', (channel: string, message: string) => {
        if (channel === REDIS_EVENTS_CHANNEL) listener(message);
      });
      // ioredis subscribes again after a reconnection; what was published meanwhile is read from the log.
      subscriber.on('ready', () => listener(null));
      await Promise.all([publisher.connect().catch(onError), subscriber.connect().catch(onError)]);
      await subscriber.subscribe(REDIS_EVENTS_CHANNEL).catch(onError);
    },
    async close() {
      await Promise.all([publisher.quit().catch(() => publisher.disconnect()), subscriber.quit().catch(() => subscriber.disconnect())]);
    },
  };
}

function postgresSignal(database: ServiceDatabase): ChangeSignal {
  let stop: (() => Promise<void>) | null = null;
  return {
    kind: 'postgres',
    publish() {},
    async start(listener) {
      if (stop) return;
      stop = await database.listen!(EVENTS_CHANNEL, (payload) => listener(payload || null), () => listener(null));
    },
    async close() {
      await stop?.();
    },
  };
}

function localSignal(database: ServiceDatabase, onError: (error: Error) => void): ChangeSignal {
  const local = new EventEmitter();
  let timer: NodeJS.Timeout | null = null;
  // Unknown until the first poll, which therefore always signals: a write just before it is not missed.
  let highest = -1;
  let polling = false;
  return {
    kind: 'local',
    publish(workspaceId) {
      local.emit('change', workspaceId);
    },
    async start(listener, active) {
      if (timer) return;
      local.on('change', listener);
      const poll = async () => {
        if (polling || !active()) return;
        polling = true;
        try {
          const row = await sql<{ seq: number | null }>`select max(seq) as seq from activity`.execute(database.db);
          const seq = Number(row.rows[0]?.seq ?? 0);
          if (seq !== highest) listener(null);
          highest = seq;
        } catch (error) {
          onError(error instanceof Error ? error : new Error(String(error)));
        } finally {
          polling = false;
        }
      };
      timer = setInterval(() => void poll(), POLL_MS);
      timer.unref();
    },
    async close() {
      if (timer) clearInterval(timer);
      timer = null;
      local.removeAllListeners();
    },
  };
}
