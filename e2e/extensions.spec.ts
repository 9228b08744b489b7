/**
 * Our service's extensions in the console (issue 22): correcting a contact's email, erasing a contact (typing its
 * name), erasing contacts in bulk as a background job over a selection and over a whole filter (typing the count;
 * the Jobs page's report lists their ids), withdrawing a scheduled post from the "Scheduled and suggested" tab (with
 * its month calendar), and deleting a product, all against the real service. The run against the hosted-service stand-in, which has none
 * of them, is in proxy.spec.ts.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { type Workspace, checkAccessibility, expect, makeWorkspace, test } from './fixtures';

const unique = (prefix: string) => `${prefix}${randomUUID().replace(/-/g, '').slice(0, 8)}`;

async function post(request: APIRequestContext, key: string, path: string, data: Record<string, unknown>) {
  const response = await request.post(`/api${path}`, { headers: { 'x-api-key': key }, data });
  expect(response.status(), await response.text()).toBe(201);
  return response.json();
}

async function contactsMatching(request: APIRequestContext, key: string, filter: string) {
  const response = await request.get(`/api/contacts?%24filter=${encodeURIComponent(filter)}`, { headers: { 'x-api-key': key } });
  return ((await response.json()) as { items: { id: string; email: string | null }[] }).items;
}

let ws: Workspace;
test.beforeEach(async () => {
  ws = await makeWorkspace('Extensions Spec');
});

test('corrects a misspelt email through Edit', async ({ page, request, connect }) => {
  const name = unique('Kari ');
  const created = await post(request, ws.key, '/contacts', { name, email: 'kari@exmaple.com', city: 'Bergen' });
  await connect(ws.key);
  await page.getByRole('table', { name: 'Contacts' }).locator('tbody tr').filter({ hasText: name }).click();
  const drawer = page.getByRole('dialog', { name });
  await drawer.getByRole('button', { name: `Edit ${name}` }).click();
  const form = page.getByRole('dialog', { name: 'Edit contact' });
  const email = form.getByLabel('Email');
  await expect(email).toHaveValue('kari@exmaple.com');
  await email.fill('kari@example');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(form.getByText(/email/i).first()).toBeVisible();
  await email.fill('kari@example.com');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('dialog', { name: 'Edit contact' })).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Contacts' })).toContainText('kari@example.com');
  await expect.poll(async () => (await contactsMatching(request, ws.key, `id eq '${created.id}'`))[0]?.email).toBe('kari@example.com');
});

test('erases a contact after its name is typed', async ({ page, request, connect }) => {
  const name = unique('Forget ');
  const created = await post(request, ws.key, '/contacts', { name, email: `${name.replace(' ', '.').toLowerCase()}@example.com`, tags: ['gone'] });
  await post(request, ws.key, '/contacts', { name: 'Stays Here', email: 'stays@example.com' });
  await connect(ws.key);
  await page.getByRole('table', { name: 'Contacts' }).locator('tbody tr').filter({ hasText: name }).click();
  await page.getByRole('dialog', { name }).getByRole('button', { name: 'Erase…' }).click();
  const confirm = page.getByRole('dialog', { name: `Erase ${name}?` });
  await expect(confirm).toContainText('It is final');
  await expect(confirm).toContainText('its tags');
  const button = confirm.getByRole('button', { name: 'Erase for good' });
  await expect(button).toBeDisabled();
  await confirm.getByLabel(`Type “${name}” to confirm`).fill(name.slice(0, -1));
  await expect(button).toBeDisabled();
  await confirm.getByLabel(`Type “${name}” to confirm`).fill(name);
  await button.click();
  await expect(page.getByText(`${name} was erased.`)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Contacts' })).not.toContainText(name);
  await expect(page.getByRole('table', { name: 'Contacts' })).toContainText('Stays Here');
  expect(await contactsMatching(request, ws.key, `id eq '${created.id}'`)).toEqual([]);
});

/** The jobs page's entry of the job titled `title`. */
function jobEntry(page: Page, title: string) {
  return page.getByRole('article').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
}

/** Downloads the part of a job's report that `button` names, as rows of cells. */
async function reportRows(page: Page, button: import('@playwright/test').Locator) {
  const downloading = page.waitForEvent('download');
  await button.click();
  return parse(readFileSync(await (await downloading).path()), { bom: true, columns: true }) as Record<string, string>[];
}

