/**
 * The plan's look-ups against the real service (server/test/harness.ts: temp SQLite file):
 * - a look-up worker's session (lookup-session.ts): filters arriving in batches while the session runs, the existing
 *   contacts it posts back (ids and tags, by lower-cased email and by phone), the key's rate limit read from the
 *   answers, and a refused key's message;
 * - the retired look-up workers (lookup-workers.ts), which answer the same messages. Node has no Web Worker, so each
 *   "worker" is a stand-in that runs the look-up worker's own session in this process: what is checked is how the
 *   filters are shared out (one worker at a time, each its share at most, each ended and then terminated) and what
 *   is posted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startServer } from '../../../../server/test/harness';
import { type FilterNode, inList } from '@/api/filter/ast';
import { type LookupMessage, type LookupRequest, lookupSession } from './lookup-session';
import { lookupWorkers } from './lookup-workers';

let server: TestServer;
let limited: TestServer;

beforeAll(async () => {
  [server, limited] = await Promise.all([startServer(), startServer({ rateLimitPerMinute: 600 })]);
});
afterAll(async () => {
  await Promise.all([server?.close(), limited?.close()]);
});

async function create(on: TestServer, body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${on.baseUrl}/contacts`, { method: 'POST', headers: { 'x-api-key': on.a.key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/**
 * Runs look-ups through `handler` (a session by default): `start`, then each batch of filters a few milliseconds
 * apart, then `end`; resolves to every message posted.
 */
function run(
  on: TestServer,
  apiKey: string,
  batches: FilterNode[][],
  handler: (post: (message: LookupMessage) => void) => (message: LookupRequest) => void = lookupSession,
): Promise<LookupMessage[]> {
  return new Promise((resolve) => {
    const posted: LookupMessage[] = [];
    const handle = handler((message) => {
      posted.push(message);
      if (message.type !== 'progress') resolve(posted);
    });
    handle({ type: 'start', baseUrl: on.baseUrl, apiKey, channelName: `lookup-test-${Math.random()}`, reserve: 0.2 });
    void (async () => {
      for (const batch of batches) {
        await new Promise((next) => setTimeout(next, 5));
        handle({ type: 'filters', filters: batch });
      }
      handle({ type: 'end' });
    })();
  });
}

describe('lookupSession', () => {
  it('looks up filters as they arrive and posts the existing contacts by lower-cased email and by phone', async () => {
    const ann = await create(server, { email: `Ann.${Date.now()}@Example.com`, tags: ['old'] });
    const annEmail = (await (await fetch(`${server.baseUrl}/contacts?$filter=${encodeURIComponent(`id eq '${ann}'`)}`, { headers: { 'x-api-key': server.a.key } })).json()) as {
      items: { email: string }[];
    };
    const phone = `+4791${String(Date.now()).slice(-6)}`;
    const bo = await create(server, { phone, name: 'Bo' });
    const posted = await run(server, server.a.key, [[inList('email', [annEmail.items[0]!.email.toLowerCase(), 'nobody@example.com'])], [inList('phone', [phone, '+4790000000'])]]);
    const done = posted.at(-1);
    if (done?.type !== 'done') throw new Error(`expected done, got ${JSON.stringify(done)}`);
    expect(done.requests).toBe(2);
    expect([...done.existing.byEmail]).toEqual([[annEmail.items[0]!.email.toLowerCase(), { id: ann, tags: ['old'] }]]);
    expect([...done.existing.byPhone]).toEqual([[phone, { id: bo, tags: [] }]]);
    expect(done.rateLimit).toBeNull(); // the harness's default server announces no limit
    expect(posted.at(-2)).toEqual({ type: 'progress', done: 2, total: 2 });
  });

  it("reads the key's X-RateLimit-Limit from the answers", async () => {
    const posted = await run(limited, limited.a.key, [[inList('email', ['nobody@example.com'])]]);
    expect(posted.at(-1)).toMatchObject({ type: 'done', requests: 1, rateLimit: 600 });
  });

  it('posts the service’s reason when the key is refused', async () => {
    const posted = await run(server, 'wsk_not_a_key_of_this_service_0000000000000', [[inList('email', ['a@example.com'])]]);
    expect(posted.at(-1)).toEqual({ type: 'error', message: 'Invalid API key' });
  });
});

