/**
 * The plan's look-ups in look-up workers that are retired as they go (issue 20 point 6), for plan-worker.ts: the
 * handler of the same `start`, `filters` and `end` messages as `lookupSession`, posting the same `progress`, `done`
 * and `error`.
 *
 * Why workers, and why retired: every request a Chromium context sends leaves about 22 KB of the browser's own
 * objects behind (the request, the response, their headers), which only a full garbage collection frees, and a
 * worker's collector seldom runs one. Measured with 4,400 look-ups from a worker (fetch or XMLHttpRequest alike):
 * the tab's footprint stayed flat for the first 1,100 or so, then grew by 26 MB every 1,100, and a forced
 * collection gave it all back. A 100,000-row file's 2,202 look-ups sent from the plan worker grew the tab by about
 * 40 MB at the end of the plan. A worker ended frees all it holds, so each worker here sends `perWorker` look-ups
 * (default 500) and is ended once they are answered; then the next one starts with the filters that came meanwhile
 * (one worker at a time, so 6 look-ups at most are in flight, as before). The look-ups also run on a thread of their
 * own, beside the plan worker's cleaning.
 *
 * Each worker runs `lookupSession` (lookup-worker.ts) with its own rate budget on the key's BroadcastChannel, as a tab
 * does, started from the reading the previous worker's budget ended with (`RateBudgetOptions.initial`): a fresh
 * budget knows no window until an answer or another tab tells it, and would send its first look-ups into the
 * person's reserve. The existing contacts the workers find are merged (the first found of an email or phone kept, as
 * `indexExisting` does); `requests` is their sum, `rateLimit` the last one read. The first failure ends the worker
 * running and is posted as `error` (the typed client's words; a worker that stops, `plannerStopped`); nothing more
 * is sent. The look-up workers are the plan worker's own: when the page ends the plan worker, they end with it.
 */
import { t } from '@/i18n/i18n';
import { runWorker } from '@/lib/worker-task';
import type { FilterNode } from '@/api/filter/ast';
import { emptyExisting } from './existing';
import type { LookupMessage, LookupRequest } from './lookup-session';

/** Look-ups a worker sends before it is retired (module docstring). */
export const LOOKUPS_PER_WORKER = 500;

type Done = Extract<LookupMessage, { type: 'done' }>;

export function lookupWorkers(
  post: (message: LookupMessage) => void,
  options: { perWorker?: number; spawn?: () => Worker } = {},
): (message: LookupRequest) => void {
  const perWorker = options.perWorker ?? LOOKUPS_PER_WORKER;
  const spawn = options.spawn ?? (() => new Worker(new URL('./lookup-worker.ts', import.meta.url), { type: 'module', name: 'import-lookups' }));
  let start: Extract<LookupRequest, { type: 'start' }> | null = null;
  /** Filters not yet handed to a worker. */
  const queue: FilterNode[] = [];
  /** The worker sending now: the filters handed to it, and whether it was told that no more come. */
  let current: { worker: Worker; filters: number; ended: boolean } | null = null;
  const parts: Done[] = [];
  let answered = 0;
  let total = 0;
  let ended = false;
  let settled = false;

  const fail = (error: unknown) => {
    if (settled) return;
    settled = true;
    current?.worker.terminate();
    post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  };
  const finish = () => {
    settled = true;
    const existing = emptyExisting();
    for (const part of parts) {
      for (const [key, contact] of part.existing.byEmail) if (!existing.byEmail.has(key)) existing.byEmail.set(key, contact);
      for (const [key, contact] of part.existing.byPhone) if (!existing.byPhone.has(key)) existing.byPhone.set(key, contact);
    }
    const rateLimit = parts.reduce<number | null>((last, part) => part.rateLimit ?? last, null);
    post({ type: 'done', existing, requests: parts.reduce((sum, part) => sum + part.requests, 0), rateLimit, reading: parts.at(-1)?.reading ?? null });
  };
  const open = () => {
    const worker = spawn();
    runWorker<LookupMessage, Done>(worker, {
      stopped: () => t('contacts-import.plannerStopped'),
      onMessage(message, settle) {
        // Already at most every 100 ms, and at its end (lookupSession), and one worker runs at a time.
        if (message.type === 'progress') post({ type: 'progress', done: answered + message.done, total });
        else if (message.type === 'done') settle.resolve(message);
        else settle.reject(new Error(message.message));
      },
    }).then((part) => {
      parts.push(part);
      answered += current?.filters ?? 0;
      current = null;
      dispatch();
    }, fail);
    // The budget's window as the last worker left it, so this one's first look-ups are paced as its last were.
    const reading = parts.at(-1)?.reading;
    worker.postMessage(start && reading ? { ...start, reading } : start);
    return { worker, filters: 0, ended: false };
  };
  /** Hands the queue to the worker sending now (one is started when none is), up to its share; ends it at its share. */
  const dispatch = () => {
    if (settled) return;
    if (!current) {
      if (!queue.length) return ended ? finish() : undefined;
      current = open();
    }
    if (current.ended) return;
    const taken = queue.splice(0, perWorker - current.filters);
    if (taken.length) {
      current.filters += taken.length;
      current.worker.postMessage({ type: 'filters', filters: taken } satisfies LookupRequest);
    }
    if (current.filters >= perWorker || (ended && !queue.length)) {
      current.ended = true;
      current.worker.postMessage({ type: 'end' } satisfies LookupRequest);
    }
  };

  return (message) => {
    if (message.type === 'start') start = message;
    else if (message.type === 'filters') {
      queue.push(...message.filters);
      total += message.filters.length;
    } else ended = true;
    dispatch();
  };
}
