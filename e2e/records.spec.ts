/**
 * Records with addresses (issue 14, point 2), against the real server: opening a contact, a product or a
 * collection puts it in the URL over the list's own search parameters, so a reload or the same URL in a new tab
 * opens the same record over the same list view; Back closes it, Forward opens it again; an unknown id says so.
 */
import type { Page } from '@playwright/test';
import { cli } from './server';
import { checkAccessibility, expect, test } from './fixtures';

/** The record's id, from the address the page is at (`/w/:workspaceId/<section>/:id`). */
const idIn = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');

test('two closes before the address changes close the record once: the list keeps its own entry', async ({ page, state, connect }) => {
  const workspace = state.demo.workspaces[2]!;
  await connect(workspace.key);
  await page.goto(`/w/${workspace.id}/contacts?state=active`);
  const table = page.getByRole('table', { name: 'Contacts' });
  await expect(table).not.toHaveAttribute('aria-busy', 'true');
  await table.locator('tbody tr').first().getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.id}/contacts/[^/?]+\\?state=active$`));
  const drawer = page.getByRole('dialog');
  await expect(drawer).toBeVisible();
  // Two Escapes in one task, as a busy page receives them: both reach the drawer before the address changes.
  await page.evaluate(() => {
    for (let i = 0; i < 2; i++) (document.activeElement ?? document.body).dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  });
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.id}/contacts\\?state=active$`));
  await page.waitForTimeout(500); // a second Back would land on the plain list by now
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.id}/contacts\\?state=active$`));
});

test('a contact has an address: reload and a new tab open it over the same list, Back closes it, an unknown id says so', async ({ page, context, state, connect }) => {
  const workspace = state.demo.workspaces[2]!;
  await connect(workspace.key, { remember: true, path: 'contacts?state=active&page=2' });
  const table = page.getByRole('table', { name: 'Contacts' });
  await expect(table).not.toHaveAttribute('aria-busy', 'true');
  await expect(page.getByText(/^21–40 of /)).toBeVisible();

  await table.locator('tbody tr').first().getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.id}/contacts/[^/?]+\\?state=active&page=2$`));
  const id = idIn(page);
  const url = page.url();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByText(id, { exact: true })).toBeVisible();

  await page.reload();
  await expect(drawer.getByText(id, { exact: true })).toBeVisible();
  await expect(page.getByLabel('State', { exact: true })).toHaveValue('active');
  await expect(page.getByText(/^21–40 of /)).toBeVisible();

  const other = await context.newPage();
  await other.goto(url);
  await expect(other.getByRole('dialog').getByText(id, { exact: true })).toBeVisible();
  await expect(other.getByLabel('State', { exact: true })).toHaveValue('active');
  await other.close();

  await page.goBack();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.id}/contacts\\?state=active&page=2$`));
  await page.goForward();
  await expect(drawer.getByText(id, { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Close contact' }).click();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.id}/contacts\\?state=active&page=2$`));

  // A contact the page on screen does not hold is looked up by its id.
  await page.goto(`/w/${workspace.id}/contacts/${encodeURIComponent(id)}?state=pending`);
  await expect(drawer.getByText(id, { exact: true })).toBeVisible();

  await page.goto(`/w/${workspace.id}/contacts/no-such-contact?state=active`);
  const missing = page.getByRole('dialog', { name: 'Contact not found' });
  await expect(missing).toContainText('This workspace has no contact with the id “no-such-contact”');
  await checkAccessibility(page, 'record-not-found');
  await missing.getByRole('button', { name: 'Back to the list' }).click();
  await expect(missing).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.id}/contacts\\?state=active$`));
  await expect(table.locator('tbody tr')).toHaveCount(20);
});

test('products and collections have addresses: reload keeps the record open over the list, Back closes it, an unknown id says so', async ({ page, state, connect }) => {
  const workspace = state.demo.workspaces[0]!;
  await connect(workspace.key);

  await page.goto(`/w/${workspace.id}/products?status=active`);
  const products = page.getByRole('table', { name: 'Products' });
  const link = products.locator('tbody tr').first().getByRole('link');
  const title = (await link.innerText()).trim();
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.id}/products/[^/?]+\\?status=active$`));
  const form = page.getByRole('form', { name: 'Edit product' });
  await expect(form.getByRole('textbox', { name: 'Title', exact: true })).toHaveValue(title);
  await page.reload();
  await expect(form.getByRole('textbox', { name: 'Title', exact: true })).toHaveValue(title);
  await expect(page.getByRole('search', { name: 'Filter products' }).getByLabel('Status')).toHaveValue('active');
  await page.goBack();
  await expect(form).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.id}/products\\?status=active$`));
  await page.goto(`/w/${workspace.id}/products/no-such-product`);
  await expect(page.getByRole('dialog', { name: 'Product not found' })).toContainText('no product with the id “no-such-product”');

  await page.goto(`/w/${workspace.id}/collections`);
  const collections = page.getByRole('table', { name: 'Collections' });
  const collection = collections.locator('tbody tr').first().getByRole('link');
  const name = (await collection.innerText()).trim();
  await collection.click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.id}/collections/[^/?]+$`));
  const id = idIn(page);
  await page.reload();
  const edit = page.getByRole('form', { name: 'Edit collection' });
  await expect(edit.getByRole('textbox', { name: 'Title', exact: true })).toHaveValue(name);
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await expect(edit).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.id}/collections$`));
  await page.goto(`/w/${workspace.id}/collections/${id}x`);
  await expect(page.getByRole('dialog', { name: 'Collection not found' })).toBeVisible();
});

test('a product opened with a key that cannot write shows its fields read-only, with only Close', async ({ page, state, connect }) => {
  const workspace = state.demo.workspaces[0]!;
  const { key } = cli<{ key: string }>(state.databaseUrl, 'key', 'create', '--workspace', workspace.id, '--scope', 'contacts:read-only,products:read-only');
  await connect(key, { path: 'products' });
  const link = page.getByRole('table', { name: 'Products' }).locator('tbody tr').first().getByRole('link');
  const title = (await link.innerText()).trim();
  await link.click();
  const form = page.getByRole('form', { name: 'Product' });
  await expect(form.getByRole('textbox', { name: 'Title', exact: true })).toHaveValue(title);
  await expect(form.getByRole('textbox', { name: 'Title', exact: true })).toBeDisabled();
  await expect(form.getByRole('button', { name: /Save/ })).toHaveCount(0);
  await form.getByRole('button', { name: 'Close' }).click();
  await expect(form).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.id}/products$`));
});
