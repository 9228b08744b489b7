/**
 * The workspace switcher (issue 14 point 4): switching back to a workspace restores that workspace's list (filters,
 * sort, page and columns) on each list page, and switching to a workspace without a key opens an add-key dialog in
 * place, where a pasted key connects in one click: checked, its permissions shown, the workspace opened.
 */
import type { Page } from '@playwright/test';
import { checkAccessibility, expect, makeWorkspace, searchWorkspaces, test } from './fixtures';

async function switchTo(page: Page, name: string) {
  await page.getByRole('button', { name: /Switch workspace/ }).click();
  await (await searchWorkspaces(page, name)).getByRole('option', { name }).click();
}

test('switching back restores each list page of the workspace as it was left: filters, sort, page and columns', async ({ page, state, connect }) => {
  const [nordic, lisbon] = state.demo.workspaces;
  await connect(lisbon!.key);
  await connect(nordic!.key);
  const contactsView = `/w/${nordic!.id}/contacts?page=2&sort=name%3Adesc&state=active`;
  await page.goto(contactsView);
  await expect(page.getByText(/matching contacts/)).toBeVisible();
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('checkbox', { name: 'Phone' }).uncheck();
  await page.keyboard.press('Escape');
  const table = page.getByRole('table', { name: 'Contacts' });
  await expect(table.getByRole('columnheader', { name: 'Phone' })).toHaveCount(0);
  const firstRow = (await table.locator('tbody tr').first().textContent()) ?? '';

  await switchTo(page, lisbon!.name);
  await expect(page).toHaveURL(new RegExp(`/w/${lisbon!.id}/contacts$`));
  await expect(page.getByText('300 contacts')).toBeVisible();
  await switchTo(page, nordic!.name);
  await expect(page).toHaveURL(new RegExp(`${contactsView.replace(/[?]/g, '\\?')}$`));
  await expect(page.getByText(/matching contacts/)).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Phone' })).toHaveCount(0);
  await expect(table.locator('tbody tr').first()).toHaveText(firstRow);

  // Another list page keeps its own state.
  await page.goto(`/w/${nordic!.id}/products?status=draft`);
  await expect(page.getByText(/matching products?$/)).toBeVisible();
  await switchTo(page, lisbon!.name);
  await expect(page).toHaveURL(new RegExp(`/w/${lisbon!.id}/products$`));
  await switchTo(page, nordic!.name);
  await expect(page).toHaveURL(new RegExp(`/w/${nordic!.id}/products\\?status=draft$`));
  await expect(page.getByRole('combobox', { name: 'Status' }).or(page.getByLabel('Status', { exact: true })).first()).toHaveValue('draft');
});

test('switching to a workspace without a key opens an add-key dialog in place; a pasted key connects in one click and says what it allows', async ({ page, state, connect }) => {
  const nordic = state.demo.workspaces[0]!;
  const keyless = await makeWorkspace('Add in place', 'contacts:read-only,products:read-write');
  await connect(nordic.key);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Collections' }).click();
  await expect(page.getByRole('heading', { name: 'Collections', level: 1 })).toBeVisible();
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url());
  });

  await page.getByRole('button', { name: /Switch workspace/ }).click();
  const option = (await searchWorkspaces(page, keyless.name)).getByRole('option', { name: keyless.name });
  await expect(option).toContainText('Add key');
  await option.click();
  const dialog = page.getByRole('dialog', { name: `Add a key for ${keyless.name}` });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/w/${nordic.id}/collections$`));
  await checkAccessibility(page, 'add-key-dialog');

  // A key of another workspace is refused, and nothing is saved.
  await dialog.getByLabel('API key', { exact: true }).fill(state.demo.workspaces[1]!.key);
  await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText(`This key belongs to ${state.demo.workspaces[1]!.name}, not ${keyless.name}. Nothing was saved.`);

  await dialog.getByLabel('API key', { exact: true }).fill(keyless.key);
  await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${keyless.id}/collections$`));
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: `Connected to ${keyless.name}` })).toContainText(
    'With this key you can see contacts and see and change products.',
  );
  await expect(page.getByRole('heading', { name: 'Collections', level: 1 })).toBeVisible();
  // The notice covers nothing and goes once the user moves on.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Products' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connected to' })).toHaveCount(0);
  expect(visited.filter((url) => url.includes('/connect'))).toEqual([]);
});

test('an organization with more workspaces than the switcher shows at once: its search box is a combobox over the scrolling list, which passes axe', async ({ page, state, connect }) => {
  // Workspaces enough for the list (at most 320 px high) to scroll, however many other tests have made by now.
  for (let made = 0; made < 12; made += 1) await makeWorkspace('Scroll list');
  await connect(state.demo.workspaces[0]!.key);
  // Whether the search box names the list in every state of the page that shows both: from the list's first
  // render, not once something renders the box again (its `aria-controls` stayed unset for 10 s in a CI run).
  await page.evaluate(() => {
    const seen: boolean[] = ((window as unknown as { controlsSeen: boolean[] }).controlsSeen = []);
    new MutationObserver(() => {
      const search = document.querySelector('input[aria-label="Search workspaces"]');
      const list = document.querySelector('[role="listbox"][aria-label="Workspaces"]');
      if (search && list) seen.push(search.getAttribute('aria-controls') === list.id);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await page.getByRole('button', { name: /Switch workspace/ }).click();
  const list = page.getByRole('listbox', { name: 'Workspaces' });
  // Its first page (50, by name) is listed: ten or more options, whichever workspaces they are by now.
  await expect(list.getByRole('option').nth(9)).toBeAttached();
  expect(await list.evaluate((element) => element.scrollHeight > element.clientHeight), 'the list scrolls').toBe(true);
  // The ARIA combobox pattern: the options are reached with the arrow keys from the search box, which says so.
  const search = page.getByRole('combobox', { name: 'Search workspaces' });
  await expect(search).toHaveAttribute('aria-expanded', 'true');
  await expect(search).toHaveAttribute('aria-controls', (await list.getAttribute('id'))!);
  const controlsSeen = await page.evaluate(() => (window as unknown as { controlsSeen: boolean[] }).controlsSeen);
  expect(controlsSeen.length, 'states with the search box and the list').toBeGreaterThan(0);
  expect(controlsSeen.filter((named) => !named), 'states where the search box did not name the list').toEqual([]);
  await checkAccessibility(page, 'workspace-switcher-long', { colors: false });
});
