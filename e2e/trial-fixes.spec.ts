/**
 * Issue 23 points 8 to 12 ("Smaller, from the same trial"), against the real server, each test in a workspace of
 * its own: tag suggestions close on Enter and each tag's × has a name; scheduling in a time zone other than the
 * browser's, to the minute, the instant checked through the API; an export of 2 selected rows with only the
 * visible columns; a "Product created" notification that covers none of the page's action buttons, and fields
 * that stand level whether or not they have a hint.
 */
import { readFileSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { type Workspace, expect, isUncovered, makeWorkspace, test } from './fixtures';

/** Creates `names.length` contacts in `ws` through the API; `extra(i)` adds fields. */
async function seed(request: APIRequestContext, ws: Workspace, names: string[], extra: (i: number) => Record<string, unknown> = () => ({})) {
  for (const [i, name] of names.entries()) {
    const response = await request.post('/api/contacts', { headers: { 'x-api-key': ws.key }, data: { name, email: `${name.toLowerCase().replace(/\W+/g, '.')}@trial.test`, city: 'Bergen', ...extra(i) } });
    expect(response.status()).toBe(201);
  }
}

/** The tags of the contact named `name`, read through the API. */
async function tagsOf(request: APIRequestContext, ws: Workspace, name: string): Promise<string[]> {
  const response = await request.get(`/api/contacts?%24filter=${encodeURIComponent(`name eq '${name}'`)}`, { headers: { 'x-api-key': ws.key } });
  return ((await response.json()).items[0]?.tags ?? []).sort();
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('tag suggestions close on Enter, leaving Apply and the notification switches free; each × is named after its tag', async ({ page, request, connect }) => {
  const ws = await makeWorkspace('Trial tags');
  await seed(request, ws, ['Kari Nordmann', 'Ola Nordmann'], (i) => ({ tags: i === 0 ? ['lead', 'vip'] : [], phone: `+479100000${i}` }));
  await connect(ws.key, { path: 'contacts?sort=name:asc' });

  // The bulk tags dialog: a typed tag taken with Enter closes the list; Apply is clickable at once.
  await page.getByRole('checkbox', { name: 'Select Ola Nordmann' }).check();
  await page.getByRole('button', { name: 'Tag 1 selected' }).click();
  const dialog = page.getByRole('dialog', { name: 'Tags for 1 selected contact' });
  const toAdd = dialog.getByRole('combobox', { name: 'Tags to add' });
  await toAdd.fill('le');
  await expect(page.getByRole('listbox')).toBeVisible(); // "lead" is suggested
  await toAdd.fill('spring');
  await toAdd.press('Enter');
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await expect(toAdd).toBeFocused(); // still typing in the field, the list closed
  await expect(dialog.getByRole('button', { name: 'Remove tag spring' })).toBeVisible();
  const apply = dialog.getByRole('button', { name: 'Apply to 1 contact' });
  expect(await isUncovered(apply)).toBe(true);
  await apply.click({ timeout: 5000 });
  // One POST /contacts/tags (our service names `contact-batch`, issue 35 point 8): the dialog says what changed, then closes.
  await expect(dialog.getByRole('status')).toHaveText('1 contact matched; the tags of 1 contact changed. Undo it on the Jobs page.', { timeout: 20_000 });
  await dialog.getByRole('button', { name: 'Close bulk tags' }).last().click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => tagsOf(request, ws, 'Ola Nordmann')).toEqual(['spring']);

  // The record: Enter closes the list over the notification switches; the × of "lead" removes "lead" only.
  await page.getByRole('table', { name: 'Contacts' }).getByRole('row', { name: /Kari Nordmann/ }).getByRole('cell').nth(2).click();
  const drawer = page.getByRole('dialog', { name: /Kari Nordmann/ });
  const tags = drawer.getByRole('combobox', { name: 'Tags' });
  await tags.fill('newsletter');
  await tags.press('Enter');
  await expect.poll(() => tagsOf(request, ws, 'Kari Nordmann')).toEqual(['lead', 'newsletter', 'vip']);
  await expect(page.getByRole('listbox')).toHaveCount(0);
  for (const name of ['Email notifications', 'SMS notifications']) {
    const toggle = drawer.getByRole('switch', { name });
    if (await toggle.count()) expect(await isUncovered(toggle.locator('xpath=..'))).toBe(true);
  }
  await drawer.getByRole('button', { name: 'Remove tag lead' }).click();
  await expect.poll(() => tagsOf(request, ws, 'Kari Nordmann')).toEqual(['newsletter', 'vip']);
  await expect(drawer.getByRole('button', { name: 'Remove tag lead' })).toHaveCount(0);
  await expect(drawer.getByRole('button', { name: 'Remove tag vip' })).toBeVisible();
});

test.describe('scheduling in a chosen time zone', () => {
  // The browser lives in New York; the post is planned for 09:00 in Oslo.
  test.use({ timezoneId: 'America/New_York', locale: 'en-US' });

  test('schedules 09:00 Oslo time from a New York browser, to the minute: the post request holds that instant, and the zone is remembered', async ({ page, request, connect }) => {
    // The browser's clock starts at the next hour when Oslo has begun a month New York has not (CI once failed there).
    const month = (zone: string, t: number) => new Intl.DateTimeFormat('en-US', { timeZone: zone, month: 'numeric' }).format(t);
    let boundary = Math.ceil(Date.now() / 3_600_000) * 3_600_000;
    while (month('Europe/Oslo', boundary) === month('America/New_York', boundary)) boundary += 3_600_000;
    await page.clock.install({ time: boundary });
    const ws = await makeWorkspace('Trial schedule');
    await connect(ws.key, { path: 'posts/new' });
    await page.getByRole('radio', { name: 'Schedule' }).check();
    await page.getByLabel('Header', { exact: true }).fill('Morgenkaffe');

    const zone = page.getByRole('combobox', { name: 'Time zone' });
    await expect(zone).toHaveValue('America/New_York (this browser)');
    await zone.click();
    await zone.fill('Oslo');
    await page.getByRole('option', { name: 'Europe/Oslo' }).click();
    await expect(zone).toHaveValue('Europe/Oslo');

    // Two days ahead in Oslo, at 09:00 there: the instant the service must get, computed by Intl in the test.
    const target = await page.evaluate(() => {
      const inOslo = (date: Date) => Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Oslo', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', hourCycle: 'h23' }).formatToParts(date).map((p) => [p.type, Number(p.value)]));
      const today = inOslo(new Date());
      const wall = Date.UTC(today.year!, today.month! - 1, today.day! + 2, 9, 0);
      // Oslo is UTC+1 or UTC+2: the instant whose Oslo wall time is 09:00 that day.
      const instant = [wall - 3_600_000, wall - 7_200_000].find((t) => inOslo(new Date(t)).hour === 9)!;
      const day = new Date(wall);
      // The calendar opens at today's month in Oslo, which may be a month after New York's.
      return { iso: new Date(instant).toISOString(), day: `${day.getUTCDate()} ${day.toLocaleString('en-US', { month: 'long', timeZone: 'UTC' })} ${day.getUTCFullYear()}`, nextMonth: day.getUTCMonth() !== today.month! - 1 };
    });
    await page.getByLabel('Publish at').click();
    if (target.nextMonth) await page.getByRole('button', { name: 'Next month' }).click();
    await page.getByRole('button', { name: target.day, exact: true }).click();
    await page.getByRole('spinbutton', { name: 'Hours' }).fill('09');
    await page.getByRole('spinbutton', { name: 'Minutes' }).fill('00');
    await expect(page.getByRole('spinbutton', { name: 'Seconds' })).toHaveCount(0); // minutes only
    await page.getByRole('button', { name: 'Confirm date and time' }).click();
    await expect(page.getByText(`Sent as ${target.iso} (UTC)`)).toBeVisible();
    await page.getByRole('button', { name: 'Schedule post' }).click();
    await page.getByRole('dialog', { name: 'Schedule for everyone?' }).getByRole('button', { name: 'Schedule for everyone' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'reference' })).toContainText('scheduled');

    const requests = await request.get('/api/post-requests?%24limit=5', { headers: { 'x-api-key': ws.key } });
    expect(requests.status()).toBe(200);
    const items = (await requests.json()).items as { state: string; header: string; publishDate: string }[];
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ state: 'scheduled', header: 'Morgenkaffe' });
    expect(new Date(items[0]!.publishDate).toISOString()).toBe(target.iso);

    // Remembered for this workspace on this device.
    await page.reload();
    await page.getByRole('radio', { name: 'Schedule' }).check();
    await expect(page.getByRole('combobox', { name: 'Time zone' })).toHaveValue('Europe/Oslo');
  });
});

