import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/api/api-error';
import type { ApiClient, StreamEventsOptions } from '@/api/client';
import type { StreamEvent } from '@/api/event-stream';
import { LiveChanges, type LiveState, streamLimitWait } from './live-changes';

/** The 429 of a sixth stream (docs/decisions.md section 13), with `retryAfter` seconds or none. */
const tooManyStreams = (retryAfter: number | null) =>
  new ApiError({ status: 429, message: 'Too many event streams: a key may hold at most 5 open', retryAfter, endpoint: 'GET /events', url: 'http://service.test/api/events' });

/**
 * A client whose `streamEvents` answers each call with the next of `answers`: an error it rejects with, or `'open'`,
 * a stream that sends a `reset` (id 41) and stays open until aborted. `calls` holds when each call came (Date.now())
 * and with which Last-Event-ID.
 */
function fakeApi(answers: ReadonlyArray<ApiError | 'open'>) {
  const calls: { at: number; lastEventId: string | undefined }[] = [];
  const api = {
    async streamEvents(options: StreamEventsOptions) {
      const answer = answers[Math.min(calls.length, answers.length - 1)]!;
      calls.push({ at: Date.now(), lastEventId: options.lastEventId });
      if (answer !== 'open') throw answer;
      queueMicrotask(() => options.onEvent({ type: 'reset', id: '41' }));
      const done = new Promise<void>((resolve) => options.signal?.addEventListener('abort', () => resolve()));
      return { done };
    },
  } as unknown as ApiClient;
  return { api, calls };
}

/** Starts a LiveChanges on `api`, recording its states and events. */
function follow(api: ApiClient, key = 'key-1') {
  const live = new LiveChanges(api, '/api', key);
  const states: LiveState[] = [];
  const events: { event: StreamEvent; resumed: boolean }[] = [];
  live.watchState((state) => states.push(state));
  live.subscribe((event, resumed) => events.push({ event, resumed }));
  live.start();
  return { live, states, events };
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('streamLimitWait', () => {
  it.each([
    [25, 0, 25],
    [25, 3, 25],
    [0, 0, 1],
    [null, 0, 30],
    [null, 1, 60],
    [null, 4, 60],
  ])('Retry-After %s, the 429 number %s in a row: waits %s s', (retryAfter, limited, seconds) => {
    expect(streamLimitWait(retryAfter, limited)).toBe(seconds);
  });
});

describe('LiveChanges after a 429 of a sixth stream', () => {
  it('pauses, tries again only after its Retry-After, and resumes with the reset handed on as a resumption', async () => {
    vi.useFakeTimers();
    const { api, calls } = fakeApi([tooManyStreams(25), tooManyStreams(25), 'open']);
    const { live, states, events } = follow(api);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    expect(live.state).toBe('paused');
    // Not a loop: nothing more until the Retry-After has passed.
    await vi.advanceTimersByTimeAsync(24_999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    expect(live.state).toBe('paused');
    await vi.advanceTimersByTimeAsync(25_000);
    expect(calls).toHaveLength(3);
    expect(calls[2]!.lastEventId).toBeUndefined();
    expect(live.state).toBe('live');
    expect(states).toEqual(['paused', 'live']);
    // Changes made during the pause were not seen: the fresh stream's reset says so (live-watch.tsx: "The list changed").
    expect(events).toEqual([{ event: { type: 'reset', id: '41' }, resumed: true }]);
    live.stop();
  });

  it('waits 30 s, then 60 s, when the 429 gives no Retry-After', async () => {
    vi.useFakeTimers();
    const { api, calls } = fakeApi([tooManyStreams(null), tooManyStreams(null), tooManyStreams(null), 'open']);
    const { live } = follow(api);
    await vi.advanceTimersByTimeAsync(0);
    const start = calls[0]!.at;
    await vi.advanceTimersByTimeAsync(200_000);
    expect(calls.map((call) => (call.at - start) / 1000)).toEqual([0, 30, 90, 150]);
    expect(live.state).toBe('live');
    live.stop();
  });

  it('hands on the reset of a stream that opened at once as a fresh start, not a resumption', async () => {
    vi.useFakeTimers();
    const { api } = fakeApi(['open']);
    const { live, states, events } = follow(api);
    await vi.advanceTimersByTimeAsync(0);
    expect(states).toEqual(['live']);
    expect(events).toEqual([{ event: { type: 'reset', id: '41' }, resumed: false }]);
    live.stop();
  });

  it('tells a tab that joins while the leading one is paused', async () => {
    // Web Locks as a browser has them, for one lock: the first request holds it until its callback's promise settles.
    let held = false;
    vi.stubGlobal('navigator', {
      locks: {
        request(_name: string, options: { signal: AbortSignal }, callback: () => Promise<void>) {
          if (held) return new Promise((_resolve, reject) => options.signal.addEventListener('abort', () => reject(new Error('aborted'))));
          held = true;
          return callback().finally(() => (held = false));
        },
      },
    });
    const { api, calls } = fakeApi([tooManyStreams(25)]);
    const leader = follow(api);
    await vi.waitFor(() => expect(leader.live.state).toBe('paused'));
    const other = follow(api);
    await vi.waitFor(() => expect(other.live.state).toBe('paused'));
    expect(other.live.leading).toBe(false);
    expect(calls).toHaveLength(1);
    other.live.stop();
    leader.live.stop();
  });
});
