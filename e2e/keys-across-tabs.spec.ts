/**
 * Keys across tabs (issue 14 point 3): a key kept for the session reaches every tab of that browser session (pages
 * of one Playwright context), is never written to localStorage, does not reach another browser session (another
 * context), and forgetting it or its expiry applies to every tab.
 */
import type { Page } from '@playwright/test';
import { cli } from './server';
import { expect, makeWorkspace, test } from './fixtures';

const stored = (page: Page) => page.evaluate(() => ({ local: localStorage.getItem('workspace-admin.connections'), session: sessionStorage.getItem('workspace-admin.connections') }));

test('a key kept for the session opens a link in a new tab, is never written to localStorage, and stays out of another browser session', async ({ page, context, browser, connect, baseURL }) => {
  const ws = await makeWorkspace('Tabs');
  await connect(ws.key);
  const second = await context.newPage();
  await second.goto(`/w/${ws.id}/products`);
  await expect(second.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();
  await expect(second).toHaveURL(new RegExp(`/w/${ws.id}/products$`));
  for (const tab of [page, second]) {
    const { local, session } = await stored(tab);
    expect(local ?? '').not.toContain(ws.key);
    expect(session).toContain(ws.key);
  }
  // The new tab keeps it for the session too: a reload needs no other tab.
  await page.close();
  await second.reload();
  await expect(second.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();

  const elsewhere = await browser.newContext({ baseURL });
  const stranger = await elsewhere.newPage();
  await stranger.goto(`/w/${ws.id}/contacts`);
  await expect(stranger).toHaveURL(/\/connect\?reason=missing/);
  await elsewhere.close();
});

test('removing a key in one tab forgets it in every tab', async ({ page, context, connect, state }) => {
  const ws = await makeWorkspace('Tabs forget');
  await connect(ws.key);
  await page.getByRole('link', { name: 'Collections' }).click();
  const second = await context.newPage();
  await second.goto('/connect');
  await second.getByRole('button', { name: `Remove the key for ${ws.name}` }).click();
  await expect(page).toHaveURL(/\/connect\?reason=removed/);
  await expect(page.getByRole('alert').filter({ hasText: 'was removed' })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('return')).toBe(`/w/${ws.id}/collections`);
  expect((await stored(page)).session ?? '').not.toContain(ws.key);
  // Another key of the session is untouched.
  await connect(state.demo.workspaces[2]!.key);
  await expect(page.getByRole('heading', { name: 'Contacts', level: 1 })).toBeVisible();
});

test('a key that expires is forgotten in every tab, each saying so', async ({ page, context, connect, state }) => {
  const ws = await makeWorkspace('Tabs expire');
  await connect(ws.key);
  const second = await context.newPage();
  await second.goto(`/w/${ws.id}/posts`);
  await expect(second.getByRole('heading', { name: 'Posts', level: 1 })).toBeVisible();
  cli(state.databaseUrl, 'key', 'revoke', '--key', ws.key);
  await page.getByRole('link', { name: 'Products' }).click();
  await expect(page).toHaveURL(/\/connect\?reason=expired/);
  // The other tab did nothing, yet leaves too, saying why and keeping its page to return to.
  await expect(second).toHaveURL(/\/connect\?reason=expired/);
  await expect(second.getByRole('alert').filter({ hasText: 'stopped working' })).toBeVisible();
  expect(new URL(second.url()).searchParams.get('return')).toBe(`/w/${ws.id}/posts`);
  for (const tab of [page, second]) expect((await stored(tab)).session ?? '').not.toContain(ws.key);
});
