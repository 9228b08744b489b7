/**
 * The look-up worker's session (lookup-session.ts) against the real service (server/test/harness.ts: temp SQLite
 * file): filters arriving in batches while the session runs, the existing contacts it posts back (ids and tags, by
 * lower-cased email and by phone), the key's rate limit read from the answers, and a refused key's message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startServer } from '../../../../server/test/harness';
import { inList } from '@/api/filter/ast';
import { type LookupMessage, type LookupRequest, lookupSession } from './lookup-session';

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

/** Runs a session: `start`, then each batch of `batches` a tick apart, then `end`; resolves to every message posted. */
function run(on: TestServer, apiKey: string, batches: LookupRequest[]): Promise<LookupMessage[]> {
  return new Promise((resolve) => {
    const posted: LookupMessage[] = [];
    const handle = lookupSession((message) => {
      posted.push(message);
      if (message.type !== 'progress') resolve(posted);
    });
    handle({ type: 'start', baseUrl: on.baseUrl, apiKey, channelName: `lookup-session-test-${Math.random()}`, reserve: 0.2 });
    void (async () => {
      for (const batch of batches) {
        await new Promise((next) => setTimeout(next, 5));
        handle(batch);
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
    const posted = await run(server, server.a.key, [
      { type: 'filters', filters: [inList('email', [annEmail.items[0]!.email.toLowerCase(), 'nobody@example.com'])] },
      { type: 'filters', filters: [inList('phone', [phone, '+4790000000'])] },
    ]);
    const done = posted.at(-1);
    if (done?.type !== 'done') throw new Error(`expected done, got ${JSON.stringify(done)}`);
    expect(done.requests).toBe(2);
    expect([...done.existing.byEmail]).toEqual([[annEmail.items[0]!.email.toLowerCase(), { id: ann, tags: ['old'] }]]);
    expect([...done.existing.byPhone]).toEqual([[phone, { id: bo, tags: [] }]]);
    expect(done.rateLimit).toBeNull(); // the harness's default server announces no limit
    expect(posted.at(-2)).toEqual({ type: 'progress', done: 2, total: 2 });
  });

  it("reads the key's X-RateLimit-Limit from the answers", async () => {
    const posted = await run(limited, limited.a.key, [{ type: 'filters', filters: [inList('email', ['nobody@example.com'])] }]);
    expect(posted.at(-1)).toMatchObject({ type: 'done', requests: 1, rateLimit: 600 });
  });

  it('posts the service’s reason when the key is refused', async () => {
    const posted = await run(server, 'wsk_not_a_key_of_this_service_0000000000000', [{ type: 'filters', filters: [inList('email', ['a@example.com'])] }]);
    expect(posted.at(-1)).toEqual({ type: 'error', message: 'Invalid API key' });
  });
});