test('erases two selected contacts as a background job after the count is typed; the report lists their ids only', async ({ page, request, connect }) => {
  test.setTimeout(90_000);
  const name = unique('Leaving ');
  const gone = [];
  for (const n of [1, 2]) gone.push(await post(request, ws.key, '/contacts', { name: `${name} ${n}`, email: `${name.replace(' ', '.').toLowerCase()}.${n}@example.com`, tags: ['bulk-gone'] }));
  const keeper = await post(request, ws.key, '/contacts', { name: 'Stays Too', email: 'stays.too@example.com' });
  await connect(ws.key);
  const table = page.getByRole('table', { name: 'Contacts' });
  for (const n of [1, 2]) await table.getByRole('checkbox', { name: `Select ${name} ${n}` }).check();
  await page.getByRole('region', { name: 'Selection' }).getByRole('button', { name: 'Erase 2 selected…' }).click();

  const confirm = page.getByRole('dialog', { name: 'Erase 2 contacts?' });
  await expect(confirm).toContainText('its tags');
  await expect(confirm).toContainText('recipients of posts');
  await expect(confirm).toContainText('It is final and cannot be undone');
  await expect(confirm).toContainText('2 contacts, as selected.');
  await expect(confirm).toContainText('The job will send 2 erasure requests.');
  await checkAccessibility(page, 'bulk-erase-dialog', { include: '[role="dialog"]' });
  const button = confirm.getByRole('button', { name: 'Erase 2 contacts' });
  await expect(button).toBeDisabled();
  await confirm.getByLabel('Type 2 to confirm').fill('3');
  await expect(button).toBeDisabled();
  await confirm.getByLabel('Type 2 to confirm').fill('2');
  await button.click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('Erasing 2 contacts in the background.')).toBeVisible();

  // The service no longer has them; the other contact stays; the list refreshed when the job finished.
  for (const contact of gone) await expect.poll(async () => contactsMatching(request, ws.key, `id eq '${contact.id}'`), { timeout: 30_000 }).toEqual([]);
  expect(await contactsMatching(request, ws.key, `id eq '${keeper.id}'`)).toHaveLength(1);
  const again = await request.delete(`/api/contacts/${gone[0].id}`, { headers: { 'x-api-key': ws.key } });
  expect(again.status()).toBe(404);
  await expect(table).not.toContainText(name, { timeout: 30_000 });
  await expect(table).toContainText('Stays Too');

  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Jobs' }).click();
  const entry = jobEntry(page, 'Erase 2 contacts');
  await expect(entry.getByTestId('job-state')).toHaveText('Finished', { timeout: 30_000 });
  await expect(entry).toContainText('2 of 2 done');
  await expect(entry).toContainText('Erasure is final');
  await expect(entry.getByRole('button', { name: /Undo/ })).toHaveCount(0);
  const rows = await reportRows(page, entry.getByRole('button', { name: /^Download erased: 2 erased/ }));
  expect(rows.map((row) => row.id).sort()).toEqual(gone.map((contact) => contact.id).sort());
  expect(Object.keys(rows[0]!)).toEqual(['id']);

  // The stored job holds ids only: nothing of the people in this browser's IndexedDB.
  const stored = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('workspace-admin.jobs');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const all = (store: string) => new Promise<unknown[]>((resolve) => {
      const request = db.transaction(store).objectStore(store).getAll();
      request.onsuccess = () => resolve(request.result);
    });
    return JSON.stringify([await all('jobs'), await all('plans'), await all('steps'), await all('reports')]);
  });
  expect(stored).toContain(gone[0].id);
  expect(stored).not.toContain(name);
  expect(stored).not.toContain('example.com');
});

