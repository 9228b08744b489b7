/**
 * Reading `GET /events` (docs/decisions.md section 13; docs/live.md) with `fetch`: a browser's EventSource cannot
 * send `x-api-key`, so the typed client reads the `text/event-stream` body itself and parses it as the HTML
 * standard's event-stream format says (fields `event`, `id`, `data`, `retry`; `:` comments; CR, LF or CRLF line
 * ends; an event with no `data` line is not dispatched). Loaded with the first stream (`client.streamEvents`), off
 * the first screens. Framework-free: browsers and Node 20.
 */
import { type ChangeEvent, changeEventSchema } from './live';

/**
 * One event of the stream: `change` with its `ChangeEvent` data, or `reset` ("reload what you show": the stream
 * could not say what was missed). `id` is the position to resume from with `Last-Event-ID` (null when the event
 * carried none). Events of other types (a newer service) are passed on as `other` with their raw data.
 */
export type StreamEvent =
  | { type: 'change'; id: string | null; data: ChangeEvent }
  | { type: 'reset'; id: string | null }
  | { type: 'other'; event: string; id: string | null; data: string };

/** A parser fed with text as it arrives; calls `onEvent` for each complete event, `onRetry` for a `retry:` field (ms). */
export function eventStreamParser(onEvent: (event: StreamEvent) => void, onRetry: (ms: number) => void = () => {}) {
  let buffer = '';
  let type = '';
  let data: string[] = [];
  let id: string | null = null;
  const dispatch = () => {
    const event = type || 'message';
    const text = data.join('\n');
    const had = data.length > 0;
    type = '';
    data = [];
    if (!had) return;
    if (event === 'reset') onEvent({ type: 'reset', id });
    else if (event === 'change') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return; // not ours to guess at: a change always carries JSON
      }
      const checked = changeEventSchema.safeParse(parsed);
      if (checked.success) onEvent({ type: 'change', id, data: checked.data });
    } else onEvent({ type: 'other', event, id, data: text });
  };
  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') type = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) onRetry(Number(value));
  };
  return {
    /** Feeds the next piece of text (any split: lines and events may span pieces). */
    push(text: string) {
      buffer += text;
      for (;;) {
        const end = buffer.search(/\r\n|\r|\n/);
        if (end === -1) return;
        // A CR at the very end may be the first half of a CRLF still to come.
        if (buffer[end] === '\r' && end === buffer.length - 1) return;
        const width = buffer.startsWith('\r\n', end) ? 2 : 1;
        line(buffer.slice(0, end));
        buffer = buffer.slice(end + width);
      }
    },
  };
}

/** Reads `response`'s body to its end through `eventStreamParser`; rejects with the abort reason when `signal` aborts. */
export async function readEventStream(response: Response, onEvent: (event: StreamEvent) => void, signal?: AbortSignal, onRetry?: (ms: number) => void): Promise<void> {
  if (!response.body) return;
  const parser = eventStreamParser(onEvent, onRetry);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const cancel = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) return;
      parser.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}
