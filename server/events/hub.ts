/**
 * The `GET /events` streams of one process (docs/decisions.md section 13, issue 36; docs/live.md).
 *
 * The activity log is the source of every event: a change signal (signals.ts) only says that a workspace's log may
 * have grown. Each workspace with a stream open here has one feed: after a signal it waits EVENT_COALESCE_MS (so
 * changes less than 250 ms apart go out together), reads the workspace's entries after the last one it read (by
 * `seq`, which db/activity.ts makes commit in order within a workspace) and sends them to every stream of the
 * workspace, each stream only the resources its key can read. Consecutive entries of the same resource and action
 * become one `event: change` whose `id` is the last entry's `seq`, with at most MAX_EVENT_IDS ids (`null` beyond).
 * Every stream of the feed shares the one read, so 1,000 streams of a workspace cost one query per change.
 *
 * A stream that opens with `Last-Event-ID` is first sent what it missed from the log (the same grouping), unless
 * that is not possible: an id that is not a sequence number, one the log has not reached, one older than the oldest
 * entry kept (retention deleted some of what followed), or more than REPLAY_MAX entries missed. It is then sent
 * `event: reset` (reload what you show), with the position to resume from as its `id`, as is a stream opened
 * without `Last-Event-ID`. A feed's reads, replays and resets run one after the other, so nothing falls between a
 * replay and the live events after it.
 *
 * Streams are counted over every process in `event_streams` (migration 0009): at most MAX_STREAMS_PER_KEY per key,
 * the next a 429. Every EVENT_HEARTBEAT_MS each stream gets a comment line and its row a new `seen`; a row not
 * renewed for STREAM_LEASE_MS (a crashed process's) no longer counts. A client that reads too slowly (more than
 * MAX_BUFFERED_BYTES waiting) is disconnected: it reconnects with `Last-Event-ID` and misses nothing.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { EVENT_COALESCE_MS, EVENT_HEARTBEAT_MS, MAX_EVENT_IDS, MAX_STREAMS_PER_KEY } from '../../src/api/live';
import type { Dialect } from '../db/connection';
import type { Database } from '../db/schema';
import { HttpError } from '../errors';
import type { ChangeSignal } from './signals';

/** At most this many missed entries are replayed; more are an `event: reset`. */
export const REPLAY_MAX = 1000;
/** Entries read from the log at once by a feed. */
export const READ_BATCH = 1000;
/** A stream row not renewed for this long (ms) counts no more: three heartbeats. */
export const STREAM_LEASE_MS = 3 * EVENT_HEARTBEAT_MS;
/** A stream with more than this many bytes waiting to be written is disconnected. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/** The reconnection delay a client is told (`retry:`), in ms. */
export const RETRY_MS = 3000;
/**
 * A feed reads and fans out at most once in this many coalescing waits (EVENT_COALESCE_MS; 2 × 250 ms = 500 ms): under a sustained
 * write rate a fan-out to 1,000 streams every 250 ms cost a fifth of the process's writes (docs/benchmarks.md, "Live
 * changes at scale"), and one every 500 ms still sends each change within section 13's 1 second.
 */
export const FANOUT_GAP_FACTOR = 2;

/** Where a stream's frames go: the HTTP answer, already started. */
export interface StreamSink {
  /** Writes `frame` (text, or its UTF-8 bytes when shared by many streams); never throws. */
  write(frame: string | Uint8Array): void;
  /** Bytes written but not yet sent to the client. */
  buffered(): number;
  /** Ends the answer (the client reconnects). */
  end(): void;
}

/** A stream; `resourcesKey` names its set of resources, so streams reading the same ones share their frames. */
type Stream = { id: string; keyId: string; workspaceId: string; resources: ReadonlySet<string>; resourcesKey: string; sink: StreamSink; closed: boolean };

/** An activity entry as the feed reads it; `created` in ms since the epoch. */
type Entry = { seq: number; resource: string; resource_id: string; action: string; created: number };

/** A workspace's feed; `lastRead` is when (ms, `Date.now()`) it last read the log for its streams. */
type Feed = { workspaceId: string; cursor: number; streams: Set<Stream>; chain: Promise<void>; timer: NodeJS.Timeout | null; closed: boolean; lastRead: number };

/** Options of `EventHub`; the timings are for tests (the defaults are docs/decisions.md section 13's). */
export type EventHubOptions = { coalesceMs?: number; heartbeatMs?: number; maxStreamsPerKey?: number };

/** `created` of an activity row (ISO text, or a Date from a driver that parses it) in ms since the epoch. */
const createdMs = (value: unknown): number => (typeof value === 'string' ? Date.parse(value) : new Date(value as Date).getTime());

