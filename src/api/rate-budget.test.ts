import { afterEach, describe, expect, it } from 'vitest';
import { type RateBudget, createRateBudget, isBudgetSkipped, readRateLimit } from './rate-budget';

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);

/** An answer carrying rate-limit headers (`limit`, `remaining`, reset in delta seconds) or none. */
function answer(status: number, rate?: { limit: number; remaining: number; reset?: number }, extra: Record<string, string> = {}): Response {
  const headers = new Headers(extra);
  if (rate) {
    headers.set('X-RateLimit-Limit', String(rate.limit));
    headers.set('X-RateLimit-Remaining', String(rate.remaining));
    if (rate.reset !== undefined) headers.set('X-RateLimit-Reset', String(rate.reset));
  }
  return new Response(status === 204 ? null : '{}', { status, headers });
}

const open: RateBudget[] = [];
function budget(options: Parameters<typeof createRateBudget>[0] = {}) {
  const made = createRateBudget(options);
  open.push(made);
  return made;
}
afterEach(() => {
  for (const made of open.splice(0)) made.close();
});

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('readRateLimit', () => {
  it.each([
    ['our service: reset in delta seconds', { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '12', 'x-ratelimit-reset': '30' }, { limit: 60, remaining: 12, resetAt: NOW + 30_000 }],
    ['a reset in epoch seconds', { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 45) }, { limit: 60, remaining: 0, resetAt: NOW + 45_000 }],
    ["the IETF draft's unprefixed names", { 'ratelimit-limit': '100', 'ratelimit-remaining': '99', 'ratelimit-reset': '5' }, { limit: 100, remaining: 99, resetAt: NOW + 5_000 }],
    ['no reset: a minute from now', { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59' }, { limit: 60, remaining: 59, resetAt: NOW + 60_000 }],
    ['a remaining above the limit is capped', { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '11', 'x-ratelimit-reset': '1' }, { limit: 10, remaining: 10, resetAt: NOW + 1_000 }],
  ])('reads %s', (_name, headers, expected) => {
    expect(readRateLimit(new Headers(headers), NOW)).toEqual(expected);
  });

  it.each([
    ['no headers', {}],
    ['a limit without remaining', { 'x-ratelimit-limit': '60' }],
    ['text that is no number', { 'x-ratelimit-limit': 'sixty', 'x-ratelimit-remaining': '1' }],
    ['a negative remaining', { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '-1' }],
  ])('gives null for %s (a service without the headers)', (_name, headers) => {
    expect(readRateLimit(new Headers(headers), NOW)).toBeNull();
  });
});

describe('a rate budget', () => {
  it('sends everything while no answer has told it a limit', async () => {
    const made = budget();
    for (const priority of ['person', 'job', 'speculative'] as const) expect(made.allows(priority)).toBe(true);
    await made.run('speculative', async () => answer(200));
    expect(made.state()).toMatchObject({ limit: null, remaining: null });
  });

  it('counts down from the headers and estimates between answers', async () => {
    const made = budget();
    await made.run('person', async () => answer(200, { limit: 60, remaining: 40, reset: 30 }));
    expect(made.state()).toMatchObject({ limit: 60, remaining: 40 });
    let release!: (response: Response) => void;
    const pending = made.run('person', () => new Promise<Response>((resolve) => (release = resolve)));
    expect(made.state().remaining).toBe(39); // counted when sent, before the answer
    release(answer(200, { limit: 60, remaining: 39, reset: 29 }));
    await pending;
    expect(made.state().remaining).toBe(39);
  });

  it('refuses a speculative request when the budget is low, without sending it', async () => {
    const made = budget({ reserve: 0.2 });
    await made.run('person', async () => answer(200, { limit: 60, remaining: 25, reset: 30 }));
    expect(made.allows('speculative')).toBe(true); // 25 left, more than twice the reserve of 12
    await made.run('person', async () => answer(200, { limit: 60, remaining: 24, reset: 30 }));
    let sent = false;
    const error = await made.run('speculative', async () => {
      sent = true;
      return answer(200);
    }).catch((failure: unknown) => failure);
    expect(isBudgetSkipped(error)).toBe(true);
    expect(sent).toBe(false);
    expect(made.allows('person')).toBe(true);
    expect(made.allows('job')).toBe(true);
  });

  it('holds jobs at the reserve while the person still gets through', async () => {
    const made = budget({ reserve: 0.2 });
    await made.run('person', async () => answer(200, { limit: 10, remaining: 3, reset: 0.2 }));
    // Reserve: ceil(10 * 0.2) = 2, so one job request may go (3 > 2), then jobs wait.
    const order: string[] = [];
    const send = (name: string) => async () => {
      order.push(name);
      return answer(200);
    };
    await made.run('job', send('job 1'));
    const job = made.run('job', send('job 2'));
    await flush();
    expect(order).toEqual(['job 1']);
    expect(made.state().waiting.job).toBe(1);
    await made.run('person', send('person'));
    expect(order).toEqual(['job 1', 'person']);
    await job; // the window refills after 200 ms
    expect(order).toEqual(['job 1', 'person', 'job 2']);
  });

  it('starts from an initial reading: a job waits at the reserve before any answer', async () => {
    const made = budget({ reserve: 0.2, initial: { limit: 10, remaining: 2, resetAt: Date.now() + 200 } });
    expect(made.state()).toMatchObject({ limit: 10, remaining: 2 });
    expect(made.allows('job')).toBe(false);
    expect(made.allows('person')).toBe(true);
    const sent: string[] = [];
    const job = made.run('job', async () => {
      sent.push('job');
      return answer(200);
    });
    await flush();
    expect(sent).toEqual([]);
    await job; // the window refills after 200 ms
    expect(sent).toEqual(['job']);
  });

  it('serves a waiting person before waiting jobs when the window refills', async () => {
    const made = budget({ reserve: 0 });
    await made.run('person', async () => answer(200, { limit: 5, remaining: 0, reset: 0.15 }));
    const order: string[] = [];
    const send = (name: string) => async () => {
      order.push(name);
      return answer(200);
    };
    const job = made.run('job', send('job'));
    const person = made.run('person', send('person'));
    await flush();
    expect(made.state().waiting).toEqual({ person: 1, job: 1 });
    await Promise.all([job, person]);
    expect(order).toEqual(['person', 'job']);
  });

  it('waits out a 429 by its Retry-After before sending again', async () => {
    const made = budget();
    await made.run('person', async () => answer(429, undefined, { 'Retry-After': '1' }));
    const state = made.state();
    expect(state.throttledUntil).toBeGreaterThan(Date.now() + 500);
    expect(state.guessed).toBe(false);
    expect(made.allows('person')).toBe(false);
    expect(made.allows('speculative')).toBe(false);
  });

  it('lets a 429 of a limit of its own (too many event streams) hold nothing else back', async () => {
    const made = budget();
    const response = await made.run('person', async () => answer(429, undefined, { 'Retry-After': '25' }), undefined, true);
    expect(response.status).toBe(429);
    expect(made.state().throttledUntil).toBe(0);
    expect(made.allows('person')).toBe(true);
  });

  it('backs off 1 s, then 2 s, after 429s without Retry-After (a service without rate headers)', async () => {
    const made = budget();
    const before = Date.now();
    await made.run('person', async () => answer(429));
    const first = made.state().throttledUntil - before;
    expect(made.state().guessed).toBe(true);
    expect(first).toBeGreaterThanOrEqual(1000);
    expect(first).toBeLessThan(1500);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = Date.now();
    await made.run('person', async () => answer(429));
    expect(made.state().throttledUntil - again).toBeGreaterThanOrEqual(2000);
  }, 10_000);

  it('rejects a waiting request with its abort reason and forgets it', async () => {
    const made = budget();
    await made.run('person', async () => answer(200, { limit: 5, remaining: 0, reset: 30 }));
    const controller = new AbortController();
    const waiting = made.run('person', async () => answer(200), controller.signal);
    await flush();
    expect(made.state().waiting.person).toBe(1);
    controller.abort(new DOMException('gone', 'AbortError'));
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(made.state().waiting.person).toBe(0);
  });

  it('is shared by two tabs on one channel: each counts what the other sends', async () => {
    const name = `test-budget-${Math.random()}`;
    const first = budget({ channelName: name });
    const second = budget({ channelName: name });
    await first.run('person', async () => answer(200, { limit: 60, remaining: 50, reset: 30 }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(second.state()).toMatchObject({ limit: 60, remaining: 50 });
    let release!: (response: Response) => void;
    const pending = second.run('job', () => new Promise<Response>((resolve) => (release = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(first.state().remaining).toBe(49);
    release(answer(429, undefined, { 'Retry-After': '5' }));
    await pending;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(first.allows('person')).toBe(false);
    expect(first.state().throttledUntil).toBeGreaterThan(Date.now() + 4000);
  });

  it('announces nothing while the service announces no limit, and counts again once an answer carries one', async () => {
    const name = `test-budget-${Math.random()}`;
    const heard: string[] = [];
    const listener = new BroadcastChannel(name);
    listener.onmessage = (event: MessageEvent<{ t: string }>) => event.data.t !== 'hello' && heard.push(event.data.t);
    try {
      const tab = budget({ channelName: name });
      for (let i = 0; i < 5; i++) await tab.run('job', async () => answer(200));
      await new Promise((resolve) => setTimeout(resolve, 20));
      // Only the first send, before any answer said there is no limit.
      expect(heard).toEqual(['spend']);
      await tab.run('job', async () => answer(200, { limit: 60, remaining: 50, reset: 30 }));
      await tab.run('job', async () => answer(200, { limit: 60, remaining: 49, reset: 30 }));
      await new Promise((resolve) => setTimeout(resolve, 20));
      // The first send after is still unannounced (the last answer had no limit); its answer's reading is told.
      expect(heard).toEqual(['spend', 'read', 'spend', 'read']);
    } finally {
      listener.close();
    }
  });

  it('tells a tab that opens later what the others know', async () => {
    const name = `test-budget-${Math.random()}`;
    const first = budget({ channelName: name });
    await first.run('person', async () => answer(200, { limit: 60, remaining: 33, reset: 30 }));
    const later = budget({ channelName: name });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(later.state()).toMatchObject({ limit: 60, remaining: 33 });
  });
});
