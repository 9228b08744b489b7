/**
 * Our service's activity log in the console (issue 33, docs/decisions.md section 11), against the real service in
 * Debian's Chromium: a contact's city corrected, seen before and after in its History and reverted (the service holds
 * the old value again); a small import undone from the Jobs page in one request, the contact a colleague changed
 * since kept and named; the consent record of a contact made active through its notification settings, downloaded
 * as JSON; the Activity page filtered to a batch; a read-only key's History of a product and a collection (beside
 * the disabled fields, so it opens). axe on the new screens in both colour schemes and both languages.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { type Workspace, checkAccessibility, expect, makeWorkspace, test } from './fixtures';
import { cli } from './server';

let ws: Workspace;
test.beforeEach(async () => {
  // Named to sort after the phone test's workspaces, which it picks from the switcher's first page.
  ws = await makeWorkspace('Spec Activity');
});

async function api(page: Page, method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await page.request.fetch(`/api${path}`, { method, headers: { 'x-api-key': ws.key, ...headers }, ...(body === undefined ? {} : { data: body }) });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
  return response.status() === 204 ? null : response.json();
}

const contactById = async (page: Page, id: string) => ((await api(page, 'GET', `/contacts?%24filter=${encodeURIComponent(`id eq '${id}'`)}`)) as { items: Record<string, any>[] }).items[0];

async function openContact(page: Page, name: string) {
  await page.getByRole('table', { name: /^(Contacts|Kontakter)$/ }).locator('tbody tr').filter({ hasText: name }).click();
  return page.getByRole('dialog', { name });
}

test('a corrected city shows before and after in History, and Revert puts the old value back on the service', async ({ page, connect }) => {
  const created = await api(page, 'POST', '/contacts', { name: 'Kari History', email: 'kari.history@example.com', city: 'Bergen' });
  await api(page, 'PATCH', `/contacts/${created.id}`, { city: 'Oslo' });
  await connect(ws.key);
  const drawer = await openContact(page, 'Kari History');
  await drawer.getByRole('button', { name: 'Show history' }).click();
  const history = drawer.getByRole('list', { name: 'History' });
  await expect(history.getByText('City: Bergen → Oslo')).toBeVisible();
  await expect(history.getByText('Corrected')).toBeVisible();
  await expect(history.getByText(`By …${ws.key.slice(-4)} · api`).first()).toBeVisible();
  await checkAccessibility(page, 'contact-history', { include: '[role="dialog"]' });
  await history.getByRole('button', { name: 'Revert: Corrected, City: Bergen → Oslo' }).click();
  await expect(drawer.getByText('Reverted 1 change.')).toBeVisible();
  await expect.poll(async () => (await contactById(page, created.id))?.city).toBe('Bergen');
  await expect(history.getByText('City: Oslo → Bergen')).toBeVisible();
});

test('an import is undone from the Jobs page in one request: the others gone, the one changed since kept and named', async ({ page, connect }) => {
  test.setTimeout(120_000);
  await connect(ws.key);
  const csv = ['email,name', 'ada.undo@example.com,Ada Undo', 'bo.undo@example.com,Bo Undo', 'cy.undo@example.com,Cy Undo'].join('\r\n');
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Import contacts' });
  await dialog.getByLabel('CSV or Excel file').setInputFiles({ name: 'undo.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await dialog.getByRole('button', { name: 'Check 3 rows' }).click();
  await dialog.getByRole('button', { name: /^Start import/ }).click({ timeout: 60_000 });
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  const listed = async () => ((await api(page, 'GET', `/contacts?%24filter=${encodeURIComponent("email like '.undo@'")}`)) as { items: { id: string; email: string }[] }).items;
  await expect.poll(async () => (await listed()).length, { timeout: 30_000 }).toBe(3);
  const changed = (await listed()).find((contact) => contact.email === 'bo.undo@example.com')!;
  // A colleague corrects one of the imported contacts, elsewhere.
  await api(page, 'PATCH', `/contacts/${changed.id}`, { city: 'Tromsø' });
  await page.getByRole('link', { name: 'Jobs', exact: true }).click();
  const entry = page.getByRole('article').filter({ hasText: 'Finished' }).first();
  await expect(entry).toBeVisible({ timeout: 30_000 });
  await entry.getByRole('button', { name: 'Undo this job' }).click();
  await entry.getByRole('alertdialog', { name: 'Undo this job' }).getByRole('button', { name: 'Undo the job' }).click();
  await expect(entry.getByText('Reverted 2 changes.')).toBeVisible();
  await expect(entry.getByText('1 change was not reverted:')).toBeVisible();
  await expect(entry.getByRole('listitem').filter({ hasText: changed.id })).toContainText('Changed since by someone else');
  await checkAccessibility(page, 'jobs-undo-batch');
  const download = page.waitForEvent('download');
  await entry.getByRole('button', { name: 'Download the changes not reverted (CSV)' }).click();
  const file = readFileSync(await (await download).path(), 'utf8');
  expect(file).toContain(`${changed.id},changed-since`);
  expect((await listed()).map((contact) => contact.email)).toEqual(['bo.undo@example.com']);
});

test('the consent record of a contact made active through its notification settings, downloaded as JSON proof', async ({ page, connect, state }) => {
  const created = await api(page, 'POST', '/contacts', { name: 'Per Consent', email: 'per.consent@example.com', phone: '+4791234567' });
  const { accessKey, secret } = cli<{ accessKey: string; secret: string }>(state.databaseUrl, 'credential', 'create', '--workspace', ws.id);
  const response = await page.request.fetch(`/api/contacts/${created.id}/notification-settings`, {
    method: 'PATCH',
    headers: { authorization: `Basic ${Buffer.from(`${accessKey}:${secret}`).toString('base64')}`, 'activity-source': 'signup-form' },
    data: { email: false },
  });
  expect(response.status()).toBe(200);
  await connect(ws.key);
  const drawer = await openContact(page, 'Per Consent');
  await drawer.getByRole('button', { name: 'Show consent record' }).click();
  const record = drawer.getByRole('list', { name: 'Consent record' });
  await expect(record.getByRole('listitem')).toHaveCount(2);
  await expect(record.getByRole('listitem').nth(1)).toContainText('State: pending → active');
  await expect(record.getByRole('listitem').nth(1)).toContainText('Notifications: email on, SMS on → email off, SMS on');
  await expect(record.getByRole('listitem').nth(1)).toContainText(`…${accessKey.slice(-4)} · signup-form`);
  await checkAccessibility(page, 'consent-record', { include: '[role="dialog"]' });
  const download = page.waitForEvent('download');
  await drawer.getByRole('button', { name: 'Download consent record (JSON)' }).click();
  const proof = JSON.parse(readFileSync(await (await download).path(), 'utf8')) as { contactId: string; entries: { action: string; keyHint: string; source: string; when: string }[] };
  expect(proof.contactId).toBe(created.id);
  expect(proof.entries.map((entry) => [entry.action, entry.source])).toEqual([
    ['create', 'api'],
    ['notifications', 'signup-form'],
  ]);
  expect(proof.entries[1]!.keyHint).toBe(`…${accessKey.slice(-4)}`);
});

test('the Activity page lists a batch, links to its records and reverts it whole; axe clean in both schemes', async ({ page, connect }) => {
  for (const name of ['Ann Batch', 'Ben Batch']) await api(page, 'POST', '/contacts', { name, email: `${name.split(' ')[0]!.toLowerCase()}.batch@example.com` }, { 'activity-batch': 'my-batch', 'activity-source': 'crm-sync' });
  await connect(ws.key);
  await page.getByRole('link', { name: 'Activity', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
  await page.getByLabel('Batch (job)').fill('my-batch');
  await page.getByLabel('Batch (job)').press('Enter');
  await expect(page).toHaveURL(/batch=my-batch/);
  await expect(page.getByRole('status').filter({ hasText: '2 changes' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Activity' }).getByText(`…${ws.key.slice(-4)} · crm-sync`)).toHaveCount(2);
  await checkAccessibility(page, 'activity-page');
  await page.getByRole('button', { name: 'Revert the whole batch' }).click();
  await expect(page.getByText('Reverted 2 changes.')).toBeVisible();
  await expect.poll(async () => ((await api(page, 'GET', `/contacts?%24filter=${encodeURIComponent("email like '.batch@'")}`)) as { items: unknown[] }).items.length).toBe(0);
});

test.describe('in bokmål', () => {
  test.use({ locale: 'nb-NO' });
  test('History and the Activity page are in bokmål and pass axe', async ({ page, connect }) => {
    const created = await api(page, 'POST', '/contacts', { name: 'Ola Historikk', email: 'ola.historikk@example.com', city: 'Bergen' });
    await api(page, 'PATCH', `/contacts/${created.id}`, { city: 'Oslo' });
    await connect(ws.key);
    const drawer = await openContact(page, 'Ola Historikk');
    await drawer.getByRole('button', { name: 'Vis historikk' }).click();
    await expect(drawer.getByRole('list', { name: 'Historikk' }).getByText('Sted: Bergen → Oslo')).toBeVisible();
    await checkAccessibility(page, 'contact-history-nb', { include: '[role="dialog"]' });
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'Aktivitet', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Aktivitet', level: 1 })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: '2 endringer' })).toBeVisible();
    await checkAccessibility(page, 'activity-page-nb');
  });
});

test("a read-only key opens a product's and a collection's History, with nothing to revert", async ({ page, connect, state }) => {
  const collection = await api(page, 'POST', '/collections', { title: 'History Shelf' });
  const product = await api(page, 'POST', '/products', { title: 'History Lamp', price: 10, currency: 'EUR' });
  await api(page, 'POST', '/products', { id: product.id, title: 'History Lamp', price: 12, currency: 'EUR' });
  const { key } = cli<{ key: string }>(state.databaseUrl, 'key', 'create', '--workspace', ws.id, '--scope', 'products:read-only');
  await connect(key);
  for (const [path, id, name] of [['products', product.id, 'Product'], ['collections', collection.id, 'Collection']] as const) {
    await page.goto(`/w/${ws.id}/${path}/${id}`);
    const drawer = page.getByRole('dialog', { name });
    // The record's fields are a disabled fieldset for this key; its History is beside them, and opens.
    await expect(drawer.getByRole('textbox', { name: 'Title', exact: true })).toBeDisabled();
    await drawer.getByRole('button', { name: 'Show history' }).click();
    const history = drawer.getByRole('list', { name: 'History' });
    await expect(history.getByText(path === 'products' ? 'Corrected' : 'Created').first()).toBeVisible();
    await expect(history.getByRole('button', { name: /^Revert/ })).toHaveCount(0);
  }
});
