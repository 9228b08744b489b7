/**
 * The bulk tag job against a real service (server/test/harness.ts) through the typed client: every contact that
 * matched when the job started is reached even when the job changes the filter's result, contacts already as
 * asked are not sent, failures carry sentences, a 429 pauses and resumes, and cancelling stops early.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeContacts, insertContacts } from '../../../server/db/seed';
import { type TestServer, startServer } from '../../../server/test/harness';
import { type ApiClient, createApiClient } from '@/api/client';
import { compare } from '@/api/filter/ast';
import { type BulkProgress, rateOf, runBulkTagJob, wouldChange } from './bulk-tag-job';

let server: TestServer;
let api: ApiClient;
const patches: string[] = [];
/** When set, answers the PATCH with this number (1-based) 429 with `Retry-After: 1`, once. */
let throttlePatch: number | null = null;

let seeded = 0;
async function seed(count: number, tags: (index: number) => string[]) {
  const rows = fakeContacts(server.a.id, count, { idPrefix: seeded }).map((row, index) => ({ ...row, tags: JSON.stringify(tags(index)) }));
  seeded += count;
  await insertContacts(server.database.db, rows);
  return rows.map((row) => row.id);
}

const countWith = async (tag: string) => (await api.listContacts({ limit: 1, filter: compare('tags', 'eq', tag) })).meta.maxResults;

beforeAll(async () => {
  server = await startServer();
  api = createApiClient({
    baseUrl: server.baseUrl,
    apiKey: server.a.key,
    fetch: async (input, init) => {
      if (init?.method === 'PATCH') {
        patches.push(String(input));
        if (patches.length === throttlePatch) {
          throttlePatch = null;
          return new Response(JSON.stringify({ traceId: 't', message: 'ThrottlerException: Too Many Requests', path: '/api/contacts', timestamp: '', statusCode: 429 }), {
            status: 429,
            headers: { 'content-type': 'application/json', 'retry-after': '1' },
          });
        }
      }
      return fetch(input, init);
    },
  });
}, 60_000);
afterAll(() => server.close());

describe('runBulkTagJob', () => {
  it('reaches every contact that matched at the start, over several pages, though removing the tag shrinks the filter as it goes', async () => {
    await seed(150, (i) => (i < 130 ? ['wave'] : ['calm']));
    patches.length = 0;
    const phases: BulkProgress[] = [];
    const result = await runBulkTagJob({
      client: api,
      source: { filter: compare('tags', 'eq', 'wave') },
      change: { tagsToAdd: ['surfed', 'done'], tagsToRemove: ['wave'] },
      onProgress: (progress) => phases.push(progress),
    });
    expect(result).toMatchObject({ matched: 130, changed: 130, unchanged: 0, failures: [], cancelled: false, notReached: 0 });
    expect(await countWith('wave')).toBe(0);
    expect(await countWith('surfed')).toBe(130);
    expect(await countWith('calm')).toBe(20);
    expect(patches).toHaveLength(130);
    expect(phases.some((p) => p.phase === 'collecting' && p.total === 130)).toBe(true);
    expect(phases.at(-1)).toMatchObject({ phase: 'tagging', done: 130, total: 130 });
  });

  it('counts contacts already as asked as unchanged without sending them, and reports refusals and missing ids in sentences', async () => {
    const ids = await seed(6, (i) => (i < 3 ? ['gold'] : i === 5 ? Array.from({ length: 100 }, (_, n) => `t${n}`) : []));
    patches.length = 0;
    const result = await runBulkTagJob({
      client: api,
      source: { ids: [...ids, '00000000-0000-4000-8000-000000000000'] },
      change: { tagsToAdd: ['gold'], tagsToRemove: [] },
    });
    expect(result).toMatchObject({ matched: 6, changed: 2, unchanged: 3, missing: 1, cancelled: false, notReached: 0 });
    expect(result.failures.map((failure) => [failure.id, failure.reason])).toEqual([[ids[5], 'A contact can have at most 100 tags.']]);
    expect(patches).toHaveLength(3);
  });

  it('pauses on a 429 until Retry-After, showing when it resumes, then finishes', async () => {
    await seed(8, () => ['slow']);
    patches.length = 0;
    throttlePatch = 3;
    const waits: number[] = [];
    const result = await runBulkTagJob({
      client: api,
      source: { filter: compare('tags', 'eq', 'slow') },
      change: { tagsToAdd: ['slowed'], tagsToRemove: [] },
      concurrency: 2,
      onProgress: (progress) => {
        if (progress.waitingUntil) waits.push(progress.waitingUntil - Date.now());
      },
    });
    expect(result).toMatchObject({ matched: 8, changed: 8, failures: [] });
    expect(waits.length).toBeGreaterThan(0);
    expect(Math.max(...waits)).toBeGreaterThan(500);
    expect(await countWith('slowed')).toBe(8);
  });

  it('stops when cancelled: what was sent is counted, the rest is not reached and not changed', async () => {
    await seed(40, () => ['halt']);
    patches.length = 0;
    const controller = new AbortController();
    const result = await runBulkTagJob({
      client: api,
      source: { filter: compare('tags', 'eq', 'halt') },
      change: { tagsToAdd: ['halted'], tagsToRemove: [] },
      concurrency: 1,
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.phase === 'tagging' && progress.done === 5) controller.abort();
      },
    });
    expect(result.cancelled).toBe(true);
    expect(result.changed).toBe(5);
    expect(result.notReached).toBe(35);
    expect(await countWith('halted')).toBe(5);
  });

  it('cancelled while collecting changes nothing', async () => {
    patches.length = 0;
    const controller = new AbortController();
    controller.abort();
    const result = await runBulkTagJob({ client: api, source: { filter: undefined }, change: { tagsToAdd: ['never'], tagsToRemove: [] }, signal: controller.signal });
    expect(result).toMatchObject({ cancelled: true, changed: 0 });
    expect(patches).toHaveLength(0);
  });
});

describe('job arithmetic', () => {
  it('knows when a change alters a contact', () => {
    expect(wouldChange(['a'], { tagsToAdd: ['a'], tagsToRemove: ['b'] })).toBe(false);
    expect(wouldChange(['a'], { tagsToAdd: ['c'], tagsToRemove: [] })).toBe(true);
    expect(wouldChange(['a', 'b'], { tagsToAdd: [], tagsToRemove: ['b'] })).toBe(true);
  });

  it('gives the rate over the phase and the time left, once there is something to measure', () => {
    expect(rateOf({ done: 0, total: 100, startedAt: 0 }, 10_000)).toEqual({ perSecond: null, secondsLeft: null });
    expect(rateOf({ done: 20, total: 100, startedAt: 0 }, 10_000)).toEqual({ perSecond: 2, secondsLeft: 40 });
  });
});
