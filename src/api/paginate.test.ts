/**
 * `paginate`: walking real lists of the service (250 contacts seen once each; 140 published posts walked within
 * the posts caps), and its stopping rules on plain page functions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertContacts, fakeContacts } from '../../server/db/seed';
import { type TestServer, startServer } from '../../server/test/harness';
import { ApiError } from './api-error';
import { type ApiClient, createApiClient } from './client';
import { DEFAULT_PAGE_CAPS, POSTS_PAGE_CAPS } from './common';
import { compare } from './filter/ast';
import { type PageRequest, type PageResponse, paginate } from './paginate';

let server: TestServer;
let api: ApiClient;
const requested: string[] = [];

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

beforeAll(async () => {
  server = await startServer();
  api = createApiClient({
    baseUrl: server.baseUrl,
    apiKey: server.a.key,
    fetch: (input, init) => {
      requested.push(String(input));
      return fetch(input, init);
    },
  });
  await insertContacts(server.database.db, fakeContacts(server.a.id, 250));
  for (let i = 0; i < 140; i++) await api.createPostRequest({ action: 'publish', header: `Post ${i}` });
}, 60_000);
afterAll(() => server.close());

describe('paginate over the service', () => {
  it('walks 250 contacts in pages of 100 and yields each exactly once', async () => {
    requested.length = 0;
    const contacts = await collect(paginate((page) => api.listContacts({ ...page, orderBy: 'name asc' })));
    expect(contacts).toHaveLength(250);
    expect(new Set(contacts.map((contact) => contact.id)).size).toBe(250);
    expect(requested.map((url) => new URL(url).search)).toEqual([
      '?%24offset=0&%24limit=100&%24orderBy=name%20asc',
      '?%24offset=100&%24limit=100&%24orderBy=name%20asc',
      '?%24offset=200&%24limit=100&%24orderBy=name%20asc',
    ]);
  });

  it('walks a filtered list with a small page size and stops at maxResults', async () => {
    const all = await collect(paginate((page) => api.listContacts({ ...page, filter: compare('state', 'eq', 'active') }), { pageSize: 7 }));
    const { meta } = await api.listContacts({ filter: compare('state', 'eq', 'active'), limit: 1 });
    expect(all).toHaveLength(meta.maxResults);
    expect(new Set(all.map((contact) => contact.id)).size).toBe(meta.maxResults);
    expect(all.every((contact) => contact.state === 'active')).toBe(true);
  });

  it('stops after maxItems, asking only for what is still wanted', async () => {
    requested.length = 0;
    const some = await collect(paginate((page) => api.listContacts(page), { pageSize: 20, maxItems: 45 }));
    expect(some).toHaveLength(45);
    expect(requested.map((url) => new URL(url).searchParams.get('$limit'))).toEqual(['20', '20', '5']);
  });

  it('walks posts within $limit 30 and $offset 100, stopping at the offset cap instead of a 400', async () => {
    requested.length = 0;
    const walk = paginate((page) => api.listPosts(page), { pageSize: 30, caps: POSTS_PAGE_CAPS });
    const posts: unknown[] = [];
    let result = await walk.next();
    while (!result.done) {
      posts.push(result.value);
      result = await walk.next();
    }
    expect(result.value).toEqual({ yielded: 120, maxResults: 140, stop: 'offset-cap' });
    expect(posts).toHaveLength(120);
    expect(requested.map((url) => new URL(url).search)).toEqual([0, 30, 60, 90].map((offset) => `?%24offset=${offset}&%24limit=30`));
    // the cap is real: the next page would have been refused
    await expect(api.listPosts({ offset: 120, limit: 30 })).rejects.toMatchObject({ status: 400, message: '$offset must not be greater than 100' });
  });

  it('lowers a page size above the posts cap to 30', async () => {
    requested.length = 0;
    const posts = await collect(paginate((page) => api.listPosts(page), { pageSize: 100, caps: POSTS_PAGE_CAPS, maxItems: 40 }));
    expect(posts).toHaveLength(40);
    expect(requested.map((url) => new URL(url).searchParams.get('$limit'))).toEqual(['30', '10']);
  });

  it('walks the public posts of a workspace without a key', async () => {
    const anonymous = createApiClient({ baseUrl: server.baseUrl });
    const posts = await collect(paginate((page) => anonymous.listWorkspacePosts(server.a.id, page), { caps: POSTS_PAGE_CAPS, maxItems: 50 }));
    expect(new Set(posts.map((post) => post.id)).size).toBe(50);
  });

  it('passes the ApiError of a failing page through', async () => {
    const walk = collect(paginate((page) => api.listContacts({ ...page, filter: 'nonsense' })));
    await expect(walk).rejects.toBeInstanceOf(ApiError);
  });
});

describe('paginate stopping rules', () => {
  /** A page function over `total` numbers that may report a different maxResults or stop early. */
  const pages = (total: number, options: { report?: number; emptyFrom?: number } = {}) => {
    const calls: PageRequest[] = [];
    const fetchPage = async (page: PageRequest): Promise<PageResponse<number>> => {
      calls.push(page);
      const end = Math.min(total, options.emptyFrom ?? total);
      const items = Array.from({ length: Math.max(0, Math.min(page.limit, end - page.offset)) }, (_, i) => page.offset + i);
      return { items, meta: { maxResults: options.report ?? total } };
    };
    return { calls, fetchPage };
  };

  it('defaults to the default caps page size and ends at maxResults', async () => {
    const { calls, fetchPage } = pages(150);
    const walk = paginate(fetchPage);
    const items = [];
    let step = await walk.next();
    while (!step.done) {
      items.push(step.value);
      step = await walk.next();
    }
    expect(items).toEqual(Array.from({ length: 150 }, (_, i) => i));
    expect(calls).toEqual([{ offset: 0, limit: DEFAULT_PAGE_CAPS.maxLimit }, { offset: 100, limit: 100 }]);
    expect(step.value).toEqual({ yielded: 150, maxResults: 150, stop: 'end' });
  });

  it('stops on an empty page even when maxResults promises more', async () => {
    const { calls, fetchPage } = pages(100, { report: 500, emptyFrom: 25 });
    expect(await collect(paginate(fetchPage, { pageSize: 10 }))).toHaveLength(25);
    expect(calls.map((call) => call.offset)).toEqual([0, 10, 20, 25]);
  });

  it('advances by the items received when a service sends fewer than asked', async () => {
    const calls: PageRequest[] = [];
    const items = await collect(
      paginate(
        async (page) => {
          calls.push(page);
          return { items: Array.from({ length: Math.min(3, 10 - page.offset) }, (_, i) => page.offset + i), meta: { maxResults: 10 } };
        },
        { pageSize: 5 },
      ),
    );
    expect(items).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(calls.map((call) => call.offset)).toEqual([0, 3, 6, 9]);
  });

  it('fetches nothing for maxItems 0 and refuses a bad pageSize', async () => {
    const { calls, fetchPage } = pages(10);
    expect(await collect(paginate(fetchPage, { maxItems: 0 }))).toEqual([]);
    expect(calls).toEqual([]);
    await expect(collect(paginate(fetchPage, { pageSize: 0 }))).rejects.toThrow(RangeError);
    await expect(collect(paginate(fetchPage, { pageSize: 2.5 }))).rejects.toThrow(RangeError);
  });

  it('passes the signal to every page and stops when it aborts', async () => {
    const controller = new AbortController();
    const { calls, fetchPage } = pages(100);
    const seen: number[] = [];
    const walk = (async () => {
      for await (const item of paginate(fetchPage, { pageSize: 10, signal: controller.signal })) {
        seen.push(item);
        if (item === 15) controller.abort();
      }
    })();
    await expect(walk).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls[0]?.signal).toBe(controller.signal);
    expect(seen.at(-1)).toBe(19);
  });
});
