/**
 * One change stream per browser, not per tab (issue 36 point 5; docs/decisions.md section 13): the tabs showing a
 * workspace of one key elect a leader with the Web Locks API (`navigator.locks`, the lock named after a hash of the
 * base URL and key); the leader holds `GET /events` open and posts each event on a BroadcastChannel of the same name;
 * every tab, the leader too, hands the events to its listeners. When the leader tab closes, its lock is released,
 * another tab takes it and opens the stream again with the last event id any tab saw (`Last-Event-ID`), so no change
 * is lost between them. Without Web Locks (an old browser) each tab holds its own stream.
 *
 * A stream that ends or fails is opened again after `backoffSeconds` (1, 2, 4 ... 60 s). A 429 (the key holds 5
 * streams already, in other browsers) holds back none of the console's other requests (the client's `ownLimit`): the
 * stream is `paused`, which the screens say (live-notice.tsx) and every tab hears, and is tried again after the
 * 429's `Retry-After` (25 s from our service), or 30 s then 60 s when it gives none (`streamLimitWait`), until a slot
 * frees. A 404 (a service without the extension) or 401/403 stops it. Opening counts as one request of the key's
 * budget; the stream costs nothing per change. The first stream opened after one that could not open (a 429, a
 * failure) without `Last-Event-ID` may have missed changes meanwhile: its `reset` is handed on as a resumption's
 * (`resumed`), so the screens say the list changed.
 */
import type { ApiClient } from '@/api/client';
import { isApiError } from '@/api/api-error';
import type { StreamEvent } from '@/api/event-stream';
import { MAX_BACKOFF_SECONDS, backoffSeconds } from '../backoff';

/**
 * Hears each event; `resumed`: the stream it came on was opened with `Last-Event-ID`, or after a stream could not open
 * (a `reset` then means changes were missed).
 */
export type LiveListener = (event: StreamEvent, resumed: boolean) => void;

/**
 * Where the browser's stream stands: `connecting` (not open yet, or opening again after it ended or failed), `live`
 * (open), `paused` (the service answered 429: the key holds all the streams it may, docs/decisions.md section 13; it
 * stays paused until a stream opens).
 */
export type LiveState = 'connecting' | 'live' | 'paused';

/**
 * What the leader posts to the other tabs: each event (each tab keeps the last event id it saw, to resume from if it
 * leads next) and each change of the stream's state; a tab that joins asks for the state (`ask`).
 */
type Message = { kind: 'event'; event: StreamEvent; resumed: boolean } | { kind: 'state'; state: LiveState } | { kind: 'ask' };

/** The wait after a 429 of the stream's limit that gives no `Retry-After`, in seconds, doubled once (docs/live.md). */
export const STREAM_LIMIT_WAIT_SECONDS = 30;

/**
 * Seconds to wait before opening the stream again after the `limited`-th 429 in a row (0 for the first): its
 * `Retry-After` (at least 1 s), else 30 s, then 60 s. Another browser's stream may close at any time and the service
 * cannot say when, so the wait stays short enough to resume soon and long enough to cost little of the budget.
 */
export function streamLimitWait(retryAfter: number | null, limited: number): number {
  if (retryAfter !== null) return Math.max(1, retryAfter);
  return Math.min(MAX_BACKOFF_SECONDS, STREAM_LIMIT_WAIT_SECONDS * 2 ** Math.max(0, limited));
}

/** FNV-1a of `text` as 8 hex digits: a lock and channel name that does not spell out the key. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * The change stream (`GET /events`, docs/decisions.md section 13) of one key, shared by this browser's tabs. `start`
 * once, `stop` when the workspace is left.
 */
export class LiveChanges {
  private readonly listeners = new Set<LiveListener>();
  private readonly stateListeners = new Set<(state: LiveState) => void>();
  private readonly name: string;
  private channel: BroadcastChannel | null = null;
  private controller: AbortController | null = null;
  private lastEventId: string | undefined;
  /** True while this tab holds the stream. */
  leading = false;
  /** Where the browser's stream stands (this tab's, or the leading tab's as it last said). */
  state: LiveState = 'connecting';

