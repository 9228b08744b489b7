/**
 * The overview's figures from `GET /stats` (issue 35 point 5; docs/decisions.md section 12) against the real service
 * (server/test/harness.ts): every count of the overview read together costs one request, at the person's priority,
 * and equals the service's own count; the lists wait for that answer; the weeks are the service's UTC weeks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startServer } from '../../../server/test/harness';
import { createApiClient } from '@/api/client';
import { overviewFigures } from './queries';
import { utcWeekBuckets } from './week-buckets';

let server: TestServer;
const sent: { path: string; order: number }[] = [];
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('utcWeekBuckets', () => {
  it('gives the 12 ISO weeks as GET /stats counts them: Mondays at 00:00 UTC, oldest first', () => {
    const weeks = utcWeekBuckets(new Date('2026-11-28T19:00:00.000Z'));
    expect(weeks).toHaveLength(12);
    expect(weeks[11]).toEqual({ start: new Date('2026-11-23T00:00:00.000Z'), end: new Date('2026-11-30T00:00:00.000Z') });
    expect(weeks[0]!.start.toISOString()).toBe('2026-09-07T00:00:00.000Z');
    expect(utcWeekBuckets(new Date('2026-11-23T00:00:00.000Z'))[11]!.start.toISOString()).toBe('2026-11-23T00:00:00.000Z');
  });
});

describe('overviewFigures from GET /stats', () => {
  it('reads every count in one request and the lists after it', async () => {
    let order = 0;
    const priorities: string[] = [];
    const base = createApiClient({
      baseUrl: server.baseUrl,
      apiKey: server.b.key,
      fetch: async (input, init) => {
        sent.push({ path: new URL(String(input)).pathname, order: order++ });
        return fetch(input, init);
      },
    });
    const api = { ...base, stats: (options?: Parameters<typeof base.stats>[0]) => (priorities.push(options?.priority ?? ''), base.stats(options)) };
    await api.createContactsBatch({ items: [{ email: 'week.one@example.com', tags: ['vip'], addDirectly: true }, { email: 'week.two@example.com', tags: ['vip'] }] });
    sent.length = 0;
    const now = new Date();
    const weeks = utcWeekBuckets(now);
    const figures = overviewFigures(api, 'ws', weeks, now, true);
    const counts = [figures.contacts.total, figures.contacts.active, figures.contacts.pending, ...figures.contacts.weeks, figures.posts.lastMonth, figures.catalog.products, ...figures.catalog.byStatus!.map((item) => item.figure), figures.catalog.collectionsTotal!];
    const [values, tags, newest] = await Promise.all([Promise.all(counts.map((figure) => figure.read('speculative'))), figures.contacts.tags.read('speculative'), figures.posts.newest.read('speculative')]);
    expect(sent.filter((request) => request.path.endsWith('/stats'))).toHaveLength(1);
    expect(priorities).toEqual(['person']);
    // The list went out after the stats answer.
    expect(sent.map((request) => request.path.replace(/^.*\/api/, ''))).toEqual(['/stats', '/posts']);
    expect(values.slice(0, 3)).toEqual([2, 1, 1]);
    expect(values[3 + 11]).toBe(2); // this week
    expect(tags).toEqual([{ name: 'vip', count: 2 }]);
    expect(newest).toEqual([]);
    expect(figures.contacts.total.queryKey).toEqual(['ws', 'ws', 'overview', 'contacts', 'stats', 'total']);
  });
});
