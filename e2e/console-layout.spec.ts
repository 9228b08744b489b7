/**
 * Layout (issue 14, point 10), against the real server: a notification never covers a drawer's close button,
 * and setting a filter never moves a filter bar onto a second row.
 */
import type { Locator } from '@playwright/test';
import { checkAccessibility, expect, isUncovered, test } from './fixtures';

test('a notification shown over an open drawer leaves its close button free', async ({ page, state, connect }) => {
  const workspace = state.demo.workspaces[0]!;
  await connect(workspace.key);
  await page.getByRole('table', { name: 'Contacts' }).locator('tbody tr').first().getByRole('cell').nth(2).click();
  const drawer = page.getByRole('dialog');
  const tags = drawer.getByRole('combobox', { name: 'Tags' });
  await tags.fill('x'.repeat(65));
  await tags.press('Enter');
  const notice = page.getByRole('alert').filter({ hasText: 'Tags not changed' });
  await expect(notice).toBeVisible();
  await checkAccessibility(page, 'error-notification');
  const close = drawer.getByRole('button', { name: 'Close contact' });
  expect(await isUncovered(close)).toBe(true);
  await close.click({ timeout: 5000 });
  await expect(drawer).toBeHidden();
});

test('setting a filter keeps each filter bar on the rows it had', async ({ page, state, connect }) => {
  const workspace = state.demo.workspaces[0]!;
  await connect(workspace.key);
  const height = async (bar: Locator) => (await bar.boundingBox())?.height ?? 0;

  // Widths at which each bar fits one row until "Clear filters" takes its place.
  await page.setViewportSize({ width: 1440, height: 900 });
  const contacts = page.getByRole('search', { name: 'Filter contacts' });
  await expect(page.getByText('2,000 contacts')).toBeVisible();
  const before = await height(contacts);
  await page.getByLabel('State', { exact: true }).selectOption('active');
  await expect(page.getByRole('button', { name: 'Clear filters' })).toBeVisible();
  expect(await height(contacts)).toBe(before);

  await page.setViewportSize({ width: 1152, height: 900 });
  await page.goto(`/w/${workspace.id}/collections`);
  const collections = page.getByRole('search', { name: 'Filter collections' });
  await expect(page.getByText('8 collections')).toBeVisible();
  const start = await height(collections);
  await page.getByLabel('Created from').fill('2020-01-01');
  await expect(page.getByRole('button', { name: 'Clear filters' })).toBeVisible();
  expect(await height(collections)).toBe(start);
});
