/**
 * The overview, the workspace's home (issue 24 points 1 to 5), against the real server: every figure equals the
 * API's own count for the same filter (asked here, in the test), a week's "view these contacts" link opens the
 * contacts list with that week's filter and the same count, sections the key cannot read say so, and the page is
 * axe clean in light and dark.
 */
import type { APIRequestContext } from '@playwright/test';
import { checkAccessibility, expect, test } from './fixtures';

/** The API's count of `path` (`/contacts`, `/products`, ...) for `filter`: one `$limit=1` request, `meta.maxResults`. */
async function apiCount(request: APIRequestContext, key: string, path: string, filter?: string): Promise<number> {
  const query = new URLSearchParams({ $limit: '1', ...(filter ? { $filter: filter } : {}) });
  const response = await request.get(`/api${path}?${query.toString()}`, { headers: { 'x-api-key': key } });
  expect(response.status(), `${path} ${filter ?? ''}`).toBe(200);
  return ((await response.json()) as { meta: { maxResults: number } }).meta.maxResults;
}

const number = (value: number) => new Intl.NumberFormat('en-US').format(value);

test('the overview shows the API\'s own counts, and a week\'s link opens the contacts of that week', async ({ page, state, connect, request }) => {
  const lisbon = state.demo.workspaces[1]!;
  await connect(lisbon.key);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Overview' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${lisbon.id}$`));
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

  const figure = (name: string) => page.getByRole('group', { name, exact: true });
  const expected: [string, string, string?][] = [
    ['All contacts', '/contacts'],
    ['Active', '/contacts', "state eq 'active'"],
    ['Pending', '/contacts', "state eq 'pending'"],
    ['Products', '/products'],
    // From GET /stats (our service names `stats`, issue 35 point 5): the products by status.
    ['Active products', '/products', "status eq 'active'"],
    ['Draft products', '/products', "status eq 'draft'"],
    ['Archived products', '/products', "status eq 'archived'"],
    ['Collections', '/collections'],
  ];
  for (const [name, path, filter] of expected) {
    await expect(figure(name), name).toContainText(number(await apiCount(request, lisbon.key, path, filter)));
  }
  const monthAgo = new Date(Date.now() - 30 * 86_400_000);
  monthAgo.setHours(0, 0, 0, 0);
  await expect(figure('Published in the last 30 days')).toContainText(number(await apiCount(request, lisbon.key, '/posts', `publishedDate ge '${monthAgo.toISOString()}'`)));
  await expect(page.getByText(/^As of \d{1,2}:\d{2}/)).toBeVisible();

  // Each week of the table: the figure the API gives for the filter its link stands for.
  const weeks = page.getByRole('table', { name: 'New contacts per week' }).getByRole('row');
  await expect(weeks).toHaveCount(13);
  let busiest = { count: -1, href: '', filter: '' };
  for (let row = 1; row <= 12; row += 1) {
    const link = weeks.nth(row).getByRole('link', { name: /^View the contacts of the week of / });
    const href = (await link.getAttribute('href')) ?? '';
    const filter = new URL(href, 'http://console').searchParams.get('filter') ?? '';
    expect(filter).toMatch(/^created ge '.+' and created lt '.+'$/);
    const count = await apiCount(request, lisbon.key, '/contacts', filter);
    await expect(weeks.nth(row).getByRole('cell').first()).toHaveText(number(count));
    if (count > busiest.count) busiest = { count, href, filter };
  }
  await expect(page.getByRole('img', { name: /Bar chart of new contacts per week/ }).locator('canvas')).toBeVisible();
  await checkAccessibility(page, 'overview');

  await page.getByRole('link', { name: /^View the contacts of the week of / }).and(page.locator(`[href="${busiest.href}"]`)).click();
  await expect(page).toHaveURL(/\/contacts\?filter=/);
  expect(new URL(page.url()).searchParams.get('filter')).toBe(busiest.filter);
  await expect(page.getByText(`${number(busiest.count)} matching contact${busiest.count === 1 ? '' : 's'}`)).toBeVisible();
});

test('a key without posts or products scope shows those sections as not available, and its contacts figures', async ({ page, state, connect, request }) => {
  await connect(state.limitedKey, { path: '' });
  await expect(page.getByText('Posts are not available with this key: it needs the scope posts:read-only.')).toBeVisible();
  await expect(page.getByText('Products and collections are not available with this key: it needs the scope products:read-only.')).toBeVisible();
  await expect(page.getByRole('group', { name: 'All contacts', exact: true })).toContainText(number(await apiCount(request, state.limitedKey, '/contacts')));
});
