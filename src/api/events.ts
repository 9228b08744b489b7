/**
 * `GET /events`, our service's extension `events` (docs/decisions.md section 13): a Server-Sent Events stream of the
 * workspace's committed writes. This module reads one (`readEvents`) and holds the shapes of its events; the typed
 * client opens it (`ApiClient.openEvents`). Framework-free, as all of src/api.
 *
 * - `change`: `id` a growing sequence number, `data` `{ resource, ids, action }`; `ids` up to 100, `null` when more
 *   changed ("load the list again"). Changes less than 250 ms apart may come as one event.
 * - `reset`: the service could not send what a client missed since its `Last-Event-ID`: load everything again.
 * - Comment lines (every 25 s) keep the connection open; they are not events.
 */
import { EventSourceParserStream } from 'eventsource-parser/stream';
import * as z from 'zod/mini';

/** `data` of a `change` event; unknown fields (a newer service) are kept. */
export const changeEventSchema = z.looseObject({
  resource: z.string(),
  ids: z.nullable(z.array(z.string())),
  action: z.string(),
});
export type ChangeEvent = z.infer<typeof changeEventSchema>;

/** An event of the stream: a change with its id, or a reset (its id, when the service sent one). */
export type LiveEvent = { type: 'change'; id: string; change: ChangeEvent } | { type: 'reset'; id: string | undefined };

/**
 * The events of an SSE `body`, in order, until the stream ends (the service closed it: resolves) or fails
 * (rejects with the reading's error, an `AbortError` when the caller's signal ended it). Events of other types and
 * `change` events whose data is not the shape above are skipped: a newer service may send more.
 */
export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<LiveEvent> {
  // TypeScript's DOM types give TextDecoderStream a writable side of BufferSource, which Uint8Array is.
  const decoder = new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>;
  const reader = body.pipeThrough(decoder).pipeThrough(new EventSourceParserStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value.event === 'reset') {
        yield { type: 'reset', id: value.id };
        continue;
      }
      if (value.event !== 'change' || value.id === undefined) continue;
      let data: unknown;
      try {
        data = JSON.parse(value.data);
      } catch {
        continue;
      }
      const parsed = changeEventSchema.safeParse(data);
      if (parsed.success) yield { type: 'change', id: value.id, change: parsed.data };
    }
  } finally {
    reader.releaseLock();
  }
}