/** An SSE frame: `event`, `id` and `data` (JSON) lines and the blank line that ends it. */
export function frame(event: string, id: number | null, data: unknown): string {
  return `event: ${event}\n${id === null ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`;
}

/**
 * The `event: change` frames for `entries` (in `seq` order) that a stream reading `resources` is sent: consecutive
 * entries of the same resource and action merged when written less than `mergeWithinMs` apart (EVENT_COALESCE_MS,
 * section 13's "changes less than 250 ms apart may be merged"), ids in order without repeats, `null` past
 * MAX_EVENT_IDS, each event's id the `seq` of its last entry (docs/decisions.md section 13).
 */
export function changeFrames(entries: readonly Entry[], resources: ReadonlySet<string>, mergeWithinMs = EVENT_COALESCE_MS): string {
  let out = '';
  let run: { resource: string; action: string; ids: Set<string>; seq: number; created: number } | null = null;
  const flush = () => {
    if (run) out += frame('change', run.seq, { resource: run.resource, ids: run.ids.size > MAX_EVENT_IDS ? null : [...run.ids], action: run.action });
  };
  for (const entry of entries) {
    if (!resources.has(entry.resource)) continue;
    if (run && run.resource === entry.resource && run.action === entry.action && entry.created - run.created < mergeWithinMs) {
      if (run.ids.size <= MAX_EVENT_IDS) run.ids.add(entry.resource_id);
      run.seq = entry.seq;
      run.created = entry.created;
      continue;
    }
    flush();
    run = { resource: entry.resource, action: entry.action, ids: new Set([entry.resource_id]), seq: entry.seq, created: entry.created };
  }
  flush();
  return out;
}

/** The answer to a stream asked for while the server shuts down (its clients reconnect to another process). */
const shuttingDown = () => new HttpError(503, 'Service Unavailable: the server is shutting down');