test('exports exactly the 2 selected rows, with only the visible columns when chosen', async ({ page, request, connect }) => {
  const ws = await makeWorkspace('Trial export');
  const names = ['Anne Berg', 'Bjørn Dahl', 'Cecilie Eng', 'Dag Foss', 'Eva Grønn'];
  await seed(request, ws, names);
  await connect(ws.key, { path: 'contacts?sort=name:asc' });
  await expect(page.getByText('5 contacts')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select Bjørn Dahl' }).check();
  await page.getByRole('checkbox', { name: 'Select Dag Foss' }).check();
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('checkbox', { name: 'City' }).uncheck();
  await page.getByRole('checkbox', { name: 'Source' }).uncheck();
  await page.keyboard.press('Escape');

  // Visible columns, CSV.
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(page.getByRole('menuitemradio', { name: 'The 2 selected contacts' })).toHaveAttribute('aria-checked', 'true');
  await page.getByRole('menuitemradio', { name: 'Visible columns' }).click();
  await expect(page.getByRole('menuitemradio', { name: 'Visible columns' })).toHaveAttribute('aria-checked', 'true');
  let download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'CSV (.csv)' }).click();
  let file = await download;
  expect(file.suggestedFilename()).toMatch(/^contacts-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync(await file.path(), 'utf8');
  expect(csv.startsWith('\uFEFF')).toBe(true);
  const rows = parse(csv.replace(/^\uFEFF/, '')) as string[][];
  expect(rows[0]).toEqual(['name', 'email', 'phone', 'state', 'tags', 'created']);
  expect(rows.slice(1).map((row) => row[0]).sort()).toEqual(['Bjørn Dahl', 'Dag Foss']);
  await expect(page.getByText('Exported 2 contacts')).toBeVisible();

  // All fields, Excel: the service's own file, still only the 2.
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await page.getByRole('menuitemradio', { name: 'All fields' }).click();
  download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Excel (.xlsx)' }).click();
  file = await download;
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await file.path());
  const sheet: string[][] = [];
  book.getWorksheet('Contacts')!.eachRow((row) => sheet.push((row.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
  // The sheet for people, in the console's language (issue 34 point 10; docs/exports.md).
  expect(sheet[0]).toEqual(['ID', 'Name', 'Email', 'Phone', 'State', 'Tags', 'Source', 'Address', 'City', 'Postal code', 'Region', 'Created', 'Updated']);
  expect(sheet.slice(1).map((row) => row[1]).sort()).toEqual(['Bjørn Dahl', 'Dag Foss']);
});

test('the "Product created" notification covers none of the page\'s action buttons; fields with and without hints stand level', async ({ page, connect }) => {
  const ws = await makeWorkspace('Trial toast');
  await connect(ws.key);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/w/${ws.id}/products`);
  await page.getByRole('button', { name: 'New product' }).click();
  const form = page.getByRole('form', { name: 'New product' });
  // Price has no hint, Original price has one: their inputs start at the same height.
  const price = await form.getByRole('textbox', { name: 'Price', exact: true }).boundingBox();
  const original = await form.getByRole('textbox', { name: 'Original price', exact: true }).boundingBox();
  expect(Math.abs(price!.y - original!.y)).toBeLessThan(1);
  await form.getByRole('textbox', { name: 'Title', exact: true }).fill('Ullgenser');
  await form.getByRole('button', { name: 'Create product' }).click();
  const notice = page.getByRole('alert').filter({ hasText: 'Product created' });
  await expect(notice).toBeVisible();
  await expect(form).toBeHidden();
  const noticeBox = (await notice.boundingBox())!;
  const main = page.getByRole('main');
  const actions = main.getByRole('button').or(main.getByRole('link'));
  const count = await actions.count();
  expect(count).toBeGreaterThan(2);
  for (let i = 0; i < count; i++) {
    const action = actions.nth(i);
    if (!(await action.isVisible())) continue;
    const box = await action.boundingBox();
    if (box && box.y < 300) expect(overlaps(noticeBox, box), `the notification covers "${await action.innerText()}"`).toBe(false);
  }
  for (const name of ['New product', 'Import CSV']) {
    const button = page.getByRole('button', { name, exact: true });
    expect(overlaps(noticeBox, (await button.boundingBox())!)).toBe(false);
    expect(await isUncovered(button)).toBe(true);
  }
});