/** Stand-in workers running `lookupSession`; records what each was sent, how many ran at once, and terminations. */
function standIns() {
  const spawned: { received: LookupRequest[]; terminated: boolean }[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const spawn = () => {
    const record = { received: [] as LookupRequest[], terminated: false };
    spawned.push(record);
    running++;
    mostAtOnce = Math.max(mostAtOnce, running);
    const worker = {
      onmessage: null as ((event: MessageEvent<LookupMessage>) => void) | null,
      onerror: null,
      postMessage(message: LookupRequest) {
        record.received.push(message);
        queueMicrotask(() => handle(message));
      },
      terminate() {
        if (!record.terminated) running--;
        record.terminated = true;
      },
    };
    const handle = lookupSession((message) => !record.terminated && worker.onmessage?.({ data: message } as MessageEvent<LookupMessage>));
    return worker as unknown as Worker;
  };
  return { spawn, spawned, mostAtOnce: () => mostAtOnce };
}

/** `lookupWorkers` on the stand-ins, `perWorker` look-ups each, as `run`'s handler. */
const inWorkers = (workers: ReturnType<typeof standIns>, perWorker: number) => (post: (message: LookupMessage) => void) => lookupWorkers(post, { perWorker, spawn: workers.spawn });

describe('lookupWorkers', () => {
  it('shares the filters out to one worker at a time, each ended at its share and terminated, and merges what they found', async () => {
    const stamp = Date.now();
    const ann = await create(server, { email: `Ann.${stamp}@Example.com`, tags: ['old'] });
    const phone = `+4792${String(stamp).slice(-6)}`;
    const bo = await create(server, { phone, name: 'Bo' });
    const nobody = (n: number) => inList('email', [`nobody.${stamp}.${n}@example.com`]);
    const workers = standIns();
    const posted = await run(server, server.a.key, [[nobody(1), inList('email', [`ann.${stamp}@example.com`]), nobody(2)], [nobody(3), inList('phone', [phone])]], inWorkers(workers, 2));
    const done = posted.at(-1);
    if (done?.type !== 'done') throw new Error(`expected done, got ${JSON.stringify(done)}`);
    expect(done.requests).toBe(5);
    expect([...done.existing.byEmail]).toEqual([[`ann.${stamp}@example.com`, { id: ann, tags: ['old'] }]]);
    expect([...done.existing.byPhone]).toEqual([[phone, { id: bo, tags: [] }]]);
    expect(posted.at(-2)).toEqual({ type: 'progress', done: 5, total: 5 });
    expect(workers.spawned).toHaveLength(3);
    expect(workers.mostAtOnce()).toBe(1);
    for (const worker of workers.spawned) {
      const filters = worker.received.flatMap((message) => (message.type === 'filters' ? message.filters : []));
      expect(filters.length).toBeLessThanOrEqual(2);
      expect(worker.received[0]?.type).toBe('start');
      expect(worker.received.at(-1)).toEqual({ type: 'end' });
      expect(worker.terminated).toBe(true);
    }
  });

  it("starts each next worker's budget from the reading the last one ended with, so it knows the key's window at once", async () => {
    const workers = standIns();
    const posted = await run(limited, limited.a.key, [[inList('email', ['a@example.com']), inList('email', ['b@example.com'])]], inWorkers(workers, 1));
    expect(posted.at(-1)).toMatchObject({ type: 'done', requests: 2, rateLimit: 600, reading: { limit: 600 } });
    const [first, second] = workers.spawned.map((worker) => worker.received[0]);
    expect(first).toMatchObject({ type: 'start' });
    expect(first).not.toHaveProperty('reading');
    expect(second).toMatchObject({ type: 'start', reading: { limit: 600 } });
    const reading = (second as Extract<LookupRequest, { type: 'start' }>).reading!;
    expect(reading.remaining).toBeLessThan(600);
  });

  it('posts done with nothing found and starts no worker when there is nothing to look up', async () => {
    const workers = standIns();
    const posted = await run(server, server.a.key, [], inWorkers(workers, 2));
    expect(posted.at(-1)).toMatchObject({ type: 'done', requests: 0, rateLimit: null });
    expect(workers.spawned).toHaveLength(0);
  });

  it('posts the service’s reason when the key is refused, and ends the worker', async () => {
    const workers = standIns();
    const posted = await run(server, 'wsk_not_a_key_of_this_service_0000000000000', [[inList('email', ['a@example.com'])], [inList('email', ['b@example.com'])]], inWorkers(workers, 1));
    expect(posted.at(-1)).toEqual({ type: 'error', message: 'Invalid API key' });
    expect(workers.spawned.every((worker) => worker.terminated)).toBe(true);
  });
});
