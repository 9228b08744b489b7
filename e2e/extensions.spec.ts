/**
 * Our service's extensions in the console (issue 22): correcting a contact's email, erasing a contact (typing its
 * name), withdrawing a scheduled post from the "Scheduled and suggested" tab (with its month calendar), and
 * deleting a product, all against the real service. The run against the hosted-service stand-in, which has none
 * of them, is in proxy.spec.ts.
 */
import { randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { type Workspace, expect, makeWorkspace, test } from './fixtures';

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
test.beforeEach(() => {
  ws = makeWorkspace('Extensions Spec');
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

test('withdraws a scheduled post, which the month calendar showed', async ({ page, request, connect }) => {
  const header = unique('Planned ');
  const publishDate = new Date(Date.now() + 2 * 3_600_000).toISOString();
  const scheduled = await post(request, ws.key, '/post-requests', { action: 'schedule', header, publishDate });
  await post(request, ws.key, '/post-requests', { action: 'suggest', header: `${header} idea` });
  await connect(ws.key);
  await page.goto(`/w/${ws.id}/posts`);
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
  }
  await row.getByRole('button', { name: `Withdraw “${header}”` }).click();
  const confirm = page.getByRole('dialog', { name: 'Withdraw this post?' });
  await expect(confirm).toContainText('will not be published');
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
  await connect(ws.key);
  await page.goto(`/w/${ws.id}/products`);
  for (const n of [1, 2]) await page.getByRole('checkbox', { name: `Select ${title} ${n}` }).check();
  await page.getByRole('region', { name: 'Selection' }).getByRole('button', { name: 'Delete 2 products…' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete 2 products?' });
  await expect(confirm).toContainText('cannot be restored');
  await confirm.getByRole('button', { name: 'Delete 2 products' }).click();
  await expect(page.getByText('Deleted 2 products.')).toBeVisible();
  const table = page.getByRole('table', { name: 'Products' });
  await expect(table).not.toContainText(title);
  await expect(table).toContainText('Keeps selling');
});