  constructor(
    private readonly api: ApiClient,
    baseUrl: string,
    apiKey: string,
  ) {
    this.name = `workspace-admin.events.${shortHash(`${baseUrl}\n${apiKey}`)}`;
  }

  /** Calls `listener` with every event until the returned function is called. */
  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` with each change of `state` until the returned function is called. */
  watchState(listener: (state: LiveState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Joins the browser's stream: leads it when no other tab does, else listens to the leader. */
  start(): void {
    if (this.controller) return;
    const controller = new AbortController();
    this.controller = controller;
    if (typeof BroadcastChannel === 'function') {
      this.channel = new BroadcastChannel(this.name);
      this.channel.onmessage = ({ data }: MessageEvent<Message>) => {
        if (data?.kind === 'event') this.deliver(data.event, data.resumed === true);
        else if (data?.kind === 'state' && !this.leading) this.setState(data.state);
        else if (data?.kind === 'ask' && this.leading) this.channel?.postMessage({ kind: 'state', state: this.state } satisfies Message);
      };
      // A tab that joins while another leads hears the stream's state from it (a pause began before it opened).
      this.channel.postMessage({ kind: 'ask' } satisfies Message);
    }
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
    if (!locks || !this.channel) {
      void this.lead(controller.signal);
      return;
    }
    locks.request(this.name, { signal: controller.signal }, () => this.lead(controller.signal)).catch(() => undefined);
  }

  /** Leaves the stream (closing it when this tab leads, which lets another tab take over). */
  stop(): void {
    this.controller?.abort();
    this.controller = null;
    this.channel?.close();
    this.channel = null;
    this.leading = false;
  }

  /** Sets `state`, tells this tab's listeners and, leading, the other tabs. */
  private setState(state: LiveState): void {
    if (state === this.state) return;
    this.state = state;
    if (this.leading) this.channel?.postMessage({ kind: 'state', state } satisfies Message);
    for (const listener of this.stateListeners) listener(state);
  }

  private deliver(event: StreamEvent, resumed: boolean): void {
    if (event.id !== null) this.lastEventId = newer(this.lastEventId, event.id);
    for (const listener of this.listeners) listener(event, resumed);
  }

  /** Holds the stream until `signal` aborts or the service says it has none; resolves then (releasing the lock). */
  private async lead(signal: AbortSignal): Promise<void> {
    this.leading = true;
    let failures = 0;
    /** 429s in a row. */
    let limited = 0;
    /** A stream could not open since the last one that did: one opened now without `Last-Event-ID` may have missed changes. */
    let missed = false;
    try {
      while (!signal.aborted) {
        try {
          const resumed = this.lastEventId !== undefined || missed;
          const { done } = await this.api.streamEvents({
            ...(this.lastEventId !== undefined ? { lastEventId: this.lastEventId } : {}),
            signal,
            priority: 'person',
            onEvent: (event) => {
              this.deliver(event, resumed);
              this.channel?.postMessage({ kind: 'event', event, resumed } satisfies Message);
            },
          });
          failures = 0;
          limited = 0;
          missed = false;
          this.setState('live');
          await done;
        } catch (error) {
          if (signal.aborted) return;
          if (isApiError(error) && [401, 403, 404].includes(error.status)) return;
          missed = true;
          // 429: the key holds 5 streams already (other browsers); paused, tried again when the service says.
          if (isApiError(error) && error.status === 429) {
            this.setState('paused');
            await sleep(streamLimitWait(error.retryAfter, limited++) * 1000, signal);
            continue;
          }
        }
        if (signal.aborted) return;
        if (this.state === 'live') this.setState('connecting');
        await sleep(backoffSeconds(failures++) * 1000, signal);
      }
    } finally {
      this.leading = false;
    }
  }
}

/** The later of two event ids (growing sequence numbers; compared as numbers when both are). */
function newer(current: string | undefined, id: string): string {
  if (current === undefined) return id;
  const [a, b] = [Number(current), Number(id)];
  return Number.isFinite(a) && Number.isFinite(b) ? (b > a ? id : current) : id;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
