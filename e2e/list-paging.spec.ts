/**
 * Paging (issue 14, point 1): against a second real server on the same database with a low rate limit, a page
 * that waits out a 429 never shows the wrong range: the pager describes the rows on screen and says which page
 * is loading, and the throttle notice stays in view on a scrolled page. On the normal server, paging from the
 * bottom of a long table scrolls back to its top, on the contacts, products and posts pages.
 */
import type { Locator, Page } from '@playwright/test';
import { type StartedServer, startService } from './server';
import { expect, hideExtensions, test } from './fixtures';

let limited: StartedServer;
test.beforeAll(async ({ state }) => {
  // 6 requests in 16 s: paging on a loaded machine (a click a second or slower) still outruns it within a few clicks,
  // and a wait lasts long enough to scroll and look (with 8 s, a slow run paged 20 times without a 429 once).
  limited = await startService(state.databaseUrl, { RATE_LIMIT_PER_MINUTE: '6', RATE_LIMIT_WINDOW_SECONDS: '16', DEMO_SEED: 'off' });
});
test.afterAll(async () => {
  await limited?.stop();
});

/** The pager's line (`41–60 of 300 · loading page 5…`) and the first row's name (its link's text, not the avatar's), read together. */
function readScreen(page: Page) {
  return page.getByRole('main').evaluate((main) => {
    const link = main.querySelector('table tbody tr a')?.cloneNode(true) as HTMLElement | undefined;
    for (const hidden of link?.querySelectorAll('[aria-hidden="true"]') ?? []) hidden.remove();
    return {
      pager: [...main.querySelectorAll('p')].map((p) => p.textContent ?? '').find((text) => / of [\d,]+/.test(text) && /^\d/.test(text)) ?? '',
      first: link?.textContent?.trim() ?? '',
    };
  });
}

test('while a page waits out a 429, the pager describes the rows on screen, and the notice stays in view', async ({ page, state, request }) => {
  test.setTimeout(90_000);
  const workspace = state.demo.workspaces[1]!;
  /** The name of the contact at `offset` in the default order, from the normal server. */
  const nameAt = async (offset: number) => {
    const response = await request.get(`${state.baseURL}/api/contacts?%24offset=${offset}&%24limit=1`, { headers: { 'x-api-key': workspace.key } });
    const body = (await response.json()) as { items: { name: string | null }[] };
    return body.items[0]?.name ?? '(no name)';
  };

  // A contacts list under a small window: connecting lands on Contacts as on a service without `stats` (issue 35
  // point 5), so the overview's figures do not spend the window first.
  await hideExtensions(page.context(), ['stats']);
  await page.goto(`${limited.baseURL}/connect`);
  await page.getByLabel('API key', { exact: true }).fill(workspace.key);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByText('300 contacts')).toBeVisible();
  const table = page.getByRole('table', { name: 'Contacts' });
  const notice = page.getByRole('status').filter({ hasText: /The service is throttling requests|Waiting for the request budget/ });

  // Page on until a requested page is held back by a 429 behind the rows on screen: the pager and the first row,
  // read together while the page waits.
  const waitingLine = /^(\d+)–(\d+) of 300 · loading page (\d+)…$/;
  let screen = { pager: '', first: '' };
  const held = async () => {
    screen = await readScreen(page);
    expect(screen.pager).toMatch(waitingLine);
    expect(await notice.isVisible()).toBe(true);
  };
  for (let clicks = 0; clicks < 20; clicks++) {
    await page.getByRole('button', { name: 'Next page' }).click();
    try {
      await expect(held).toPass({ timeout: 1000 });
      break;
    } catch {
      // not held back yet: page on
    }
  }
  const [, first, last, waiting] = screen.pager.match(waitingLine) ?? [];
  expect(screen.pager).toMatch(waitingLine);
  expect(Number(last) - Number(first)).toBe(19);
  expect(screen.first).toBe(await nameAt(Number(first) - 1));
  await expect(page).toHaveURL(new RegExp(`[?&]page=${waiting}(&|$)`));
  expect(Number(waiting)).not.toBe((Number(first) - 1) / 20 + 1);

  // The notice sticks under the header on a page scrolled to its end.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(notice).toBeInViewport();

  // Once the wait is over, the requested page shows, and the pager says so.
  await expect(notice).toBeHidden({ timeout: 30_000 });
  await expect(table).not.toHaveAttribute('aria-busy', 'true', { timeout: 30_000 });
  const shown = await readScreen(page);
  const start = (Number(waiting) - 1) * 20;
  expect(shown.pager).toBe(`${start + 1}–${start + 20} of 300`);
  expect(shown.first).toBe(await nameAt(start));
});

/** Scrolls `pager` into view, pages on with `next`, and expects the table's head back in view. */
async function pageFromTheBottom(page: Page, table: Locator, next: Locator) {
  await next.scrollIntoViewIfNeeded();
  await expect(table.locator('thead')).not.toBeInViewport();
  await next.click();
  await expect(table.locator('thead')).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
}

test('paging from the bottom of a long table scrolls back to its top: contacts, products, posts', async ({ page, state, connect }) => {
  const workspace = state.demo.workspaces[0]!;
  await connect(workspace.key, { path: 'contacts?size=50' });
  const contacts = page.getByRole('table', { name: 'Contacts' });
  await expect(contacts.locator('tbody tr')).toHaveCount(50);
  await pageFromTheBottom(page, contacts, page.getByRole('button', { name: 'Next page' }));
  await expect(page.getByText('51–100 of 2,000')).toBeVisible();

  await page.goto(`/w/${workspace.id}/products`);
  const products = page.getByRole('table', { name: 'Products' });
  await expect(products.locator('tbody tr')).toHaveCount(20);
  await pageFromTheBottom(page, products, page.getByRole('button', { name: 'Next page' }));
  await expect(page.getByText('21–40 of 60')).toBeVisible();

  await page.goto(`/w/${workspace.id}/posts?size=30`);
  const posts = page.getByRole('table', { name: 'Published posts' });
  await expect(posts.locator('tbody tr')).toHaveCount(30);
  await pageFromTheBottom(page, posts, page.getByRole('navigation', { name: 'Pages of posts' }).getByRole('button', { name: 'Next page' }));
  await expect(page.getByText(/page 2 of 2/)).toBeVisible();
});
