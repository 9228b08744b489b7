/**
 * Saved views (issue 14 point 7): the current filters, sort and columns of a list saved under a name, kept per
 * workspace on this device, listed on the page, opened in one click, renamed and deleted; a view is also its URL.
 * The same component serves every list page with filters.
 */
import type { Page } from '@playwright/test';
import { checkAccessibility, expect, test } from './fixtures';

const views = (page: Page) => page.getByRole('group', { name: 'Saved views' });

async function saveView(page: Page, name: string) {
  await views(page).getByRole('button', { name: 'Save view' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save the current view' });
  await dialog.getByRole('textbox', { name: 'View name' }).fill(name);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  return dialog;
}

async function viewAction(page: Page, view: string, action: 'Rename' | 'Copy link' | 'Delete') {
  await views(page).getByRole('button', { name: `Options of the view ${view}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

test('saves the filters, sort and columns of the contacts list as a named view, opens it in one click and by its URL, renames and deletes it, per workspace', async ({ page, state, connect, context }) => {
  const [nordic, lisbon] = state.demo.workspaces;
  await connect(lisbon!.key);
  await connect(nordic!.key);
  const table = page.getByRole('table', { name: 'Contacts' });
  await page.goto(`/w/${nordic!.id}/contacts?sort=name%3Aasc&state=active`);
  await expect(page.getByText(/matching contacts/)).toBeVisible();
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('checkbox', { name: 'City' }).uncheck();
  await page.keyboard.press('Escape');
  await expect(table.getByRole('columnheader', { name: 'City' })).toHaveCount(0);

  const dialog = await saveView(page, 'Active by name');
  await expect(dialog).toBeHidden();
  const link = views(page).getByRole('link', { name: 'Active by name' });
  await expect(link).toHaveAttribute('aria-current', 'true');
  await expect(link).toHaveAttribute('href', `/w/${nordic!.id}/contacts?hide=city&sort=name%3Aasc&state=active`);

  // Somewhere else, with the column back, one click on the view brings back its filters, sort and columns. (The
  // sidebar's link would bring the list back as it was left, issue 19: the plain list is opened by its address.)
  await page.goto(`/w/${nordic!.id}/contacts`);
  await expect(page.getByText('2,000 contacts')).toBeVisible();
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('checkbox', { name: 'City' }).check();
  await page.keyboard.press('Escape');
  await expect(link).not.toHaveAttribute('aria-current', 'true');
  await link.click();
  await expect(page).toHaveURL(/\/contacts\?sort=name%3Aasc&state=active$/);
  await expect(page.getByText(/matching contacts/)).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'City' })).toHaveCount(0);
  await expect(link).toHaveAttribute('aria-current', 'true');

  // The view is its URL: opened in another tab, it shows the same list.
  const other = await context.newPage();
  await other.goto(`/w/${nordic!.id}/contacts`);
  await other.getByRole('button', { name: 'Columns' }).click();
  await other.getByRole('checkbox', { name: 'City' }).check();
  await other.keyboard.press('Escape');
  await other.goto((await link.getAttribute('href'))!);
  await expect(other).toHaveURL(/\/contacts\?sort=name%3Aasc&state=active$/);
  await expect(other.getByRole('table', { name: 'Contacts' }).getByRole('columnheader', { name: 'City' })).toHaveCount(0);
  await expect(views(other).getByRole('link', { name: 'Active by name' })).toHaveAttribute('aria-current', 'true');
  await other.close();

  // Rename; a name taken by another view is refused.
  await viewAction(page, 'Active by name', 'Rename');
  const rename = page.getByRole('dialog', { name: 'Rename the view Active by name' });
  await rename.getByRole('textbox', { name: 'View name' }).fill('Active A to Z');
  await rename.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(views(page).getByRole('link', { name: 'Active A to Z' })).toBeVisible();
  const taken = await saveView(page, 'active a to z');
  await expect(taken.getByText('A view named active a to z already exists')).toBeVisible();
  await checkAccessibility(page, 'saved-views');
  await taken.getByRole('button', { name: 'Cancel' }).click();

  // Kept on this device: still there after a reload; but another workspace has views of its own.
  await page.reload();
  await expect(views(page).getByRole('link', { name: 'Active A to Z' })).toBeVisible();
  await page.goto(`/w/${lisbon!.id}/contacts`);
  await expect(views(page).getByRole('button', { name: 'Save view' })).toBeVisible();
  await expect(views(page).getByRole('link')).toHaveCount(0);

  await page.goto(`/w/${nordic!.id}/contacts`);
  await viewAction(page, 'Active A to Z', 'Delete');
  await expect(views(page).getByRole('link')).toHaveCount(0);
  expect(await page.evaluate((id) => localStorage.getItem(`workspace-admin.views.${id}.contacts`), nordic!.id)).toBeNull();
});

test('every other list page with filters saves and opens views: products, collections, posts and workspaces', async ({ page, state, connect }) => {
  const nordic = state.demo.workspaces[0]!;
  await connect(nordic.key);
  const pages = [
    { section: 'products', heading: 'Products', search: 'status=draft' },
    { section: 'collections', heading: 'Collections', search: 'q=a' },
    { section: 'posts', heading: 'Posts', search: 'sort=most-claps' },
    { section: 'workspaces', heading: 'Workspaces', search: 'q=o' },
  ];
  for (const { section, heading, search } of pages) {
    await page.goto(`/w/${nordic.id}/${section}?${search}`);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await saveView(page, `My ${section}`);
    await page.goto(`/w/${nordic.id}/${section}`); // the plain list (the sidebar would restore the list as it was left)
    await expect(page).toHaveURL(new RegExp(`/${section}$`));
    await views(page).getByRole('link', { name: `My ${section}` }).click();
    await expect(page, section).toHaveURL(new RegExp(`/${section}\\?${search}$`));
  }
});
