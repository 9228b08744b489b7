/**
 * The console from the keyboard alone (issue 14, point 5), against the real server, in a workspace of its own:
 * connect, skip to the main content, open a contact from its row, edit its tags, close it (focus back on the
 * row), sort by two columns (explained on screen), page, and open a product. Only Tab, Shift+Tab, Enter, Escape
 * and typing drive the page; the mouse is never used.
 */
import type { Locator, Page } from '@playwright/test';
import { cli, fetchApi } from './server';
import { type E2eState, readState } from './state';
import { checkAccessibility, expect, test } from './fixtures';

let ws: { id: string; key: string };

/** POST on the API with the workspace's key. */
async function apiPost(state: E2eState, path: string, body: unknown) {
  const response = await fetchApi(`${state.baseURL}/api${path}`, { method: 'POST', headers: { 'x-api-key': ws.key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status, await response.text()).toBe(201);
}

test.beforeAll(async () => {
  const state = readState();
  const workspace = cli<{ id: string }>(state.databaseUrl, 'workspace', 'create', '--org', state.demo.organization.id, '--name', `Keyboard Spec ${Date.now()}`);
  const { key } = cli<{ key: string }>(state.databaseUrl, 'key', 'create', '--workspace', workspace.id, '--scope', 'all');
  ws = { id: workspace.id, key };
  const cities = ['Oslo', 'Bergen', 'Aarhus'];
  for (let i = 0; i < 25; i++) {
    await apiPost(state, '/contacts', { name: `Keyboard ${String(i).padStart(2, '0')} ${['Ann', 'Bob'][i % 2]}`, email: `kbd${i}@spec.test`, city: cities[i % 3], addDirectly: true });
  }
  await apiPost(state, '/products', { title: 'Keyboard lamp', price: 12, currency: 'EUR' });
});

/** Presses Tab (Shift+Tab with `back`) until `target` has the focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  await target.waitFor();
  for (let presses = 0; presses < max; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${String(target)} not reached in ${max} presses`);
}

test('connect, skip to the content, open and tag a contact, sort by two columns, page and open a product, all from the keyboard', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/connect');
  await tabTo(page, page.getByLabel('API key', { exact: true }));
  await page.keyboard.type(ws.key);
  await tabTo(page, page.getByRole('button', { name: 'Connect', exact: true }));
  await page.keyboard.press('Enter');
  // Our service names `stats`: connecting lands on the overview (issue 35 point 5).
  await expect(page).toHaveURL(new RegExp(`/w/${ws.id}$`));
  await page.goto(`/w/${ws.id}/contacts?size=10`);

  // The skip link is the first stop, shows when focused, and leads past the header and navigation.
  const table = page.getByRole('table', { name: 'Contacts' });
  await expect(table.locator('tbody tr')).toHaveCount(10);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'New contact' })).toBeFocused();

  // Rows are links: Enter opens the contact at its address; tags are edited by typing; Escape closes, focus returns.
  const row = table.getByRole('link', { name: 'Keyboard 24 Ann' });
  await tabTo(page, row);
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog', { name: 'Keyboard 24 Ann' });
  await expect(drawer).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/w/${ws.id}/contacts/[^/?]+\\?size=10$`));
  await tabTo(page, drawer.getByRole('combobox', { name: 'Tags' }));
  await page.keyboard.type('keyboard-tag');
  await page.keyboard.press('Enter');
  await expect(table.getByRole('row', { name: /Keyboard 24 Ann/ })).toContainText('keyboard-tag');
  // The first Escape closes the tag suggestions (open while the field has the focus), the second the drawer.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/w/${ws.id}/contacts\\?size=10$`));
  await expect(row).toBeFocused();

  // Sorting: Enter sorts by a column, Shift+Enter adds the next key; the caption says so.
  await expect(table.locator('caption')).toContainText('Shift+Enter adds it as the next sort key');
  await tabTo(page, table.getByRole('button', { name: 'Name' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/sort=name%3Aasc/);
  await tabTo(page, table.getByRole('button', { name: 'City' }));
  await page.keyboard.press('Shift+Enter');
  await expect(page).toHaveURL(/sort=name%3Aasc%2Ccity%3Aasc/);
  await expect(table.locator('caption')).toContainText('Sorted by Name ascending, then City ascending.');
  await expect(table.getByRole('columnheader', { name: 'City' })).toHaveAttribute('aria-sort', 'ascending');
  await expect(table.getByRole('link').first()).toHaveText(/Keyboard 00 Ann/);
  await checkAccessibility(page, 'keyboard-contacts-sorted');

  // Paging.
  await tabTo(page, page.getByRole('button', { name: 'Next page' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('11–20 of 25')).toBeVisible();
  await expect(table.getByRole('link').first()).toHaveText(/Keyboard 10 Ann/);

  // Back up to the navigation, on to Products, and open a product.
  await tabTo(page, page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Products' }), { back: true });
  await page.keyboard.press('Enter');
  const lamp = page.getByRole('table', { name: 'Products' }).getByRole('link', { name: 'Keyboard lamp' });
  await tabTo(page, lamp);
  await page.keyboard.press('Enter');
  const form = page.getByRole('form', { name: 'Edit product' });
  await expect(form.getByRole('textbox', { name: 'Title', exact: true })).toHaveValue('Keyboard lamp');
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();
  await expect(lamp).toBeFocused();
});

test('closing the new contact form returns the focus to the button that opened it', async ({ page, connect }) => {
  await connect(ws.key);
  const button = page.getByRole('button', { name: 'New contact' });
  await tabTo(page, button);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'New contact' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'New contact' })).toBeHidden();
  await expect(button).toBeFocused();
});
