/**
 * Issue 34 points 2 to 4 in Debian's Chromium against the real server: an en-US browser imports a small Norwegian
 * Mailchimp-style export (national-format phones, Mailchimp's double-space Address, "VIP" tags) into a workspace
 * that already has a contact tagged `vip`. The phones' default country comes from the file (Norway, not the
 * browser's United States), a row whose phone cannot be read goes in without it and the plan says so, the addresses
 * are split into street, city and postcode, and the file's "VIP" joins the workspace's `vip`: every row is created,
 * with +47 phones, and the workspace has one `vip` tag.
 */
import { type Workspace, expect, makeWorkspace, test } from './fixtures';
import { apiCall } from './server';
import { readState } from './state';

type Listed = { email: string | null; phone: string | null; address: string | null; city: string | null; postalCode: string | null; region: string | null; tags: string[] };

/** Sends `body` to the server with `ws`'s key; the parsed JSON. */
async function api(ws: Workspace, method: string, path: string, body?: unknown) {
  const answer = await apiCall(readState().baseURL, ws.key, method, path, body);
  expect(answer.status, `${method} ${path}`).toBeLessThan(300);
  return answer.body;
}

/** Mailchimp's headers, UTF-8, addresses in its one-cell form (parts joined by two spaces, an empty region as four). */
const NORWEGIAN_CSV = [
  'Email Address,First Name,Last Name,Phone Number,Address,TAGS',
  'kari@example.no,Kari,Nordmann,912 34 567,"Åsveien 102  Stavanger    4006  NO",VIP',
  'ola@example.no,Ola,Hansen,481 23 456,"Storgata 1  Oslo    0155  NO","VIP, Kunde"',
  'per@example.no,Per,Berg,22 33 44 55,"Kirkegata 5  H0102  Bergen    5003  NO",vip',
  'lise@example.no,Lise,Dahl,12,,',
].join('\r\n');

test.use({ locale: 'en-US' });

test('an en-US browser imports a Norwegian Mailchimp file whole: +47 phones, split addresses, one vip tag', async ({ page, connect }) => {
  test.setTimeout(180_000);
  const ws = await makeWorkspace('Import Norwegian');
  await api(ws, 'POST', '/contacts', { email: 'kunde@example.no', name: 'Eksisterende', tags: ['vip'] });
  await connect(ws.key);

  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Import contacts' });
  await dialog.getByLabel('CSV or Excel file').setInputFiles({ name: 'medlemmer.csv', mimeType: 'text/csv', buffer: Buffer.from(NORWEGIAN_CSV, 'utf8') });
  await expect(dialog.getByText(/medlemmer\.csv: 4 rows, 6 columns\./)).toBeVisible();
  const country = dialog.getByRole('combobox', { name: 'Default country for phone numbers' });
  await expect(country).toHaveValue('NO');
  await expect(dialog.getByText('Chosen from the file’s phone numbers')).toBeVisible();
  const preview = dialog.getByRole('table', { name: /Preview of the first 4 rows/ });
  await expect(preview.locator('tbody tr').first()).toContainText('+4791234567');
  await expect(preview.locator('tbody tr').first()).toContainText('Stavanger');

  await dialog.getByRole('button', { name: 'Check 4 rows' }).click();
  const counts = dialog.getByRole('group', { name: 'Plan' });
  // In batches nothing is looked up: the 4 are created, or tagged where they exist (issue 35 point 7).
  await expect(counts).toContainText("4 to create, or to give the file's tags where they already exist", { timeout: 60_000 });
  await expect(counts).toContainText('0 refused');
  await expect(counts).toContainText('1 row goes in without its phone number, which could not be read');
  await expect(counts).toContainText('“VIP” as “vip”');
  // The 4 new contacts in one POST /contacts/batch (our service names `contact-batch`, issue 35 point 7).
  await dialog.getByRole('button', { name: 'Start import (1 request)' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });

  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Jobs' }).click();
  const entry = page.getByRole('article').filter({ has: page.getByRole('heading', { name: 'Import medlemmer.csv', exact: true }) });
  await expect(entry.getByTestId('job-state')).toHaveText('Finished', { timeout: 120_000 });

  const { items } = (await api(ws, 'GET', '/contacts?%24limit=100')) as { items: Listed[] };
  const byEmail = new Map(items.map((contact) => [contact.email, contact]));
  expect(byEmail.size).toBe(5);
  expect(byEmail.get('kari@example.no')).toMatchObject({ phone: '+4791234567', address: 'Åsveien 102', city: 'Stavanger', postalCode: '4006' });
  expect(byEmail.get('ola@example.no')).toMatchObject({ phone: '+4748123456', address: 'Storgata 1', city: 'Oslo', postalCode: '0155' });
  expect(byEmail.get('per@example.no')).toMatchObject({ phone: '+4722334455', address: 'Kirkegata 5, H0102', city: 'Bergen', postalCode: '5003' });
  expect(byEmail.get('lise@example.no')).toMatchObject({ phone: null });
  for (const email of ['kari@example.no', 'ola@example.no', 'per@example.no']) expect(byEmail.get(email)!.tags).toContain('vip');
  const tags = (await api(ws, 'GET', '/contacts/contacts-tags')) as { name: string; count: number }[];
  expect(tags.filter((tag) => tag.name.toLowerCase() === 'vip')).toEqual([{ name: 'vip', count: 4 }]);
  expect(tags.filter((tag) => tag.name.toLowerCase() === 'kunde')).toEqual([{ name: 'Kunde', count: 1 }]);
});
