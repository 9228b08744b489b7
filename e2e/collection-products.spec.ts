/**
 * A collection's products (issue 34 point 10: "a collection cannot list or add its products"), against the real
 * server: the collection's drawer lists its products ten a page with the service's count, adds a product found by
 * title and removes one, each through the product's upsert with its other collections kept, and the products list
 * (seen before, so cached) shows the change; its link opens the products list filtered by the collection. A read-only
 * key sees the list and pages through it, with nothing to add or remove. In an nb-NO browser on a 360 px phone it reads
 * in bokmål, adds a product (the choices open above the field) and fits the screen. Each test works in a workspace of
 * its own.
 */
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { cli } from './server';
import { readState } from './state';
import { checkAccessibility, expect, makeWorkspace, test } from './fixtures';

/** A name no other test uses. */
const unique = (prefix: string) => `${prefix}${randomUUID().replace(/-/g, '').slice(0, 8)}`;

/** `POST path` through the API with `key`; returns the new record's id. */
async function upsert(request: APIRequestContext, key: string, path: '/api/products' | '/api/collections', body: Record<string, unknown>): Promise<string> {
  const response = await request.post(path, { headers: { 'x-api-key': key }, data: body });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** The titles of the collections product `id` is in, as the service lists them. */
async function collectionsOf(request: APIRequestContext, key: string, id: string): Promise<string[]> {
  const response = await request.get('/api/products', { headers: { 'x-api-key': key }, params: { $filter: `id eq '${id}'` } });
  const { items } = (await response.json()) as { items: { collections: { collectionTitle: string }[] }[] };
  return items[0]!.collections.map((collection) => collection.collectionTitle).sort();
}

/** A workspace with collection `trail` holding 12 products (`Trail item 01` to `12`), a `Lantern` in collection `gifts` only. */
async function catalog(request: APIRequestContext, key: string) {
  const trail = unique('Trail ');
  const gifts = unique('Gifts ');
  const trailId = await upsert(request, key, '/api/collections', { title: trail });
  const giftsId = await upsert(request, key, '/api/collections', { title: gifts });
  for (let index = 1; index <= 12; index++) await upsert(request, key, '/api/products', { title: `Trail item ${String(index).padStart(2, '0')}`, collectionIds: [trailId] });
  const lantern = unique('Lantern ');
  const lanternId = await upsert(request, key, '/api/products', { title: lantern, price: 25, currency: 'NOK', collectionIds: [giftsId] });
  return { trail, trailId, gifts, lantern, lanternId };
}

const section = (page: Page) => page.getByRole('region', { name: 'Products in this collection' });
const productList = (page: Page) => section(page).getByRole('list', { name: 'Products in this collection' });

test("a collection's drawer lists its products, adds one found by title and removes one, and the products list shows it", async ({ page, connect, request }) => {
  const ws = await makeWorkspace('Collection products');
  const { trail, trailId, gifts, lantern, lanternId } = await catalog(request, ws.key);
  await connect(ws.key);

  // The products list, seen first: cached, so the change made in the drawer must reach it.
  await page.goto(`/w/${ws.id}/products`);
  const lanternRow = page.getByRole('table', { name: 'Products' }).getByRole('row').filter({ hasText: lantern });
  await expect(lanternRow).toContainText(gifts);
  await expect(lanternRow).not.toContainText(trail);

  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Collections' }).click();
  await page.getByRole('table', { name: 'Collections' }).getByRole('link', { name: trail }).click();
  const drawer = page.getByRole('form', { name: 'Edit collection' });
  await expect(section(page).getByText('12 products', { exact: true })).toBeVisible();
  await expect(productList(page).getByRole('listitem')).toHaveCount(10);
  await expect(section(page).getByText('1–10 of 12')).toBeVisible();
  await section(page).getByRole('button', { name: 'Next products' }).click();
  await expect(productList(page).getByRole('listitem')).toHaveCount(2);
  await expect(section(page).getByText('11–12 of 12')).toBeVisible();
  await section(page).getByRole('button', { name: 'Previous products' }).click();
  await expect(productList(page).getByRole('listitem')).toHaveCount(10);
  await checkAccessibility(page, 'collection-products-drawer', { include: 'form[aria-label="Edit collection"]', exclude: 'iframe' });

  // Add: found by a word of its title among the products not in the collection; its other collection stays.
  const add = section(page).getByRole('combobox', { name: 'Add a product' });
  await add.click();
  await add.fill(lantern.slice(0, 10));
  await expect(page.getByRole('option', { name: 'Trail item 01' })).toHaveCount(0);
  await page.getByRole('option', { name: lantern }).click();
  await expect(page.getByText(`“${lantern}” added to this collection`)).toBeVisible();
  await expect(section(page).getByText('13 products', { exact: true })).toBeVisible();
  expect(await collectionsOf(request, ws.key, lanternId)).toEqual([gifts, trail].sort());
  await expect(drawer.getByRole('button', { name: 'Save collection' })).toBeVisible();

  // The link opens the products list filtered by the collection, which shows the product in both collections.
  await section(page).getByRole('link', { name: 'Show them in the products list' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${ws.id}/products\\?collection=${trailId}$`));
  await expect(page.getByText('13 matching products', { exact: true })).toBeVisible();
  await expect(lanternRow).toContainText(gifts);
  await expect(lanternRow).toContainText(trail);

  // Remove: back in the drawer (the newest products first), the product leaves this collection only.
  await page.goto(`/w/${ws.id}/collections/${trailId}`);
  await section(page).getByRole('button', { name: `Remove ${lantern} from this collection` }).click();
  await expect(page.getByText(`“${lantern}” removed from this collection`)).toBeVisible();
  await expect(section(page).getByText('12 products', { exact: true })).toBeVisible();
  expect(await collectionsOf(request, ws.key, lanternId)).toEqual([gifts]);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.goto(`/w/${ws.id}/products`);
  await expect(lanternRow).toContainText(gifts);
  await expect(lanternRow).not.toContainText(trail);
});

test("a read-only key sees a collection's products and pages through them, with nothing to add or remove", async ({ page, connect, request }) => {
  const ws = await makeWorkspace('Collection products read-only');
  const { trailId } = await catalog(request, ws.key);
  const { key } = cli<{ key: string }>(readState().databaseUrl, 'key', 'create', '--workspace', ws.id, '--scope', 'contacts:read-only,products:read-only');
  await connect(key, { path: `collections/${trailId}` });
  await expect(page.getByRole('form', { name: 'Collection' })).toBeVisible();
  await expect(section(page).getByText('12 products', { exact: true })).toBeVisible();
  await section(page).getByRole('button', { name: 'Next products' }).click();
  await expect(productList(page).getByRole('listitem')).toHaveCount(2);
  await expect(section(page).getByRole('combobox', { name: 'Add a product' })).toHaveCount(0);
  await expect(section(page).getByRole('button', { name: /^Remove / })).toHaveCount(0);
  await expect(section(page).getByText('Your key may read products but not change them, so products cannot be added or removed here.')).toBeVisible();
});

test.describe('in bokmål on a 360 px phone', () => {
  test.use({ locale: 'nb-NO', viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

  test("a collection's products read in bokmål, and the drawer is no wider than the phone", async ({ page, connect, request }) => {
    const ws = await makeWorkspace('Kolleksjonens produkter');
    const { trailId, lantern } = await catalog(request, ws.key);
    await connect(ws.key, { path: `collections/${trailId}` });
    const region = page.getByRole('region', { name: 'Produkter i denne kolleksjonen' });
    await expect(region.getByText('12 produkter', { exact: true })).toBeVisible();
    await expect(region.getByText('1–10 av 12')).toBeVisible();
    await expect(region.getByRole('link', { name: 'Vis dem i produktlisten' })).toBeVisible();
    await expect(region.getByRole('button', { name: 'Fjern Trail item 12 fra denne kolleksjonen' })).toBeVisible();
    const add = region.getByRole('combobox', { name: 'Legg til et produkt' });
    await add.click();
    await add.fill(lantern.slice(0, 10));
    await page.getByRole('option', { name: lantern }).click();
    await expect(page.getByText(`«${lantern}» er lagt til i denne kolleksjonen`)).toBeVisible();
    await expect(region.getByText('13 produkter', { exact: true })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});
