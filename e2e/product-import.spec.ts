/**
 * "Import CSV" on the products page (issue 6), against the real server, in a workspace of its own (made through the
 * operator command line) so other specs cannot change its numbers: a 200-row file with 3 bad rows, run twice
 * (created, then updated), its downloaded report, the API's view of the result, the sample CSV, the pause on 429,
 * and a key that may not write.
 */
import { readFileSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { type StartedServer, cli, startService } from './server';
import { type E2eState, readState } from './state';
import { checkAccessibility, expect, test } from './fixtures';

let ws: { id: string; key: string };

test.beforeAll(() => {
  const state = readState();
  const workspace = cli<{ id: string }>(state.databaseUrl, 'workspace', 'create', '--org', state.demo.organization.id, '--name', `Import Spec ${Date.now()}`);
  const { key } = cli<{ key: string }>(state.databaseUrl, 'key', 'create', '--workspace', workspace.id, '--scope', 'all');
  ws = { id: workspace.id, key };
});

/** GET on the API of `baseURL` with the workspace's key; the parsed JSON. */
async function apiGet(baseURL: string, path: string) {
  const response = await fetch(`${baseURL}/api${path}`, { headers: { 'x-api-key': ws.key } });
  expect(response.status).toBe(200);
  return response.json();
}

/** Products of the workspace whose externalId starts with `prefix`, with their count. */
async function productsWithPrefix(state: E2eState, prefix: string, limit = 100) {
  return apiGet(state.baseURL, `/products?%24limit=${limit}&%24filter=${encodeURIComponent(`externalId like '${prefix}%'`)}`);
}

const BAD_ROWS: Record<number, { price?: string; title?: string; reason: string }> = {
  40: { price: '-5', reason: 'price must not be less than 0' },
  90: { price: 'abc', reason: "price: 'abc' is not a number (this column has a decimal point)" },
  150: { title: '', reason: 'A new product needs a title.' },
};

/** `count` product rows keyed `<prefix><i>`; the rows of BAD_ROWS carry their fault. An unmapped `Notes` column too. */
function productsCsv(prefix: string, count: number): string {
  const lines = ['External ID,Title,Price,Currency,Is For Sale,Tags,Notes'];
  for (let i = 0; i < count; i++) {
    const bad = BAD_ROWS[i];
    lines.push([`${prefix}${i}`, bad?.title ?? `"Imported, item ${i}"`, bad?.price ?? (10 + i / 4).toFixed(2), 'EUR', i % 2 ? 'yes' : 'no', 'import;spec', 'ignored'].join(','));
  }
  return `${lines.join('\n')}\n`;
}

async function openImport(page: Page) {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Products' }).click();
  await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import products from CSV' });
  await expect(dialog.getByLabel('CSV file')).toBeVisible();
  return dialog;
}

test('imports a 200-row CSV with 3 bad rows: 197 created, then 197 updated, the failures reported with reasons and downloadable', async ({ page, state, connect }) => {
  test.setTimeout(120_000);
  const prefix = `imp-${Date.now()}-`;
  const file = { name: 'catalogue.csv', mimeType: 'text/csv', buffer: Buffer.from(productsCsv(prefix, 200)) };
  await connect(ws.key);
  const dialog = await openImport(page);
  await dialog.getByLabel('CSV file').setInputFiles(file);

  // Mapping: headers matched by name, the extra column left out, a preview of the rows as they will be sent.
  await expect(dialog.getByText('catalogue.csv: 200 rows, 7 columns. Not imported: Notes.')).toBeVisible();
  for (const [field, header] of [['externalId', 'External ID'], ['title', 'Title'], ['price', 'Price'], ['isForSale', 'Is For Sale'], ['tags', 'Tags']]) {
    await expect(dialog.getByRole('combobox', { name: field, exact: true }).locator('option:checked')).toHaveText(header!);
  }
  await expect(dialog.getByRole('combobox', { name: 'vendor', exact: true }).locator('option:checked')).toHaveText('— not imported —');
  const preview = dialog.getByRole('table', { name: /Preview of the first 5 rows/ });
  await expect(preview.locator('tbody tr')).toHaveCount(5);
  await expect(preview.locator('tbody tr').first()).toContainText(`${prefix}0`);
  await expect(preview.locator('tbody tr').first()).toContainText('Imported, item 0');
  await expect(preview.locator('tbody tr').first()).toContainText('import, spec');
  await checkAccessibility(page, 'product-import-mapping');

  await dialog.getByRole('button', { name: 'Import 200 rows' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'created' })).toHaveText('197 created, 0 updated, 3 failed', { timeout: 60_000 });
  const failures = dialog.getByRole('table', { name: 'Failed rows' }).locator('tbody tr');
  await expect(failures).toHaveCount(3);
  for (const [index, [i, bad]] of Object.entries(BAD_ROWS).entries()) {
    // File row numbers count the header as row 1.
    await expect(failures.nth(index)).toHaveText(`${Number(i) + 2}${prefix}${i}${bad.reason}`);
  }
  await checkAccessibility(page, 'product-import-report');

  // The downloaded report has every row, with the product id of each success.
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download report (CSV)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('catalogue-import-report.csv');
  const report = parse(readFileSync(await download.path()), { bom: true, columns: true }) as Record<string, string>[];
  expect(report).toHaveLength(200);
  expect(Object.keys(report[0]!)).toEqual(['row', 'externalId', 'outcome', 'productId', 'reason']);
  expect(report.filter((row) => row.outcome === 'created')).toHaveLength(197);
  expect(report.filter((row) => row.outcome === 'failed').map((row) => [row.row, row.externalId, row.reason])).toEqual(
    Object.entries(BAD_ROWS).map(([i, bad]) => [String(Number(i) + 2), `${prefix}${i}`, bad.reason]),
  );
  expect(report.every((row) => (row.outcome === 'failed') === (row.productId === ''))).toBe(true);

  // The API agrees: 197 products under the prefix, with the file's values.
  const listed = await productsWithPrefix(state, prefix, 1);
  expect(listed.meta.maxResults).toBe(197);
  const one = await apiGet(state.baseURL, `/products?%24filter=${encodeURIComponent(`externalId eq '${prefix}7'`)}`);
  expect(one.items).toHaveLength(1);
  expect(one.items[0]).toMatchObject({ id: report[7]!.productId, title: 'Imported, item 7', price: 11.75, currency: 'EUR', isForSale: true, tags: ['import', 'spec'] });

  // The same file again updates the same products, and the products table shows them.
  await dialog.getByRole('button', { name: 'Import another file' }).click();
  await dialog.getByLabel('CSV file').setInputFiles(file);
  await dialog.getByRole('button', { name: 'Import 200 rows' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'created' })).toHaveText('0 created, 197 updated, 3 failed', { timeout: 60_000 });
  expect((await productsWithPrefix(state, prefix, 1)).meta.maxResults).toBe(197);
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/Imported, item \d+/).first()).toBeVisible();
});

