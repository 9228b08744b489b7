/**
 * Products and collections (issue 6), against the real server: the collection and product upsert drawers, the
 * tables and their filters, server errors on their fields, checks before any request, upserts keyed by
 * externalId, and HTML descriptions that never run. Each test works in a workspace of its own, made through the
 * operator command line, with unique names: other specs share the server and database.
 */
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Locator, Page, Request } from '@playwright/test';
import { cli } from './server';
import { readState } from './state';
import { checkAccessibility, expect, makeWorkspace, test } from './fixtures';

/** A name no other test uses. */
const unique = (prefix: string) => `${prefix}${randomUUID().replace(/-/g, '').slice(0, 8)}`;

/** Upserts a product through the API; returns its id. */
async function apiProduct(request: APIRequestContext, key: string, body: Record<string, unknown>): Promise<string> {
  const response = await request.post('/api/products', { headers: { 'x-api-key': key }, data: body });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** The `POST /products` requests the page sends from now on. */
function productPosts(page: Page): Request[] {
  const sent: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/products') sent.push(request);
  });
  return sent;
}

const table = (page: Page, name: 'Products' | 'Collections') => page.getByRole('table', { name });
const rowOf = (page: Page, name: 'Products' | 'Collections', title: string) => table(page, name).getByRole('row').filter({ hasText: title });
/** Waits until the table shows the rows of the current URL (no request in flight behind the shown page). */
const settled = (page: Page, name: 'Products' | 'Collections') => expect(table(page, name)).not.toHaveAttribute('aria-busy', 'true');

/** Picks `option` in the Mantine combobox labelled `label` inside `scope`, typing `search` first. */
async function pick(page: Page, scope: Locator, label: string, search: string, option: string | RegExp) {
  const box = scope.getByRole('combobox', { name: label });
  await box.click();
  await box.fill(search);
  await page.getByRole('option', { name: option }).click();
}

/** Axe on the open drawer's form, without the sandboxed description preview frame (axe cannot run inside it). */
const checkDrawerAccessibility = (page: Page, form: string, screenshot: string) =>
  checkAccessibility(page, screenshot, { include: `form[aria-label="${form}"]`, exclude: 'iframe' });

/** The drawer's form, by its name (`New product`, `Edit product`, ...). */
const drawerForm = (page: Page, name: string) => page.getByRole('form', { name });

test('creates a collection, creates a product in it, edits its price, and finds it by that collection', async ({ page, connect, request }) => {
  const ws = await makeWorkspace('Catalog');
  await apiProduct(request, ws.key, { title: unique('Unrelated '), price: 1, currency: 'EUR' });
  await connect(ws.key);

  await page.goto(`/w/${ws.id}/collections`);
  await expect(page.getByText('No collections yet.')).toBeVisible();
  const collection = unique('Winter Sale ');
  await page.getByRole('button', { name: 'New collection' }).click();
  const newCollection = drawerForm(page, 'New collection');
  await newCollection.getByRole('textbox', { name: 'Title', exact: true }).fill(collection);
  await expect(newCollection.getByRole('textbox', { name: 'Handle', exact: true })).toHaveValue(collection.toLowerCase().replace(/ /g, '-'));
  await newCollection.getByRole('textbox', { name: 'Source', exact: true }).fill('e2e');
  await newCollection.getByRole('button', { name: 'Create collection' }).click();
  await expect(page.getByText('Collection created')).toBeVisible();
  await expect(newCollection).toBeHidden();
  await expect(rowOf(page, 'Collections', collection)).toContainText('e2e');
  await expect(page.getByText('1 collection', { exact: true })).toBeVisible();
  await checkAccessibility(page, 'catalog-collections');
  await rowOf(page, 'Collections', collection).getByRole('link', { name: collection }).click();
  const editCollection = drawerForm(page, 'Edit collection');
  await expect(editCollection.getByRole('textbox', { name: 'Handle', exact: true })).toHaveValue(collection.toLowerCase().replace(/ /g, '-'));
  await editCollection.getByRole('textbox', { name: 'Source', exact: true }).fill('e2e, edited');
  await editCollection.getByRole('button', { name: 'Save collection' }).click();
  await expect(page.getByText('Collection updated')).toBeVisible();
  await expect(rowOf(page, 'Collections', collection)).toContainText('e2e, edited');
  await page.getByRole('textbox', { name: 'Search', exact: true }).fill('no such collection');
  await expect(page.getByText('No collections match these filters.')).toBeVisible();
  await expect(page).toHaveURL(/q=no/);

  await page.getByRole('link', { name: 'Products' }).click();
  const product = unique('Parka ');
  await page.getByRole('button', { name: 'New product' }).click();
  const newProduct = drawerForm(page, 'New product');
  await newProduct.getByRole('textbox', { name: 'Title', exact: true }).fill(product);
  await newProduct.getByRole('textbox', { name: 'Price', exact: true }).fill('10');
  await expect(newProduct.getByRole('combobox', { name: 'Currency' })).toHaveValue(/^EUR/);
  await pick(page, newProduct, 'Collections', collection.slice(0, 12), collection);
  await newProduct.getByRole('button', { name: 'Create product' }).click();
  await expect(page.getByText('Product created')).toBeVisible();
  await expect(newProduct).toBeHidden();
  const row = rowOf(page, 'Products', product);
  await expect(row).toContainText('€10.00');
  await expect(row).toContainText(collection);

  await row.getByRole('link', { name: product }).click();
  const edit = drawerForm(page, 'Edit product');
  await expect(edit.getByRole('textbox', { name: 'Title', exact: true })).toHaveValue(product);
  await expect(edit.getByRole('textbox', { name: 'Price', exact: true })).toHaveValue('10');
  await edit.getByRole('textbox', { name: 'Price', exact: true }).fill('12.5');
  await edit.getByRole('textbox', { name: 'Original price', exact: true }).fill('20');
  await edit.getByRole('button', { name: 'Save product' }).click();
  await expect(page.getByText('Product updated')).toBeVisible();
  await expect(row).toContainText('€12.50');
  await expect(row.locator('s')).toHaveText('Original price €20.00');
  await expect(row).toContainText(collection);
  await expect(page.getByText('2 products', { exact: true })).toBeVisible();

  await pick(page, page.getByRole('search', { name: 'Filter products' }), 'Collection', collection.slice(0, 12), collection);
  await expect(page).toHaveURL(/collection=/);
  await settled(page, 'Products');
  await expect(page.getByText('1 matching product', { exact: true })).toBeVisible();
  await expect(table(page, 'Products').locator('tbody tr')).toHaveCount(1);
  await expect(row).toContainText('€12.50');
  await checkAccessibility(page, 'catalog-products');
});

