/**
 * The new-contact form reads a phone written as the workspace's country writes it (issue 34 point 2: "912 34 567" was
 * refused there, where the import took it): in an en-US browser, in a workspace whose contacts have Norwegian
 * numbers, the form says numbers are read as Norway's and stores "912 34 567" as +4791234567, against the real server.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, makeWorkspace, test } from './fixtures';

test.use({ locale: 'en-US' });

/** The phones of `key`'s workspace's contacts named `name`, as the service stores them. */
async function phonesOf(request: APIRequestContext, key: string, name: string): Promise<(string | null)[]> {
  const response = await request.get('/api/contacts', { headers: { 'x-api-key': key }, params: { $filter: `name eq '${name}'` } });
  return ((await response.json()) as { items: { phone: string | null }[] }).items.map((contact) => contact.phone);
}

test('a national-format number in a Norwegian workspace is stored in international form', async ({ page, connect, request }) => {
  const ws = await makeWorkspace('National phone');
  for (const [name, phone] of [['Kari Nordmann', '+4741234567'], ['Ola Nordmann', '+4790000001'], ['Per Hansen', '+4792345678']]) {
    const response = await request.post('/api/contacts', { headers: { 'x-api-key': ws.key }, data: { name, phone } });
    expect(response.status(), await response.text()).toBe(201);
  }
  await connect(ws.key);
  await page.getByRole('button', { name: 'New contact', exact: true }).click();
  const form = page.getByRole('form', { name: 'New contact' });
  const phone = form.getByLabel('Phone', { exact: true });
  // The workspace's phones decide the country, not the en-US browser.
  await expect(phone).toHaveAccessibleDescription('International form (+47 123 45 678), or a number of Norway as it is written there');
  await form.getByLabel('Name', { exact: true }).fill('Bjørn Dæhlie');
  await phone.fill('912 34 567');
  await form.getByRole('button', { name: 'Create contact' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByText(/Bjørn Dæhlie/).first()).toBeVisible();
  expect(await phonesOf(request, ws.key, 'Bjørn Dæhlie')).toEqual(['+4791234567']);
});
