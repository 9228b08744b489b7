/**
 * One change stream per browser, not per tab (issue 36 point 5; docs/decisions.md section 13): the tabs showing a
 * workspace of one key elect a leader with the Web Locks API (`navigator.locks`, the lock named after a hash of the
 * base URL and key); the leader holds `GET /events` open and posts each event on a BroadcastChannel of the same name;
 * every tab, the leader too, hands the events to its listeners. When the leader tab closes, its lock is released,
 * another tab takes it and opens the stream again with the last event id any tab saw (`Last-Event-ID`), so no change
 * is lost between them. Without Web Locks (an old browser) each tab holds its own stream.
 *
 * A stream that ends or fails is opened again after `backoffSeconds` (1, 2, 4 ... 60 s), or after the `Retry-After`
 * of a 429 (the key holds 5 streams already), which holds back none of the console's other requests (the client's
 * `ownLimit`); a 404 (a service without the extension) or 401/403 stops it. Opening counts as one request of the key's budget; the stream costs nothing
 * per change.
 */
import type { ApiClient } from '@/api/client';
import { isApiError } from '@/api/api-error';
import type { StreamEvent } from '@/api/event-stream';
import { backoffSeconds } from '../backoff';

/** Hears each event; `resumed`: the stream it came on was opened with `Last-Event-ID` (a `reset` then means changes were missed). */
export type LiveListener = (event: StreamEvent, resumed: boolean) => void;

/** What the leader posts to the other tabs; each tab keeps the last event id it saw, to resume from if it leads next. */
type Message = { kind: 'event'; event: StreamEvent; resumed: boolean };

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
  private readonly name: string;
  private channel: BroadcastChannel | null = null;
  private controller: AbortController | null = null;
  private lastEventId: string | undefined;
  /** True while this tab holds the stream. */
  leading = false;

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

  /** Joins the browser's stream: leads it when no other tab does, else listens to the leader. */
  start(): void {
    if (this.controller) return;
    const controller = new AbortController();
    this.controller = controller;
    if (typeof BroadcastChannel === 'function') {
      this.channel = new BroadcastChannel(this.name);
      this.channel.onmessage = ({ data }: MessageEvent<Message>) => {
        if (data?.kind === 'event') this.deliver(data.event, data.resumed === true);
      };
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

  private deliver(event: StreamEvent, resumed: boolean): void {
    if (event.id !== null) this.lastEventId = newer(this.lastEventId, event.id);
    for (const listener of this.listeners) listener(event, resumed);
  }

  /** Holds the stream until `signal` aborts or the service says it has none; resolves then (releasing the lock). */
  private async lead(signal: AbortSignal): Promise<void> {
    this.leading = true;
    let failures = 0;
    try {
      while (!signal.aborted) {
        try {
          const resumed = this.lastEventId !== undefined;
          const { done } = await this.api.streamEvents({
            ...(resumed ? { lastEventId: this.lastEventId } : {}),
            signal,
            priority: 'person',
            onEvent: (event) => {
              this.deliver(event, resumed);
              this.channel?.postMessage({ kind: 'event', event, resumed } satisfies Message);
            },
          });
          failures = 0;
          await done;
        } catch (error) {
          if (signal.aborted) return;
          if (isApiError(error) && [401, 403, 404].includes(error.status)) return;
          // 429: the key holds 5 streams already (other browsers); try again when the service says.
          if (isApiError(error) && error.status === 429 && error.retryAfter !== null) {
            await sleep(error.retryAfter * 1000, signal);
            continue;
          }
        }
        if (signal.aborted) return;
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