test('a negative price is refused before any request, and a taken handle shows its error on the handle field', async ({ page, connect, request }) => {
  const ws = await makeWorkspace('Catalog errors');
  const taken = unique('taken-');
  await apiProduct(request, ws.key, { title: 'First', handle: taken });
  await connect(ws.key, { path: 'products' });
  await expect(rowOf(page, 'Products', 'First')).toBeVisible();

  const sent = productPosts(page);
  await page.getByRole('button', { name: 'New product' }).click();
  const form = drawerForm(page, 'New product');
  await form.getByRole('textbox', { name: 'Title', exact: true }).fill('Second');
  await form.getByRole('textbox', { name: 'Handle', exact: true }).fill(taken);
  await form.getByRole('textbox', { name: 'Price', exact: true }).fill('-5');
  await form.getByRole('button', { name: 'Create product' }).click();
  await expect(form.getByRole('textbox', { name: 'Price', exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByText("The price can't be less than 0.")).toBeVisible();
  expect(sent).toHaveLength(0);
  await checkDrawerAccessibility(page, 'New product', 'catalog-product-drawer');

  await form.getByRole('textbox', { name: 'Price', exact: true }).fill('5');
  await form.getByRole('button', { name: 'Create product' }).click();
  await expect(form.getByText(`A product with handle ${taken} already exists`)).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'Handle', exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByRole('textbox', { name: 'Handle', exact: true })).toHaveAccessibleDescription(new RegExp(`handle ${taken} already exists`));
  expect(sent).toHaveLength(1);
  await expect(form.getByRole('textbox', { name: 'Price', exact: true })).not.toHaveAttribute('aria-invalid', 'true');

  // Leaving the changed form asks first; discarding closes it without saving.
  await page.getByRole('button', { name: 'Close new product' }).click();
  await form.getByRole('button', { name: 'Discard changes' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByText('1 product', { exact: true })).toBeVisible();
  expect(sent).toHaveLength(1);
});

test('saving the same externalId twice gives one product: created, then updated', async ({ page, connect, request }) => {
  const ws = await makeWorkspace('Catalog upsert');
  await connect(ws.key, { path: 'products' });
  await expect(page.getByText('No products yet.')).toBeVisible();
  const externalId = unique('sku-');

  for (const [title, notice] of [['Lamp', 'Product created'], ['Lamp, brass', 'Product updated']] as const) {
    await page.getByRole('button', { name: 'New product' }).click();
    const form = drawerForm(page, 'New product');
    await form.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
    await form.getByRole('textbox', { name: 'External id', exact: true }).fill(externalId);
    await form.getByRole('button', { name: 'Create product' }).click();
    await expect(page.getByText(notice)).toBeVisible();
    await expect(form).toBeHidden();
  }
  await settled(page, 'Products');
  await expect(page.getByText('1 product', { exact: true })).toBeVisible();
  await expect(table(page, 'Products').locator('tbody tr')).toHaveCount(1);
  await expect(rowOf(page, 'Products', 'Lamp, brass')).toBeVisible();
  const listed = await request.get(`/api/products?%24filter=${encodeURIComponent(`externalId eq '${externalId}'`)}`, { headers: { 'x-api-key': ws.key } });
  expect(((await listed.json()) as { meta: { maxResults: number } }).meta.maxResults).toBe(1);
});

test('a description with a script and an onerror attribute never runs: not in the preview, not after saving, not when edited again', async ({ page, connect, request }) => {
  const ws = await makeWorkspace('Catalog html');
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await connect(ws.key, { path: 'products' });
  const payload = [
    '<p>Plain <b>bold</b> words</p>',
    '<img src="x" onerror="window.__pwned = 1; alert(1)">',
    '<script>window.__pwned2 = 1; alert(2)</script>',
    '<a href="javascript:window.__pwned3 = 1">link</a>',
    '<svg><animate onbegin="window.__pwned4 = 1" attributeName="x" dur="1s"/></svg>',
  ].join('\n');
  const pwned = () => page.evaluate(() => [1, 2, 3, 4].map((n) => (window as unknown as Record<string, unknown>)[`__pwned${n === 1 ? '' : n}`]));
  const preview = (form: Locator) => form.locator('iframe[title="Description preview"]');
  /** The preview shows the harmless part, and its document holds nothing that could run. */
  async function previewIsInert(form: Locator) {
    await expect(preview(form)).toHaveAttribute('srcdoc', /Plain <b>bold<\/b> words/);
    const doc = (await preview(form).getAttribute('srcdoc')) ?? '';
    expect(doc).not.toMatch(/<script|onerror|onbegin|javascript:/i);
    await expect(preview(form)).toHaveAttribute('sandbox', '');
    await expect(page.frameLocator('iframe[title="Description preview"]').getByText('bold')).toBeVisible();
  }

  const title = unique('Lamp ');
  await page.getByRole('button', { name: 'New product' }).click();
  const form = drawerForm(page, 'New product');
  await form.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
  await form.getByRole('textbox', { name: 'Description (HTML)', exact: true }).fill(payload);
  await previewIsInert(form);
  await page.waitForTimeout(500);
  expect(await pwned()).toEqual([undefined, undefined, undefined, undefined]);

  await form.getByRole('button', { name: 'Create product' }).click();
  await expect(page.getByText('Product created')).toBeVisible();
  await expect(rowOf(page, 'Products', title)).toBeVisible();
  const stored = await request.get(`/api/products?%24filter=${encodeURIComponent(`title eq '${title}'`)}`, { headers: { 'x-api-key': ws.key } });
  expect(((await stored.json()) as { items: { bodyHtml: string }[] }).items[0]!.bodyHtml).toBe(payload);
  expect(await pwned()).toEqual([undefined, undefined, undefined, undefined]);

  await page.reload();
  await rowOf(page, 'Products', title).getByRole('link', { name: title }).click();
  const edit = drawerForm(page, 'Edit product');
  await expect(edit.getByRole('textbox', { name: 'Description (HTML)', exact: true })).toHaveValue(payload);
  await previewIsInert(edit);
  await page.waitForTimeout(500);
  expect(await pwned()).toEqual([undefined, undefined, undefined, undefined]);
  expect(dialogs).toEqual([]);
});

test('a key without products:read-write sees the catalogue but cannot create or edit', async ({ page, connect, request }) => {
  const ws = await makeWorkspace('Catalog read-only');
  const title = unique('Vase ');
  await apiProduct(request, ws.key, { title, price: 3, currency: 'USD' });
  const { key } = cli<{ key: string }>(readState().databaseUrl, 'key', 'create', '--workspace', ws.id, '--scope', 'contacts:read-only,products:read-only');
  await connect(key, { path: 'products' });
  await expect(rowOf(page, 'Products', title)).toContainText('$3.00');
  await expect(page.getByRole('button', { name: 'New product' })).toBeDisabled();
  await expect(rowOf(page, 'Products', title).getByRole('button', { name: title })).toHaveCount(0);
  await page.goto(`/w/${ws.id}/collections`);
  await expect(page.getByRole('button', { name: 'New collection' })).toBeDisabled();
});
