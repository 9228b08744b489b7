/**
 * A Server-Sent Events reader for the `GET /events` tests (docs/decisions.md section 13): opens the stream with
 * fetch, parses frames as they arrive (`event`, `id`, `data`, comment lines), and waits for the one a test expects.
 */
export type SseFrame = { event: string; id: string | null; data: any; comment: boolean };

export type OpenStream = {
  status: number;
  headers: Headers;
  /** The error body when the stream was refused. */
  body: any;
  frames: SseFrame[];
  /** Resolves with the first frame (seen or to come) after `from` that `match` accepts; rejects after `timeoutMs`. */
  next(match: (frame: SseFrame) => boolean, timeoutMs?: number, from?: number): Promise<SseFrame>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
};

/** Opens `GET <baseUrl>/events` with `key` (and `Last-Event-ID` when given). */
export async function openEvents(baseUrl: string, key: string, lastEventId?: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/events`, {
    headers: { 'x-api-key': key, accept: 'text/event-stream', ...(lastEventId === undefined ? {} : { 'Last-Event-ID': lastEventId }), ...headers },
    signal: controller.signal,
  });
  const frames: SseFrame[] = [];
  const waiters = new Set<() => void>();
  if (!response.ok) {
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined, frames, next: () => Promise.reject(new Error('refused')), ended: Promise.resolve(), close() {} };
  }
  const ended = (async () => {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let at: number;
        while ((at = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const frame: SseFrame = { event: 'message', id: null, data: undefined, comment: false };
          let data: string | null = null;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) frame.comment = true;
            else if (line.startsWith('event: ')) frame.event = line.slice(7);
            else if (line.startsWith('id: ')) frame.id = line.slice(4);
            else if (line.startsWith('data: ')) data = (data === null ? '' : `${data}\n`) + line.slice(6);
            else if (line.startsWith('retry: ')) frame.event = 'retry';
          }
          if (data !== null) frame.data = JSON.parse(data);
          frames.push(frame);
          for (const wake of waiters) wake();
        }
      }
    } catch {
      // aborted by close()
    } finally {
      for (const wake of waiters) wake();
    }
  })();
  let finished = false;
  void ended.then(() => (finished = true));
  return {
    status: response.status,
    headers: response.headers,
    body: undefined,
    frames,
    ended,
    close: () => controller.abort(),
    next(match, timeoutMs = 5000, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = frames.slice(from).find(match);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          } else if (finished) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`the stream ended without the frame; frames: ${JSON.stringify(frames)}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such frame within ${timeoutMs} ms; frames: ${JSON.stringify(frames)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

/** The change frames of `stream` so far (after index `from`). */
export const changes = (stream: OpenStream, from = 0) => stream.frames.slice(from).filter((frame) => frame.event === 'change');