/** The `GET /events` streams of this process and the feeds that serve them. */
export class EventHub {
  private readonly feeds = new Map<string, Promise<Feed>>();
  private readonly streams = new Set<Stream>();
  private heartbeat: NodeJS.Timeout | null = null;
  private closing = false;
  private readonly coalesceMs: number;
  private readonly heartbeatMs: number;
  private readonly maxStreamsPerKey: number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly signal: ChangeSignal,
    private readonly log: FastifyBaseLogger,
    options: EventHubOptions = {},
  ) {
    this.coalesceMs = options.coalesceMs ?? EVENT_COALESCE_MS;
    this.heartbeatMs = options.heartbeatMs ?? EVENT_HEARTBEAT_MS;
    this.maxStreamsPerKey = options.maxStreamsPerKey ?? MAX_STREAMS_PER_KEY;
  }

  /** How many streams this process holds open. */
  get size(): number {
    return this.streams.size;
  }

  /** Tells the hub that `workspaceId`'s log may have grown (`null`: any workspace's). */
  changed(workspaceId: string | null): void {
    if (workspaceId === null) {
      for (const feed of this.feeds.values()) void feed.then((ready) => this.schedule(ready));
      return;
    }
    void this.feeds.get(workspaceId)?.then((feed) => this.schedule(feed));
  }

  /**
   * Opens a stream for key `keyId` of `workspaceId` reading `resources`: counts it against the key's limit (throws
   * HttpError 429 `Too many event streams: ...` at MAX_STREAMS_PER_KEY), then calls `start` for the sink (the route
   * writes the answer's head there) and sends the replay or the reset. Resolves once the stream is live; the stream
   * ends when the sink's client goes away (`closed`) or the hub closes.
   */
  async open(params: { keyId: string; workspaceId: string; resources: ReadonlySet<string>; lastEventId: string | undefined }, start: () => StreamSink): Promise<{ closed(): void }> {
    if (this.closing) throw shuttingDown();
    await this.ensureStarted();
    const id = randomUUID();
    await this.reserve(id, params.keyId);
    // The shutdown may have begun while the stream was counted: it has already ended the streams it knew of, and
    // a stream started now would hold its connection open, so `app.close()` would wait for it until the client
    // left. Refused instead, before the answer starts (no `await` between this check and the stream's registration).
    if (this.closing) {
      await this.release([id]);
      throw shuttingDown();
    }
    const resourcesKey = [...params.resources].sort().join(',');
    const stream: Stream = { id, keyId: params.keyId, workspaceId: params.workspaceId, resources: params.resources, resourcesKey, sink: start(), closed: false };
    this.streams.add(stream);
    stream.sink.write(`retry: ${RETRY_MS}\n\n`);
    try {
      const feed = await this.feedOf(params.workspaceId);
      await this.enqueue(feed, () => this.join(feed, stream, params.lastEventId));
    } catch (error) {
      this.log.error({ err: error }, 'events: a stream could not start');
      this.close(stream);
    }
    return { closed: () => this.close(stream) };
  }

  /** Ends every stream (the clients reconnect elsewhere) and stops listening: the server is shutting down. */
  async shutdown(): Promise<void> {
    this.closing = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    const ids = [...this.streams].map((stream) => stream.id);
    for (const stream of [...this.streams]) this.close(stream, false);
    for (const feed of this.feeds.values()) void feed.then((ready) => ready.timer && clearTimeout(ready.timer));
    this.feeds.clear();
    // A signal still starting (the first stream's) is closed once it has started, or its connection would stay.
    const signalClosed = (this.started ?? Promise.resolve()).catch(() => {}).then(() => this.signal.close());
    await Promise.all([this.release(ids), signalClosed]);
  }

  private started: Promise<void> | null = null;

  private ensureStarted(): Promise<void> {
    this.started ??= (async () => {
      await this.signal.start((workspaceId) => this.changed(workspaceId), () => this.streams.size > 0);
      if (this.closing) return;
      this.heartbeat = setInterval(() => void this.beat(), this.heartbeatMs);
      this.heartbeat.unref();
    })();
    return this.started;
  }

  /** Counts a new stream of `keyId` across processes, or throws the 429 (docs/decisions.md section 13). */
  private async reserve(id: string, keyId: string): Promise<void> {
    const now = Date.now();
    const admitted = await this.db.transaction().execute(async (trx) => {
      const lock = this.dialect.transactionLock(`event-streams:${keyId}`);
      if (lock) await lock.execute(trx);
      await trx.deleteFrom('event_streams').where('key_id', '=', keyId).where('seen', '<', now - STREAM_LEASE_MS).execute();
      const { n } = await trx.selectFrom('event_streams').select((eb) => eb.fn.countAll<number>().as('n')).where('key_id', '=', keyId).executeTakeFirstOrThrow();
      if (Number(n) >= this.maxStreamsPerKey) return false;
      await trx.insertInto('event_streams').values({ id, key_id: keyId, seen: now }).execute();
      return true;
    });
    if (!admitted) {
      throw new HttpError(429, `Too many event streams: a key may hold at most ${this.maxStreamsPerKey} open`, { 'Retry-After': String(Math.ceil(this.heartbeatMs / 1000)) });
    }
  }

  /** Deletes the rows of streams `ids` (they no longer count); logs a failure. */
  private async release(ids: readonly string[]): Promise<void> {
    for (let at = 0; at < ids.length; at += 500) {
      await this.db.deleteFrom('event_streams').where('id', 'in', ids.slice(at, at + 500)).execute().catch((error: unknown) => this.log.error({ err: error }, 'events: stream rows not deleted'));
    }
  }

  /** A heartbeat: a comment line on every stream, and their rows renewed. */
  private async beat(): Promise<void> {
    const now = Date.now();
    const ids: string[] = [];
    for (const stream of this.streams) {
      this.send(stream, ': keepalive\n\n');
      if (!stream.closed) ids.push(stream.id);
    }
    for (let at = 0; at < ids.length; at += 500) {
      await this.db
        .updateTable('event_streams')
        .set({ seen: now })
        .where('id', 'in', ids.slice(at, at + 500))
        .execute()
        .catch((error: unknown) => this.log.error({ err: error }, 'events: stream rows not renewed'));
    }
  }

  private send(stream: Stream, text: string | Uint8Array): void {
    if (stream.closed || !text.length) return;
    if (stream.sink.buffered() > MAX_BUFFERED_BYTES) {
      this.close(stream);
      return;
    }
    stream.sink.write(text);
  }

  /** Ends `stream` and forgets it; deletes its row unless the caller does (`release` false). */
  private close(stream: Stream, release = true): void {
    if (stream.closed) return;
    stream.closed = true;
    this.streams.delete(stream);
    stream.sink.end();
    void this.feeds.get(stream.workspaceId)?.then((feed) => {
      feed.streams.delete(stream);
      if (!feed.streams.size && !feed.closed) {
        feed.closed = true;
        if (feed.timer) clearTimeout(feed.timer);
        this.feeds.delete(feed.workspaceId);
      }
    });
    if (release) void this.release([stream.id]);
  }

  /** The feed of `workspaceId`, made on first use at the log's current end for the workspace. */
  private feedOf(workspaceId: string): Promise<Feed> {
    let feed = this.feeds.get(workspaceId);
    if (!feed) {
      feed = this.lastSeq(workspaceId).then((cursor) => ({ workspaceId, cursor, streams: new Set<Stream>(), chain: Promise.resolve(), timer: null, closed: false, lastRead: 0 }));
      this.feeds.set(workspaceId, feed);
      feed.catch(() => this.feeds.delete(workspaceId));
    }
    return feed;
  }

  private async lastSeq(workspaceId: string): Promise<number> {
    const row = await this.db.selectFrom('activity').select((eb) => eb.fn.max('seq').as('seq')).where('workspace_id', '=', workspaceId).executeTakeFirst();
    return Number(row?.seq ?? 0);
  }

  /** Runs `task` after the feed's earlier reads, replays and resets; a failure is logged, never thrown. */
  private enqueue(feed: Feed, task: () => Promise<void>): Promise<void> {
    feed.chain = feed.chain.then(task).catch((error: unknown) => this.log.error({ err: error, workspaceId: feed.workspaceId }, 'events: reading the activity log failed'));
    return feed.chain;
  }

  /**
   * A read of the feed EVENT_COALESCE_MS from now, or FANOUT_GAP_FACTOR times that after its last read if later,
   * unless one is already due.
   */
  private schedule(feed: Feed): void {
    if (feed.timer || feed.closed) return;
    const wait = Math.max(this.coalesceMs, feed.lastRead + FANOUT_GAP_FACTOR * this.coalesceMs - Date.now());
    feed.timer = setTimeout(() => {
      feed.timer = null;
      void this.enqueue(feed, () => this.read(feed));
    }, wait);
  }

  private entriesAfter(workspaceId: string, after: number, limit: number, upTo?: number): Promise<Entry[]> {
    let query = this.db.selectFrom('activity').select(['seq', 'resource', 'resource_id', 'action', 'created']).where('workspace_id', '=', workspaceId).where('seq', '>', after);
    if (upTo !== undefined) query = query.where('seq', '<=', upTo);
    return query
      .orderBy('seq')
      .limit(limit)
      .execute()
      .then((rows) => rows.map((row) => ({ seq: Number(row.seq), resource: row.resource, resource_id: row.resource_id, action: row.action, created: createdMs(row.created) })));
  }

  /** Reads the feed's new entries and sends them to its streams, READ_BATCH at a time. */
  private async read(feed: Feed): Promise<void> {
    feed.lastRead = Date.now();
    for (;;) {
      if (feed.closed) return;
      const entries = await this.entriesAfter(feed.workspaceId, feed.cursor, READ_BATCH);
      if (!entries.length) return;
      feed.cursor = entries[entries.length - 1]!.seq;
      // Streams reading the same resources get the same frames: built and encoded once per set of resources.
      const frames = new Map<string, Uint8Array>();
      for (const stream of feed.streams) {
        let bytes = frames.get(stream.resourcesKey);
        if (bytes === undefined) frames.set(stream.resourcesKey, (bytes = Buffer.from(changeFrames(entries, stream.resources, this.coalesceMs))));
        this.send(stream, bytes);
      }
      if (entries.length < READ_BATCH) return;
    }
  }

  /** Sends `stream` its replay (or a reset) up to the feed's position, then makes it one of the feed's streams. */
  private async join(feed: Feed, stream: Stream, lastEventId: string | undefined): Promise<void> {
    if (stream.closed) return;
    const replay = lastEventId === undefined ? null : await this.replay(feed, lastEventId, stream.resources);
    if (stream.closed) return;
    this.send(stream, replay ?? frame('reset', feed.cursor, {}));
    feed.streams.add(stream);
  }

  /** The frames a stream resuming after `lastEventId` missed, or null when the log cannot tell (then a reset). */
  private async replay(feed: Feed, lastEventId: string, resources: ReadonlySet<string>): Promise<string | null> {
    if (!/^\d{1,15}$/.test(lastEventId)) return null;
    const after = Number(lastEventId);
    const bounds = await this.db.selectFrom('activity').select((eb) => [eb.fn.min('seq').as('first'), eb.fn.max('seq').as('last')]).executeTakeFirst();
    const first = bounds?.first === null || bounds?.first === undefined ? null : Number(bounds.first);
    const last = Number(bounds?.last ?? 0);
    if (after > last) return null; // an id the log has not reached: another database, or made up
    if (first === null ? after > 0 : after + 1 < first) return null; // retention deleted entries after it
    const entries = await this.entriesAfter(feed.workspaceId, after, REPLAY_MAX + 1, feed.cursor);
    if (entries.length > REPLAY_MAX) return null;
    return changeFrames(entries, resources, this.coalesceMs);
  }
}
