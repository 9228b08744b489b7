/**
 * Leaving a changed form asks first (docs/style.md, forms), also by the browser's Back (issue 16: the console's leave
 * guard over react-router's declarative routes, src/lib/navigation-guard.tsx; a link out of the composer is in
 * posts.spec.ts). A held Back leaves the URL and the history as they were; going on goes where Back was going.
 */
import type { Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { expect, makeWorkspace, test } from './fixtures';

const back = (page: Page) => page.evaluate(() => history.back());
const nav = (page: Page) => page.getByRole('navigation', { name: 'Sections' });

test('Back from a changed record form asks first: Keep editing stays, Discard changes goes back, and the history is intact', async ({ page, connect, request }) => {
  const ws = await makeWorkspace('Leave guard');
  const title = `Guarded ${randomUUID().slice(0, 8)}`;
  const created = await request.post('/api/products', { headers: { 'x-api-key': ws.key }, data: { title, price: 3, currency: 'EUR' } });
  expect(created.status()).toBe(201);
  await connect(ws.key);
  await nav(page).getByRole('link', { name: 'Products' }).click();
  await page.getByRole('table', { name: 'Products' }).getByRole('link', { name: title }).click();
  const form = page.getByRole('form', { name: 'Edit product' });
  const field = form.getByRole('textbox', { name: 'Title', exact: true });
  await field.fill(`${title} changed`);
  const recordUrl = page.url();

  await back(page);
  await expect(form.getByText('Discard your changes?')).toBeVisible();
  await expect(page).toHaveURL(recordUrl);
  await form.getByRole('button', { name: 'Keep editing' }).click();
  await expect(form.getByText('Discard your changes?')).toBeHidden();
  await expect(page).toHaveURL(recordUrl);
  await expect(field).toHaveValue(`${title} changed`);

  await back(page);
  await form.getByRole('button', { name: 'Discard changes' }).click();
  await expect(form).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/w/${ws.id}/products$`));
  // The held Backs added nothing to the history: one more Back is the contacts page connecting opened.
  await back(page);
  await expect(page).toHaveURL(new RegExp(`/w/${ws.id}/contacts$`));
});

test('Back from a changed new product form is held until the person confirms', async ({ page, connect }) => {
  const ws = await makeWorkspace('Leave guard new');
  await connect(ws.key);
  await nav(page).getByRole('link', { name: 'Products' }).click();
  await page.getByRole('button', { name: 'New product' }).click();
  const form = page.getByRole('form', { name: 'New product' });
  await form.getByRole('textbox', { name: 'Title', exact: true }).fill('Half made');

  await back(page);
  await expect(form.getByText('Discard your changes?')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/w/${ws.id}/products$`));
  await form.getByRole('button', { name: 'Keep editing' }).click();
  await expect(form.getByRole('textbox', { name: 'Title', exact: true })).toHaveValue('Half made');

  await back(page);
  await form.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${ws.id}/contacts$`));
  await expect(page.getByRole('heading', { name: 'Contacts', level: 1 })).toBeVisible();
});

test('Back from a changed post composer asks first: Stay keeps it, Leave goes back to the posts', async ({ page, connect }) => {
  const ws = await makeWorkspace('Leave guard composer');
  await connect(ws.key);
  await nav(page).getByRole('link', { name: 'Posts' }).click();
  await page.getByRole('link', { name: 'New post' }).click();
  await page.getByLabel('Header', { exact: true }).fill('Not finished');

  await back(page);
  const leave = page.getByRole('dialog', { name: 'Leave the composer?' });
  await leave.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${ws.id}/posts/new$`));
  await expect(page.getByLabel('Header', { exact: true })).toHaveValue('Not finished');

  await back(page);
  await leave.getByRole('button', { name: 'Leave, keep the draft' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${ws.id}/posts$`));
});
