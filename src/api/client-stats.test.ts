/**
 * The typed client's aggregate and batch methods (docs/decisions.md section 12, issue 35) against the real service
 * (server/test/harness.ts): `stats`, `contactStats`, `createContactsBatch` with its Idempotency-Key replay, and
 * `tagContacts` over a filter and over ids; and their 404 on the hosted-service stand-in, which has none of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startServer } from '../../server/test/harness';
import { HOSTED_KEY, type HostedStandIn, startHostedStandIn } from '../../server/test/hosted-stand-in';
import { isApiError } from './api-error';
import { type ApiClient, createApiClient } from './client';
import { compare } from './filter/ast';

let server: TestServer;
let api: ApiClient;
const sent: { url: string; headers: Headers }[] = [];
beforeAll(async () => {
  server = await startServer();
  api = createApiClient({
    baseUrl: server.baseUrl,
    apiKey: server.b.key,
    fetch: async (input, init) => {
      sent.push({ url: String(input), headers: new Headers(init?.headers) });
      return fetch(input, init);
    },
  });
});
afterAll(() => server.close());

const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

describe('aggregate and batch methods of the typed client', () => {
  it('creates a batch item by item, answers each in order, and replays a repeated Idempotency-Key', async () => {
    const email = `${unique('b')}@example.com`;
    const items = [{ email, tags: ['batch'] }, { email }, { email: 'not an email' }];
    const first = await api.createContactsBatch({ items }, { idempotencyKey: 'batch-1' });
    expect(first.results.map((result) => result.status)).toEqual([201, 409, 400]);
    expect(first.results[0]?.id).toEqual(expect.any(String));
    expect(first.results[1]?.error?.statusCode).toBe(409);
    expect(sent.at(-1)?.headers.get('idempotency-key')).toBe('batch-1');
    const again = await api.createContactsBatch({ items }, { idempotencyKey: 'batch-1' });
    expect(again).toEqual(first);
    expect((await api.listContacts({ filter: compare('email', 'eq', email) })).meta.maxResults).toBe(1);
  });

  it('reads the workspace’s figures and a filter’s facets in one request each', async () => {
    const tag = unique('t');
    await api.createContactsBatch({ items: [{ email: `${unique('s')}@example.com`, tags: [tag], addDirectly: true }, { email: `${unique('s')}@example.com`, tags: [tag] }] });
    const stats = await api.stats();
    expect(stats.contacts?.createdByWeek).toHaveLength(12);
    expect(stats.contacts?.total).toBeGreaterThanOrEqual(3);
    const before = sent.length;
    const facets = await api.contactStats({ filter: compare('tags', 'eq', tag) });
    expect(sent.length - before).toBe(1);
    expect(decodeURIComponent(sent.at(-1)!.url)).toContain(`$filter=tags eq '${tag}'`);
    expect(facets).toMatchObject({ total: 2, byState: { active: 1, pending: 1 }, topTags: [{ name: tag, count: 2 }] });
    const bad = await api.contactStats({ filter: "tags eq 'x' and" }).catch((error: unknown) => error);
    expect(isApiError(bad) && bad.status).toBe(400);
  });

  it('tags every contact a filter matches, and a list of ids, in one request', async () => {
    const tag = unique('m');
    const made = await api.createContactsBatch({ items: [0, 1, 2].map(() => ({ email: `${unique('g')}@example.com`, tags: [tag] })) });
    const added = await api.tagContacts({ filter: `tags eq '${tag}'`, tagsToAdd: ['picked'] });
    expect(added).toMatchObject({ matched: 3, changed: 3 });
    const ids = made.results.map((result) => result.id!);
    const removed = await api.tagContacts({ ids: [...ids, 'not-a-contact'], tagsToRemove: ['picked'] });
    expect(removed).toMatchObject({ matched: 3, changed: 3 });
  });
});

describe('against a service without the extensions', () => {
  let hosted: HostedStandIn;
  beforeAll(async () => {
    hosted = await startHostedStandIn();
  });
  afterAll(() => hosted.close());

  it('rejects GET /stats with a 404 ApiError', async () => {
    const client = createApiClient({ baseUrl: hosted.baseUrl, apiKey: HOSTED_KEY });
    const error = await client.stats().catch((caught: unknown) => caught);
    expect(isApiError(error) && error.status).toBe(404);
  });
});
