/**
 * The contacts import's plan (issue 20 points 1 to 3) against the real server, in a workspace of its own whose
 * contacts are seeded through the API before the tests: a mixed CSV (Windows-1252, `;`-delimited, Mailchimp's
 * headers: new rows, existing emails in another letter case, a repeated row, invalid emails, phones in local and
 * international form) and an xlsx of two sheets (Brevo's headers) give the counts and reasons expected; the refused
 * rows download as a CSV with a reason column; the mapping is remembered; nothing is written by a plan; the time
 * estimate uses the key's X-RateLimit-Limit. These plans are the look-up way, a service without `contact-batch`'s
 * (`hideExtensions`); on ours nothing is looked up (the last test; docs/import.md, "In batches"). Starting the job is
 * the job runner's.
 */
import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { type StartedServer, cli, startService, fetchApi } from './server';
import { type Workspace, checkAccessibility, expect, hideExtensions, makeWorkspace, test } from './fixtures';

let ws: Workspace;
let baseURL: string;

/** Sends `body` to the API of the test workspace; the parsed JSON. */
async function api(method: string, path: string, body?: unknown) {
  const response = await fetchApi(`${baseURL}/api${path}`, {
    method,
    headers: { 'x-api-key': ws.key, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return response.json();
}

/** The contacts already in the workspace when a file is imported. */
const SEEDED = [
  { email: 'Existing.One@Example.com', name: 'Existing One', tags: ['old'] },
  { email: 'existing.two@example.com', name: 'Existing Two', tags: ['old'] },
  { phone: '+4791111111', name: 'Phone Only' },
  { email: 'has.tag@example.com', tags: ['spring'] },
];

test.beforeAll(async ({ state }) => {
  baseURL = state.baseURL;
  ws = await makeWorkspace('Contacts Import');
  for (const contact of SEEDED) await api('POST', '/contacts', contact);
});

/** A Mailchimp-style export, `;`-delimited, in Windows-1252 (the `ø` of row 2 is one byte, 0xF8). */
const MIXED_CSV = [
  'Email Address;First Name;Last Name;Phone Number;TAGS;MEMBER_RATING',
  'new.one@example.com;Bjørn;Dæhlie;912 34 567;"vip, runner";2', // 2 new, local phone
  'EXISTING.ONE@EXAMPLE.COM;One;;;spring;1', // 3 exists (another letter case): tags added
  'New.One@Example.COM;;;+47 912 34 567;ski;1', // 4 repeats row 2 (email in another case): merged
  'not-an-email;Bad;Row;;;1', // 5 refused
  ';;;+47 911 11 111;;1', // 6 exists by phone (international form)
  ';;;123;;1', // 7 refused: an invalid phone and nothing else to key on (with a name it would go in without the phone)
  ';;;;lonely;1', // 8 refused: nothing to key on
  'new.two@example.com;Cat;;0047 922 22 222;;1', // 9 new, 00-prefixed phone
  'HAS.TAG@example.com;;;;spring;1', // 10 exists, gets only the import tag
  '=cmd|calc!A1;Formula;;;;1', // 11 refused, and its cells are formula-guarded in the refused file
].join('\r\n');

function latin1(text: string): Buffer {
  return Buffer.from(text, 'latin1');
}

async function openImport(page: Page) {
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Import contacts' });
  await expect(dialog.getByLabel('CSV or Excel file')).toBeVisible();
  return dialog;
}

test('plans a mixed CSV: new, existing in another letter case, merged repeats, refused rows with reasons, downloadable', async ({ page, connect, context }) => {
  test.setTimeout(90_000);
  await hideExtensions(context, ['contact-batch']);
  const before = (await api('GET', '/contacts?%24limit=1')).meta.maxResults;
  await connect(ws.key);
  const dialog = await openImport(page);
  await dialog.getByLabel('CSV or Excel file').setInputFiles({ name: 'mailchimp-export.csv', mimeType: 'text/csv', buffer: latin1(MIXED_CSV) });

  // Mapping: Mailchimp recognised, First + Last Name joined, Windows-1252 decoded, the rating left out.
  await expect(dialog.getByText(/mailchimp-export\.csv: 10 rows, 6 columns\. Read as windows-1252\. Recognised as a Mailchimp export\. Not imported: MEMBER_RATING\./)).toBeVisible();
  await expect(dialog.getByRole('combobox', { name: 'Email', exact: true }).locator('option:checked')).toHaveText('Email Address');
  await expect(dialog.getByRole('combobox', { name: 'Phone', exact: true }).locator('option:checked')).toHaveText('Phone Number');
  const names = dialog.getByRole('group', { name: 'Columns joined into name' });
  await expect(names.getByRole('checkbox', { name: 'First Name' })).toBeChecked();
  await expect(names.getByRole('checkbox', { name: 'Last Name' })).toBeChecked();
  await expect(dialog.getByRole('group', { name: 'Columns feeding tags' }).getByRole('checkbox', { name: 'TAGS' })).toBeChecked();
  await expect(dialog.getByLabel('Default source')).toHaveValue('mailchimp-export.csv');
  await dialog.getByLabel('Tag for the whole import').fill('from-mailchimp');
  await dialog.getByRole('combobox', { name: 'Default country for phone numbers' }).selectOption('NO');
  const preview = dialog.getByRole('table', { name: /Preview of the first 5 rows/ });
  await expect(preview.locator('tbody tr').first()).toContainText('Bjørn Dæhlie');
  await expect(preview.locator('tbody tr').first()).toContainText('+4791234567');
  await expect(preview.locator('tbody tr').first()).toContainText('vip, runner, from-mailchimp');
  await expect(preview.locator('tbody tr').nth(3)).toContainText("email 'not-an-email' is not a valid email address");
  await checkAccessibility(page, 'contact-import-mapping');

  await dialog.getByRole('button', { name: 'Check 10 rows' }).click();
  const counts = dialog.getByRole('group', { name: 'Plan' });
  await expect(counts).toContainText('2 new', { timeout: 30_000 });
  await expect(counts).toContainText('3 already exist (3 get tags added, nothing else changes)');
  await expect(counts).toContainText('4 refused');
  await expect(counts).toContainText('1 row merged into an earlier row with the same email or phone');
  // The 2 creates and 3 tag additions, a request each (the look-up way, without `contact-batch`); the e2e server
  // announces no rate limit (RATE_LIMIT_PER_MINUTE=0).
  await expect(dialog.getByText(/The import will send 5 requests\. The service announces no rate limit for this key\. The plan spent 2 look-up requests\./)).toBeVisible();
  const refused = dialog.getByRole('table', { name: 'Refused rows' }).locator('tbody tr');
  await expect(refused).toHaveText([
    "5email 'not-an-email' is not a valid email address",
    "7phone '123' is not a valid phone number (read with default country NO)",
    '8no email, phone or name',
    "11email '=cmd|calc!A1' is not a valid email address",
  ]);
  await expect(dialog.getByRole('button', { name: 'Start import (5 requests)' })).toBeEnabled(); // started in e2e/contact-import-job.spec.ts
  await checkAccessibility(page, 'contact-import-plan');

  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download refused rows (CSV)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('mailchimp-export-refused.csv');
  const text = readFileSync(await download.path(), 'utf8');
  const rows = parse(text, { bom: true, columns: true }) as Record<string, string>[];
  expect(Object.keys(rows[0]!)).toEqual(['Email Address', 'First Name', 'Last Name', 'Phone Number', 'TAGS', 'MEMBER_RATING', 'reason']);
  expect(rows.map((row) => [row['Email Address'], row['First Name'], row.reason])).toEqual([
    ['not-an-email', 'Bad', "email 'not-an-email' is not a valid email address"],
    ['', '', "phone '123' is not a valid phone number (read with default country NO)"],
    ['', '', 'no email, phone or name'],
    ["'=cmd|calc!A1", 'Formula', "email '=cmd|calc!A1' is not a valid email address"],
  ]);

  // A plan writes nothing.
  expect((await api('GET', '/contacts?%24limit=1')).meta.maxResults).toBe(before);

  // The mapping is remembered for the next file with the same headers: change one choice, then open the file again.
  await dialog.getByRole('button', { name: 'Back to mapping' }).click();
  await dialog.getByRole('group', { name: 'Columns joined into name' }).getByRole('checkbox', { name: 'Last Name' }).uncheck();
  await dialog.getByRole('button', { name: 'Check 10 rows' }).click();
  await expect(counts).toContainText('2 new', { timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Close import' }).click();
  const again = await openImport(page);
  await again.getByLabel('CSV or Excel file').setInputFiles({ name: 'mailchimp-export.csv', mimeType: 'text/csv', buffer: latin1(MIXED_CSV) });
  await expect(again.getByRole('group', { name: 'Columns joined into name' }).getByRole('checkbox', { name: 'First Name' })).toBeChecked();
  await expect(again.getByRole('group', { name: 'Columns joined into name' }).getByRole('checkbox', { name: 'Last Name' })).not.toBeChecked();
});

test('a key revoked before the plan: the look-ups fail with the service’s reason, and no plan is shown', async ({ page, connect, state, context }) => {
  await hideExtensions(context, ['contact-batch']);
  const own = await makeWorkspace('Import Revoked');
  await connect(own.key);
  const dialog = await openImport(page);
  await dialog.getByLabel('CSV or Excel file').setInputFiles({ name: 'few.csv', mimeType: 'text/csv', buffer: Buffer.from('email,name\nrevoked.one@example.com,One\nrevoked.two@example.com,Two\n') });
  await expect(dialog.getByText(/few\.csv: 2 rows/)).toBeVisible();
  cli(state.databaseUrl, 'key', 'revoke', '--key', own.key);
  // The look-ups run in a worker (lookup-worker.ts): its 401 reaches the dialog as the plan's error.
  await dialog.getByRole('button', { name: 'Check 2 rows' }).click();
  await expect(dialog.getByRole('alert', { name: 'The look-up for existing contacts failed' })).toContainText('Invalid API key');
  await expect(dialog.getByRole('group', { name: 'Plan' })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Check 2 rows' })).toBeEnabled();
});

/** An xlsx of two sheets: notes first, then the contacts with Brevo's headers (SMS as numbers, as Brevo writes them). */
async function brevoWorkbook(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Notes').addRows([['Exported from Brevo'], ['see the next sheet']]);
  const sheet = workbook.addWorksheet('Contacts');
  sheet.addRows([
    ['EMAIL', 'FIRSTNAME', 'LASTNAME', 'SMS'],
    ['existing.two@EXAMPLE.com', 'Two', 'Again', null], // exists
    ['brevo.new@example.com', 'Brevo', 'Person', 4790000001], // new, SMS with country code and no +
    ['brevo.new@example.com', null, null, null], // merged
    ['broken@', 'Broken', null, null], // refused
    [null, null, null, 4791111111], // exists by phone
  ]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

test.describe('in a Norwegian browser', () => {
  test.use({ locale: 'nb-NO' });

  test('plans an xlsx after choosing its sheet, with Norway as the phones’ default country, all in bokmål', async ({ page, connect, context }) => {
    await hideExtensions(context, ['contact-batch']);
    await connect(ws.key);
    await page.getByRole('button', { name: 'Importer', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Importer kontakter' });
    await dialog.getByLabel('CSV- eller Excel-fil').setInputFiles({ name: 'brevo.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: await brevoWorkbook() });
    await expect(dialog.getByText(/brevo\.xlsx: 1 rad, 1 kolonne\./)).toBeVisible();
    await dialog.getByRole('combobox', { name: 'Ark' }).selectOption('Contacts');
    await expect(dialog.getByText(/brevo\.xlsx: 5 rader, 4 kolonner\. +Gjenkjent som en eksport fra Brevo\./)).toBeVisible();
    await expect(dialog.getByRole('combobox', { name: 'Standardland for telefonnumre' })).toHaveValue('NO');
    await expect(dialog.getByRole('combobox', { name: 'Telefon', exact: true }).locator('option:checked')).toHaveText('SMS');
    await dialog.getByRole('button', { name: 'Kontroller 5 rader' }).click();
    const counts = dialog.getByRole('group', { name: 'Plan' });
    await expect(counts).toContainText('1 ny', { timeout: 30_000 });
    await expect(counts).toContainText('2 finnes fra før (2 får nye merkelapper, ellers endres ingenting)');
    await expect(counts).toContainText('1 avvist');
    await expect(dialog.getByRole('table', { name: 'Avviste rader' }).locator('tbody tr')).toHaveText(['5e-post «broken@» er ikke en gyldig e-postadresse']);
  });
});

test.describe('against a server with a rate limit', () => {
  let limited: StartedServer;
  test.beforeAll(async ({ state }) => {
    limited = await startService(state.databaseUrl, { RATE_LIMIT_PER_MINUTE: '60', DEMO_SEED: 'off' });
  });
  test.afterAll(async () => {
    await limited?.stop();
  });

  /**
   * Connects to the limited server through /connect (it lands on the overview: our service names `stats`, issue 35
   * point 5), opens Contacts and the import, and plans a file of 150 new contacts; the import dialog.
   */
  async function planTimedFile(page: Page): Promise<Locator> {
    await page.goto(`${limited.baseURL}/connect`);
    await page.getByLabel('API key', { exact: true }).fill(ws.key);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/w/${ws.id}$`));
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Contacts' }).click();
    const dialog = await openImport(page);
    const rows = Array.from({ length: 150 }, (_, i) => `timed.${i}@example.com,Timed ${i}`);
    await dialog.getByLabel('CSV or Excel file').setInputFiles({ name: 'timed.csv', mimeType: 'text/csv', buffer: Buffer.from(['email,name', ...rows].join('\n')) });
    await dialog.getByRole('button', { name: 'Check 150 rows' }).click();
    return dialog;
  }

  test("times the job at the key's X-RateLimit-Limit", async ({ page, context }) => {
    // One request per contact, as on a service without `contact-batch` (on ours, 150 new rows are one request).
    await hideExtensions(context, ['contact-batch']);
    const dialog = await planTimedFile(page);
    await expect(dialog.getByText(/The import will send 150 requests\. About 3 minutes at this key's rate limit of 60 requests a minute\. The plan spent 2 look-up requests\./)).toBeVisible({
      timeout: 30_000,
    });
  });

  test('on our service, which names `contact-batch`, the same 150 rows are one request and nothing is looked up: about 1 second at the limit', async ({ page }) => {
    const dialog = await planTimedFile(page);
    await expect(dialog.getByText(/The import will send 1 request\. About 1 second at this key's rate limit of 60 requests a minute\. Nothing was looked up:/)).toBeVisible({
      timeout: 30_000,
    });
    await expect(dialog.getByRole('group', { name: 'Plan' })).toContainText("150 to create, or to give the file's tags where they already exist");
    await expect(dialog.getByRole('button', { name: 'Start import (1 request)' })).toBeEnabled();
  });
});
