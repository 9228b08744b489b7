/**
 * Post requests and the three post lists, endpoints 11 to 14 (docs/decisions.md sections 2, 4, 6, 7): actions and
 * their rules, shapes, privacy, scheduling that becomes visible exactly when due, caps, the public endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postListSchema, publicPostListSchema } from '../../src/api/posts';
import { PostStore } from '../db/posts';
import { type TestServer, call, query, startServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const send = (body: unknown, key = server.a.key) => call(server, 'POST', '/post-requests', { key, body });
const listed = async (params: Record<string, string | number | undefined> = {}, key = server.a.key) => {
  const response = await call(server, 'GET', `/posts${query({ $limit: 30, ...params })}`, { key });
  expect(response.status, response.text).toBe(200);
  return postListSchema.parse(response.body);
};
const embed = async (workspaceId: string, params: Record<string, string | number | undefined> = {}) =>
  call(server, 'GET', `/${workspaceId}/posts${query({ $limit: 30, ...params })}`);
const publicPosts = async (limit?: number) => publicPostListSchema.parse((await call(server, 'GET', `/public-posts${query({ limit })}`, { key: server.a.key })).body);
const inAll = async (id: string) => ({
  posts: (await listed()).items.some((p) => p.id === id),
  embed: (await embed(server.a.id)).body.items.some((p: { id: string }) => p.id === id),
  public: (await publicPosts(30)).some((p) => p.postId === id),
});

describe('POST /post-requests', () => {
  it('publishes a post: 201 with requestId and state, listed with every field and its postUrl', async () => {
    const response = await send({
      action: 'publish', header: 'Hello', text: 'World', imageUrl: 'https://img.example.com/1.png', mediaImageUrls: ['https://img.example.com/2.png'],
      ctaLink: { url: 'https://example.com/more', title: 'More' }, button: { text: 'Buy', url: 'https://example.com/buy' },
      author: { name: 'Ann', imageUrl: 'https://img.example.com/ann.png' }, notificationSettings: { email: true },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ body: { requestId: expect.any(String) }, state: 'published' });
    const post = (await listed({ $filter: `id eq '${response.body.body.requestId}'` })).items[0];
    expect(post).toEqual({
      id: response.body.body.requestId, feedId: server.a.id, header: 'Hello', text: 'World', imageUrl: 'https://img.example.com/1.png',
      mediaImageUrls: ['https://img.example.com/2.png'], ctaLink: { url: 'https://example.com/more', title: 'More' },
      button: { text: 'Buy', url: 'https://example.com/buy' }, author: { name: 'Ann', imageUrl: 'https://img.example.com/ann.png' },
      publishedDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/), claps: 0,
      postUrl: `${server.baseUrl.replace(/\/api$/, '')}/embed/${server.a.id}#post-${response.body.body.requestId}`,
    });
  });

  it('suggests a post: never listed anywhere', async () => {
    const response = await send({ action: 'suggest', text: 'Maybe later', publishDate: new Date(Date.now() + 3600_000).toISOString() });
    expect(response.status).toBe(201);
    expect(response.body.state).toBe('suggested');
    expect(await inAll(response.body.body.requestId)).toEqual({ posts: false, embed: false, public: false });
  });

  it.each([
    ['a list of contact ids', (contactId: string) => [contactId]],
    ['tags', () => ({ tags: ['vip'] })],
    ['contactIds', (contactId: string) => ({ contactIds: [contactId] })],
  ])('keeps a post with recipients as %s private: never listed', async (_name, recipients) => {
    const contact = await call(server, 'POST', '/contacts', { key: server.a.key, body: { name: `R ${Math.random()}` } });
    const response = await send({ action: 'publish', text: 'Private', recipients: recipients(contact.body.id) });
    expect(response.status).toBe(201);
    expect(await inAll(response.body.body.requestId)).toEqual({ posts: false, embed: false, public: false });
  });

  it('lists a post with empty recipients as public', async () => {
    const response = await send({ action: 'publish', text: 'Public', recipients: { tags: [], contactIds: [] } });
    expect(await inAll(response.body.body.requestId)).toEqual({ posts: true, embed: true, public: true });
  });

  it.each([
    ['no action', { text: 'x' }, 'action must be one of publish, schedule, suggest'],
    ['an unknown action', { action: 'draft', text: 'x' }, 'action must be one of publish, schedule, suggest'],
    ['no content', { action: 'publish' }, 'needs content: text, header, imageUrl or mediaImageUrls'],
    ['blank text only', { action: 'publish', text: '   ' }, 'needs content'],
    ['schedule without publishDate', { action: 'schedule', text: 'x' }, 'publishDate is required to schedule a post'],
    ['schedule in the past', { action: 'schedule', text: 'x', publishDate: '2020-01-01T00:00:00Z' }, 'publishDate must be in the future'],
    ['publish with a publishDate', { action: 'publish', text: 'x', publishDate: new Date(Date.now() + 60_000).toISOString() }, 'publishDate is not allowed with publish'],
    ['a publishDate that is not ISO', { action: 'schedule', text: 'x', publishDate: 'tomorrow' }, 'publishDate must be an ISO 8601 date-time'],
    ['a ctaLink without url', { action: 'publish', text: 'x', ctaLink: { title: 't' } }, 'ctaLink.url is required'],
    ['a button without text', { action: 'publish', text: 'x', button: { url: 'https://x.test' } }, 'button.text is required'],
    ['an author with an unknown field', { action: 'publish', text: 'x', author: { name: 'A', age: 3 } }, 'property author.age should not exist'],
    ['a relative media image', { action: 'publish', mediaImageUrls: ['/a.png'] }, 'mediaImageUrls.0 must be an absolute http(s) URL'],
    ['recipients of another shape', { action: 'publish', text: 'x', recipients: 'everyone' }, 'recipients has an invalid shape'],
    ['an unknown recipient contact', { action: 'publish', text: 'x', recipients: ['no-such-contact'] }, 'recipients: unknown contact no-such-contact'],
    ['notification settings that are not booleans', { action: 'publish', text: 'x', notificationSettings: { email: 'yes' } }, 'notificationSettings.email must be a boolean'],
  ])('answers 400 for %s', async (_name, body, message) => {
    const response = await send(body);
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(message);
  });
});

describe('scheduling', () => {
  it('lists a post scheduled 2 seconds ahead in all three lists once due, not before', async () => {
    const publishDate = new Date(Date.now() + 2000);
    const response = await send({ action: 'schedule', header: 'Soon', publishDate: publishDate.toISOString() });
    expect(response.status).toBe(201);
    expect(response.body.state).toBe('scheduled');
    const id = response.body.body.requestId;
    expect(await inAll(id)).toEqual({ posts: false, embed: false, public: false });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, publishDate.getTime() - Date.now()) + 50));
    expect(await inAll(id)).toEqual({ posts: true, embed: true, public: true });
    const post = (await listed({ $filter: `id eq '${id}'` })).items[0];
    expect(post?.publishedDate).toBe(publishDate.toISOString());
  });

  it('accepts any offset and stores the instant in UTC', async () => {
    const at = new Date(Date.now() + 3600_000);
    const local = new Date(at.getTime() + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    const response = await send({ action: 'schedule', text: 'Offset', publishDate: local });
    expect(response.status).toBe(201);
    const row = await server.database.db.selectFrom('posts').select('published_date').where('id', '=', response.body.body.requestId).executeTakeFirstOrThrow();
    expect(row.published_date).toBe(at.toISOString());
  });

  it('the job publishes each due post exactly once, even with two stores racing on one database', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await send({ action: 'schedule', text: `Due ${i}`, publishDate: new Date(Date.now() + 600_000).toISOString() })).body.body.requestId);
    const later = new Date(Date.now() + 601_000);
    const first = new PostStore(server.database.db, server.database.dialect);
    const second = new PostStore(server.database.db, server.database.dialect);
    const [x, y] = await Promise.all([first.publishDuePosts(later), second.publishDuePosts(later)]);
    const published = [...x, ...y].filter((id) => ids.includes(id));
    expect(published.sort()).toEqual([...ids].sort());
    expect(await first.publishDuePosts(later)).toEqual([]);
    const states = await server.database.db.selectFrom('posts').select('state').where('id', 'in', ids).execute();
    expect(states.map((s) => s.state)).toEqual(ids.map(() => 'published'));
  });
});

describe('GET /posts and GET /{workspaceId}/posts', () => {
  beforeAll(async () => {
    for (let i = 0; i < 12; i++) await send({ action: 'publish', header: `Bulk ${i}`, text: i % 2 ? 'odd one' : 'even one' });
    await server.database.db.updateTable('posts').set((eb) => ({ claps: eb('claps', '+', 7) })).where('header', '=', 'Bulk 3').execute();
  });

  it('orders by publishedDate desc by default, and by claps or publishedDate on request', async () => {
    const { items } = await listed();
    expect(items.map((p) => p.publishedDate)).toEqual([...items.map((p) => p.publishedDate)].sort().reverse());
    expect((await listed({ $orderBy: 'claps desc' })).items[0]?.header).toBe('Bulk 3');
    const ascending = (await listed({ $orderBy: 'publishedDate asc' })).items.map((p) => p.publishedDate);
    expect(ascending).toEqual([...ascending].sort());
  });

  it('filters by text like and a date range', async () => {
    const odd = await listed({ $filter: "header like 'Bulk' and text like 'odd'" });
    expect(odd.meta.maxResults).toBe(6);
    const none = await listed({ $filter: "publishedDate lt '2000-01-01'" });
    expect(none.meta.maxResults).toBe(0);
  });

  it.each([
    [{ $limit: 31 }, '$limit must not be greater than 30'],
    [{ $offset: 101 }, '$offset must not be greater than 100'],
    [{ $orderBy: 'header' }, "cannot sort by 'header'"],
  ])('enforces the caps and sort fields: %j', async (params, message) => {
    for (const response of [
      await call(server, 'GET', `/posts${query(params)}`, { key: server.a.key }),
      await embed(server.a.id, params),
    ]) {
      expect(response.status).toBe(400);
      expect(response.body.message).toContain(message);
    }
  });

  it('uses 10 as the default page size and allows $offset 100', async () => {
    const page = await call(server, 'GET', '/posts', { key: server.a.key });
    expect(page.body.items).toHaveLength(10);
    expect((await call(server, 'GET', `/posts${query({ $offset: 100 })}`, { key: server.a.key })).status).toBe(200);
  });

  it('serves the public endpoint without a key, with Access-Control-Allow-Origin: *, the same posts as GET /posts', async () => {
    const response = await embed(server.a.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(postListSchema.parse(response.body)).toEqual(await listed());
  });

  it('answers 404 Workspace not found for an unknown workspace, with CORS open', async () => {
    const response = await embed('00000000-0000-4000-8000-000000000000');
    expect(response.status).toBe(404);
    expect(response.body.message).toBe('Workspace not found');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('never shows another workspace posts', async () => {
    const b = await send({ action: 'publish', text: 'B only' }, server.b.key);
    expect((await listed({ $filter: `id eq '${b.body.body.requestId}'` })).items).toEqual([]);
    expect((await embed(server.a.id)).body.items.some((p: { id: string }) => p.id === b.body.body.requestId)).toBe(false);
    expect((await embed(server.b.id)).body.items.some((p: { id: string }) => p.id === b.body.body.requestId)).toBe(true);
  });

  it('answers a preflight for the public endpoint', async () => {
    const response = await call(server, 'OPTIONS', `/${server.a.id}/posts`, { headers: { origin: 'https://elsewhere.test', 'access-control-request-method': 'GET' } });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('GET /public-posts', () => {
  it('answers a bare array of summaries, newest first, 10 by default', async () => {
    const summaries = await publicPosts();
    expect(summaries).toHaveLength(10);
    expect(summaries[0]).toEqual({
      postId: expect.any(String), postUrl: expect.stringContaining(`/embed/${server.a.id}#post-`), postText: expect.anything(),
      publishedDate: expect.any(String), feedId: server.a.id, feedName: 'Workspace A', feedImageUrl: null, claps: expect.any(Number), postImage: null,
    });
    expect(summaries.map((s) => s.publishedDate)).toEqual([...summaries.map((s) => s.publishedDate)].sort().reverse());
  });

  it('takes postImage from imageUrl, else the first media image', async () => {
    const withImage = await send({ action: 'publish', header: 'Pic', imageUrl: 'https://img.example.com/a.png' });
    const withMedia = await send({ action: 'publish', text: 'Media', mediaImageUrls: ['https://img.example.com/m1.png', 'https://img.example.com/m2.png'] });
    const summaries = await publicPosts(30);
    expect(summaries.find((s) => s.postId === withImage.body.body.requestId)?.postImage).toEqual({ type: 'image', alt: 'Pic', src: 'https://img.example.com/a.png' });
    expect(summaries.find((s) => s.postId === withMedia.body.body.requestId)?.postImage).toEqual({ type: 'image', alt: 'Media', src: 'https://img.example.com/m1.png' });
  });

  it.each([['0'], ['31'], ['abc'], ['1.5']])('answers 400 for limit=%s', async (limit) => {
    const response = await call(server, 'GET', `/public-posts?limit=${limit}`, { key: server.a.key });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/^limit /);
  });

  it('rejects $limit (the parameter has no $ here)', async () => {
    const response = await call(server, 'GET', `/public-posts${query({ $limit: 5 })}`, { key: server.a.key });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('property $limit should not exist');
  });
});