test('the sample CSV linked from the dialog downloads and imports cleanly', async ({ page, state, connect, request }) => {
  const served = await request.get(`${state.baseURL}/samples/products.csv`);
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toContain('text/csv');
  await connect(ws.key);
  const dialog = await openImport(page);
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('link', { name: 'Download a sample CSV' }).click();
  const sample = await (await downloading).path();
  await dialog.getByLabel('CSV file').setInputFiles(sample);
  await expect(dialog.getByText(/: 5 rows, 17 columns\.$/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Import 5 rows' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'created' })).toHaveText('5 created, 0 updated, 0 failed');
  const listed = await productsWithPrefix(state, 'sample-');
  expect(listed.meta.maxResults).toBe(5);
  expect(listed.items.find((item: { externalId: string }) => item.externalId === 'sample-0001')).toMatchObject({
    title: 'Linen shirt',
    price: 49.9,
    originalPrice: 59.9,
    isForSale: true,
    tags: ['summer', 'linen'],
    customProperties: { material: 'linen', weight: 180 },
  });
});

test.describe('against a server with a low rate limit', () => {
  let limited: StartedServer;
  test.beforeAll(async ({ state }) => {
    limited = await startService(state.databaseUrl, { RATE_LIMIT_PER_MINUTE: '8', RATE_LIMIT_WINDOW_SECONDS: '4', DEMO_SEED: 'off' });
  });
  test.afterAll(async () => {
    await limited?.stop();
  });

  test('pauses while the service asks to wait, then finishes every row', async ({ page }) => {
    test.setTimeout(120_000);
    const prefix = `thr-${Date.now()}-`;
    await page.goto(`${limited.baseURL}/connect`);
    await page.getByLabel('API key', { exact: true }).fill(ws.key);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    const dialog = await openImport(page);
    const csv = ['externalId,title', ...Array.from({ length: 24 }, (_, i) => `${prefix}${i},Throttled ${i}`)].join('\n');
    await dialog.getByLabel('CSV file').setInputFiles({ name: 'throttled.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByRole('button', { name: 'Import 24 rows' }).click();
    await expect(dialog.getByRole('status').filter({ hasText: /Paused — the server asked to wait \d+ s/ })).toBeVisible({ timeout: 30_000 });
    await expect(dialog.getByRole('status').filter({ hasText: 'created' })).toHaveText('24 created, 0 updated, 0 failed', { timeout: 90_000 });
    expect((await productsWithPrefix(readState(), prefix, 1)).meta.maxResults).toBe(24);
  });
});

test('a key without products:read-write sees the import disabled with the reason', async ({ page, state, connect }) => {
  const { key } = cli<{ key: string }>(state.databaseUrl, 'key', 'create', '--workspace', ws.id, '--scope', 'products:read-only');
  await connect(key);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Products' }).click();
  const button = page.getByRole('button', { name: 'Import CSV' });
  await expect(button).toBeDisabled();
  await button.hover({ force: true });
  const reason = 'Needs products:read-write';
  await expect(page.getByRole('tooltip').filter({ hasText: reason }).or(page.getByTitle(reason)).first()).toBeVisible();
});