test('erases every contact of a filter ("all 12 matching") as one job; a contact outside the filter stays', async ({ page, request, connect }) => {
  test.setTimeout(90_000);
  const tag = unique('farewell');
  const tagged = [];
  for (let n = 0; n < 12; n++) tagged.push(await post(request, ws.key, '/contacts', { name: `Farewell ${String(n).padStart(2, '0')}`, tags: [tag] }));
  await post(request, ws.key, '/contacts', { name: 'Not In Filter', tags: ['other'] });
  await connect(ws.key, { path: `contacts?tags=${tag}&size=10` });
  await expect(page.getByText('12 matching contacts')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
  const bar = page.getByRole('region', { name: 'Selection' });
  await bar.getByRole('button', { name: 'Select all 12 matching' }).click();
  await bar.getByRole('button', { name: 'Erase all 12 matching…' }).click();

  const confirm = page.getByRole('dialog', { name: 'Erase 12 contacts?' });
  await expect(confirm).toContainText('every contact matching the filter');
  await expect(confirm).toContainText('The job will send 12 erasure requests, after 1 to find the contacts.');
  await confirm.getByLabel('Type 12 to confirm').fill('12');
  await confirm.getByRole('button', { name: 'Erase 12 contacts' }).click();
  await expect(confirm).toBeHidden({ timeout: 30_000 });

  await expect.poll(async () => (await contactsMatching(request, ws.key, `tags eq '${tag}'`)).length, { timeout: 30_000 }).toBe(0);
  expect(await contactsMatching(request, ws.key, `name eq 'Not In Filter'`)).toHaveLength(1);
  await expect(page.getByText('No contacts match these filters.')).toBeVisible({ timeout: 30_000 });

  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Jobs' }).click();
  const entry = jobEntry(page, 'Erase 12 contacts');
  await expect(entry.getByTestId('job-state')).toHaveText('Finished', { timeout: 30_000 });
  const rows = await reportRows(page, entry.getByRole('button', { name: /^Download erased: 12 erased/ }));
  expect(rows.map((row) => row.id).sort()).toEqual(tagged.map((contact) => contact.id).sort());
});

test('withdraws a scheduled post, which the month calendar showed', async ({ page, request, connect }) => {
  const header = unique('Planned ');
  const publishDate = new Date(Date.now() + 2 * 3_600_000).toISOString();
  const scheduled = await post(request, ws.key, '/post-requests', { action: 'schedule', header, publishDate });
  await post(request, ws.key, '/post-requests', { action: 'suggest', header: `${header} idea` });
  await connect(ws.key, { path: 'posts' });
  await page.getByRole('tab', { name: 'Scheduled and suggested' }).click();
  const table = page.getByRole('table', { name: 'Scheduled and suggested posts' });
  const row = table.getByRole('row').filter({ hasText: header }).filter({ hasText: 'Scheduled' });
  await expect(row).toBeVisible();
  await expect(row.locator('time')).toHaveAttribute('datetime', publishDate);
  await expect(table.getByRole('row').filter({ hasText: `${header} idea` })).toContainText('Suggested');
  const day = await page.evaluate((iso) => new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso)), publishDate);
  const calendar = page.getByRole('region', { name: 'Calendar of scheduled posts' });
  if (day.slice(0, 7) === (await page.evaluate(() => new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit' }).format(new Date())))) {
    await expect(calendar.locator(`[data-scheduled-day="${day}"]`)).toHaveAttribute('aria-label', /1 post scheduled/);
    // The calendar names what is planned, not only how much (issue 34 point 10).
    await expect(calendar.locator(`[data-scheduled-day="${day}"]`)).toHaveAttribute('aria-label', new RegExp(header));
    await expect(calendar.getByRole('definition').filter({ hasText: header })).toBeVisible();
  }
  await row.getByRole('button', { name: `Withdraw “${header}”` }).click();
  const confirm = page.getByRole('dialog', { name: 'Withdraw this post?' });
  await expect(confirm).toContainText('will not be published');
  await checkAccessibility(page, 'withdraw-post-dialog', { include: '[role="dialog"]' });
  await confirm.getByRole('button', { name: 'Withdraw post' }).click();
  await expect(page.getByText(`Withdrew “${header}”.`)).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: header }).filter({ hasText: 'Scheduled' })).toHaveCount(0);
  const listed = await request.get('/api/post-requests', { headers: { 'x-api-key': ws.key } });
  expect(((await listed.json()) as { items: { requestId: string }[] }).items.map((item) => item.requestId)).not.toContain(scheduled.body.requestId);
});

test('deletes products over a selection, after a confirmation', async ({ page, request, connect }) => {
  const title = unique('Old stock ');
  for (const n of [1, 2]) await post(request, ws.key, '/products', { title: `${title} ${n}` });
  await post(request, ws.key, '/products', { title: 'Keeps selling' });
  await connect(ws.key, { path: 'products' });
  for (const n of [1, 2]) await page.getByRole('checkbox', { name: `Select ${title} ${n}` }).check();
  await page.getByRole('region', { name: 'Selection' }).getByRole('button', { name: 'Delete 2 products…' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete 2 products?' });
  await expect(confirm).toContainText('cannot be restored');
  await checkAccessibility(page, 'delete-products-dialog', { include: '[role="dialog"]' });
  await confirm.getByRole('button', { name: 'Delete 2 products' }).click();
  await expect(page.getByText('Deleted 2 products.')).toBeVisible();
  const table = page.getByRole('table', { name: 'Products' });
  await expect(table).not.toContainText(title);
  await expect(table).toContainText('Keeps selling');
});

test('deletes a collection from its drawer, after a confirmation: the drawer closes and the list no longer shows it', async ({ page, request, connect }) => {
  const title = unique('Retired range ');
  const { id } = (await post(request, ws.key, '/collections', { title })) as { id: string };
  await post(request, ws.key, '/collections', { title: 'Still on sale' });
  await connect(ws.key, { path: `collections/${id}` });
  const edit = page.getByRole('form', { name: 'Edit collection' });
  await edit.getByRole('button', { name: 'Delete collection…' }).click();
  const confirm = page.getByRole('dialog', { name: `Delete “${title}”?` });
  await expect(confirm).toContainText('cannot be restored');
  await confirm.getByRole('button', { name: 'Delete collection' }).click();
  await expect(page.getByText('Deleted the collection.')).toBeVisible();
  await expect(edit).toBeHidden();
  const table = page.getByRole('table', { name: 'Collections' });
  await expect(table).toContainText('Still on sale');
  await expect(table).not.toContainText(title);
  const gone = await request.get(`/api/collections?%24filter=${encodeURIComponent(`id eq '${id}'`)}`, { headers: { 'x-api-key': ws.key } });
  expect(gone.status()).toBe(200);
  expect(((await gone.json()) as { items: unknown[] }).items).toHaveLength(0);
});
