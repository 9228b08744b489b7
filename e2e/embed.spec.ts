/**
 * The public embed page `/embed/:workspaceId` (issue 7): no key, its own small bundle, inside an iframe on
 * another origin, `#post-<id>` anchors, "Load more" within the caps, an unknown workspace, small screens, and
 * accessibility in light and dark. Posts are made through the API in a workspace of this spec's own.
 */
import { randomUUID } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import type { APIRequestContext } from '@playwright/test';
import { readState } from './state';
import { type Workspace, checkAccessibility, expect, makeWorkspace, test } from './fixtures';

async function publish(request: APIRequestContext, key: string, body: Record<string, unknown>): Promise<string> {
  const response = await request.post('/api/post-requests', { headers: { 'x-api-key': key }, data: { action: 'publish', ...body } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { body: { requestId: string } }).body.requestId;
}

let rich: Workspace;
let many: Workspace;
const richHeader = `Harvest fair ${randomUUID().slice(0, 8)}`;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(120_000);
  const { baseURL } = readState();
  const request = await playwright.request.newContext({ baseURL });
  rich = await makeWorkspace('Embed rich');
  await publish(request, rich.key, { header: 'An older note', text: 'Plain text only.' });
  await publish(request, rich.key, {
    header: richHeader,
    text: 'Apples, pears and music.\nAll weekend.',
    imageUrl: `${baseURL}/demo/posts/harvest.svg`,
    mediaImageUrls: [`${baseURL}/demo/posts/forest.svg`, `${baseURL}/demo/posts/sunrise.svg`],
    ctaLink: { url: 'https://example.com/fair', title: 'Programme', description: 'Who plays when', imageUrl: `${baseURL}/demo/posts/city.svg` },
    button: { text: 'Get tickets', url: 'https://example.com/tickets' },
    author: { name: 'Fair team', imageUrl: `${baseURL}/demo/posts/night.svg` },
  });
  await request.post('/api/post-requests', { headers: { 'x-api-key': rich.key }, data: { action: 'publish', header: 'Members only', recipients: { tags: ['vip'] } } });
  many = await makeWorkspace('Embed many');
  for (let i = 1; i <= 115; i += 1) await publish(request, many.key, { header: `Entry ${String(i).padStart(3, '0')}` });
  await request.dispose();
});

test('shows the public posts newest first with images, call to action, button and claps, without any key', async ({ page }) => {
  await page.goto(`/embed/${rich.id}`);
  const articles = page.getByRole('article');
  await expect(articles).toHaveCount(2);
  await expect(articles.first().getByRole('heading', { level: 2 })).toHaveText(richHeader);
  const post = articles.first();
  await expect(post.getByRole('img', { name: richHeader })).toBeVisible();
  await expect(post.getByRole('list', { name: 'Media' }).getByRole('img')).toHaveCount(2);
  await expect(post.getByRole('link', { name: /Programme.*Who plays when/ })).toHaveAttribute('href', 'https://example.com/fair');
  await expect(post.getByRole('link', { name: 'Get tickets' })).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(post).toContainText('Fair team');
  await expect(post).toContainText('0 claps');
  await expect(page.getByText('Members only')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Load more posts' })).toBeHidden();
});

test('works inside an iframe on another origin', async ({ page, baseURL }) => {
  const host: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><head><title>Host site</title></head><body>
      <h1>Our partner's news</h1>
      <iframe id="posts" title="Workspace posts" src="${baseURL}/embed/${rich.id}" width="100%" height="500" style="border:0"></iframe>
      <script>addEventListener('message', (event) => { if (event.data && event.data.type === 'workspace-embed:height') document.title = 'height ' + event.data.height; });</script>
    </body></html>`);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  const address = host.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  try {
    await page.goto(`http://127.0.0.1:${port}/`);
    const frame = page.frameLocator('iframe[title="Workspace posts"]');
    await expect(frame.getByRole('heading', { name: richHeader })).toBeVisible();
    await expect(frame.getByRole('link', { name: 'Get tickets' })).toHaveAttribute('target', '_blank');
    await expect(page).toHaveTitle(/^height \d+$/);
    expect(new URL(page.url()).origin).not.toBe(new URL(baseURL!).origin);
  } finally {
    await new Promise((resolve) => host.close(resolve));
  }
});

test('pages on with Load more within the caps, and a #post-<id> link scrolls to its post, loading older pages to find it', async ({ page, request }) => {
  await page.goto(`/embed/${many.id}`);
  const articles = page.getByRole('article');
  await expect(articles).toHaveCount(10);
  await expect(articles.first()).toHaveAccessibleName('Entry 115');
  const more = page.getByRole('button', { name: 'Load more posts' });
  for (let loaded = 10; loaded < 110; loaded += 10) {
    await more.click();
    await expect(articles).toHaveCount(loaded + 10);
  }
  await expect(more).toBeHidden();
  await expect(page.getByText('Showing the newest 110 of 115 posts; older posts cannot be listed here.')).toBeVisible();

  const listed = await request.get(`/api/${many.id}/posts?%24offset=79&%24limit=1`);
  const target = ((await listed.json()) as { items: { id: string; header: string }[] }).items[0]!;
  await page.goto(`/embed/${many.id}#post-${target.id}`);
  const article = page.locator(`#post-${target.id}`);
  await expect(article).toHaveAccessibleName(target.header);
  await expect(article).toBeInViewport();
  await expect(article).toBeFocused();
});

test('says clearly when the workspace does not exist', async ({ page }) => {
  await page.goto(`/embed/${randomUUID()}`);
  await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('There is no workspace at this address');
  await expect(page).toHaveTitle('Page not found');
});

test('fits a narrow screen without sideways scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 340, height: 700 });
  await page.goto(`/embed/${rich.id}`);
  await expect(page.getByRole('heading', { name: richHeader })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(340);
});

test('embed page accessibility, light and dark', async ({ page }) => {
  await page.goto(`/embed/${rich.id}`);
  await expect(page.getByRole('heading', { name: richHeader })).toBeVisible();
  await checkAccessibility(page, 'embed');
  await page.emulateMedia({ colorScheme: 'dark' });
  await checkAccessibility(page, 'embed-dark');
});
