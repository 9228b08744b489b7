/**
 * The workspaces page, the overview, the people search and the jobs page in bokmål (issue 23), in Debian's Chromium
 * with the browser locale nb-NO against the real server: headings, buttons, plurals, numbers and dates through Intl
 * in Norwegian, each screen used by its Norwegian names (a bulk tag job made and read on the jobs page, with its
 * title rendered from its stored key, its counts and its report's download), and axe clean.
 */
import { randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { type Workspace, checkAccessibility, expect, makeWorkspace, test } from './fixtures';

test.use({ locale: 'nb-NO' });

/** The API's count of contacts: one `$limit=1` request, `meta.maxResults`. */
async function contactCount(request: APIRequestContext, key: string): Promise<number> {
  const response = await request.get('/api/contacts?%24limit=1', { headers: { 'x-api-key': key } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { meta: { maxResults: number } }).meta.maxResults;
}

async function createContact(request: APIRequestContext, workspace: Workspace, body: Record<string, unknown>) {
  const response = await request.post('/api/contacts', { headers: { 'x-api-key': workspace.key }, data: body });
  expect(response.status()).toBe(201);
}

const norwegian = (value: number) => new Intl.NumberFormat('nb-NO').format(value);

test('the overview and the workspaces page read in bokmål, with numbers and dates through Intl', async ({ page, state, connect, request }) => {
  const demo = state.demo.workspaces[0]!;
  const total = await contactCount(request, demo.key);
  expect(total).toBeGreaterThanOrEqual(1000); // so the figure has a Norwegian thousands separator
  await connect(demo.key);
  await page.getByRole('navigation', { name: 'Seksjoner' }).getByRole('link', { name: 'Oversikt' }).click();
  await expect(page.getByRole('heading', { name: 'Oversikt', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Produkter og kolleksjoner' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Alle kontakter', exact: true })).toContainText(norwegian(total), { timeout: 30_000 });
  expect(norwegian(total)).toMatch(/^\d{1,3}\u00a0\d{3}$/);
  await expect(page.getByText(/^Per \d{2}:\d{2}$/)).toBeVisible();
  const weeks = page.getByRole('table', { name: 'Nye kontakter per uke' });
  // "Uken fra 17. nov. 2025": the day as nb-NO writes it.
  await expect(weeks.getByRole('rowheader').first()).toHaveText(/^Uken fra \d{1,2}\. [a-zæøå]{3,4}\.? \d{4}$/);
  await expect(weeks.getByRole('link', { name: /^Vis kontaktene fra uken som begynner / }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Oppdater' })).toBeVisible();
  await checkAccessibility(page, 'overview-nb', { colors: false });

  await page.getByRole('navigation', { name: 'Seksjoner' }).getByRole('link', { name: 'Arbeidsområder' }).click();
  await expect(page.getByRole('heading', { name: 'Arbeidsområder', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Arbeidsområdene i organisasjonen' });
  await expect(table.getByRole('columnheader', { name: 'Nøkkel på denne enheten' })).toBeVisible();
  // Other tests add workspaces to the demo organization: in a full run the count may span pages (« · side 1 av 3»).
  await expect(page.getByText(/^\d+ arbeidsområder( · side \d+ av \d+)?$/)).toBeVisible();
  await expect(page.getByLabel('Sorter etter')).toContainText('Navn A–Å');
  await checkAccessibility(page, 'workspaces-nb', { colors: false });
  // The search narrows to one workspace (other tests add workspaces to the demo organization: it may not be on the
  // first page otherwise): a singular.
  await page.getByLabel('Søk etter navn').fill(demo.name);
  await expect(page.getByText(/^1 arbeidsområde passer$/)).toBeVisible();
  const current = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: demo.name }) });
  await expect(current).toContainText('arbeidsområdet du er i');
  await expect(current).toContainText('Nøkkel lagret');
  await expect(current.locator('time')).toHaveText(/^\d{1,2}\. [a-zæøå]{3,4}\.? \d{4}$/);
});

test('the people search and the jobs page with a finished job read in bokmål, and work by their Norwegian names', async ({ page, request, connect }) => {
  test.setTimeout(180_000);
  const ws = await makeWorkspace('Språkjobb');
  const tag = randomUUID().slice(0, 8);
  for (const [name, local] of [['Kari', 'kari'], ['Ola', 'ola'], ['Åse', 'aase']] as const) await createContact(request, ws, { name: `${name} Nordmann ${tag}`, email: `${local}.${tag}@example.no` });
  await connect(ws.key);
  await expect(page.getByRole('heading', { name: 'Kontakter', level: 1 })).toBeVisible({ timeout: 30_000 });

  // The people search: its dialog, a plural of one, the results.
  await page.getByRole('button', { name: 'Søk etter personer i alle arbeidsområder' }).click();
  const dialog = page.getByRole('dialog', { name: 'Finn en person i alle arbeidsområder' });
  await expect(dialog.getByText('Søker i arbeidsområdet som konsollen har en nøkkel til.', { exact: false })).toBeVisible();
  await dialog.getByLabel('Navn, e-post eller telefon').fill(`Nordmann ${tag}`);
  await dialog.getByLabel('Navn, e-post eller telefon').press('Enter');
  const results = dialog.getByRole('region', { name: 'Treff per arbeidsområde' });
  await expect(results).toContainText('3 funnet');
  await expect(results.getByRole('button', { name: `Alt om Kari Nordmann ${tag}` })).toBeVisible();
  await checkAccessibility(page, 'people-search-nb', { include: '[role="dialog"]', colors: false });
  await results.getByRole('button', { name: `Alt om Kari Nordmann ${tag}` }).click();
  await expect(dialog.getByRole('heading', { name: `Alt om Kari Nordmann ${tag}` })).toBeVisible();
  await expect(dialog.getByRole('list', { name: 'Funnet i', exact: true })).toContainText('1 oppføring');
  await dialog.getByRole('button', { name: 'Lukk' }).click();
  await expect(dialog).toBeHidden();

  // A bulk tag job, made through the Norwegian contacts page.
  await page.getByRole('checkbox', { name: 'Velg alle radene på denne siden' }).check();
  await page.getByRole('region', { name: 'Utvalg' }).getByRole('button', { name: /^Sett merkelapper på 3 valgte$/ }).click();
  const tags = page.getByRole('dialog', { name: 'Merkelapper for 3 valgte kontakter' });
  const field = tags.getByRole('combobox', { name: 'Merkelapper som skal legges til' });
  await field.fill('vip');
  await field.press('Enter');
  await field.blur();
  await tags.getByRole('button', { name: 'Bruk på 3 kontakter' }).click();
  // One POST /contacts/tags (our service names `contact-batch`, issue 35 point 8): the dialog says what changed, in bokmål.
  await expect(tags.getByRole('status')).toHaveText('3 kontakter traff; taggene til 3 kontakter ble endret. Angre på Jobber-siden.', { timeout: 20_000 });
  await tags.getByRole('button', { name: 'Lukk merking av flere' }).last().click();
  await expect(tags).toBeHidden();

  await page.getByRole('navigation', { name: 'Seksjoner' }).getByRole('link', { name: 'Jobber' }).click();
  await expect(page.getByRole('heading', { name: 'Jobber', level: 1 })).toBeVisible();
  const entry = page.getByRole('article').filter({ has: page.getByRole('heading', { name: 'Legg til vip på 3 kontakter', exact: true }) });
  await expect(entry.getByTestId('job-state')).toHaveText('Ferdig', { timeout: 60_000 });
  await expect(entry).toContainText('Merkelapper på mange kontakter');
  await expect(entry).toContainText('1 av 1 ferdig'); // one request for the 3 contacts
  const report = entry.getByRole('group', { name: 'Rapport for Legg til vip på 3 kontakter' });
  const part = report.getByRole('button', { name: 'Last ned merkelappendringer: 3 merkelappendringer (CSV)' });
  await expect(part).toHaveText('3 merkelappendringer');
  await expect(entry.getByRole('button', { name: 'Angre denne jobben' })).toBeVisible();
  await checkAccessibility(page, 'jobs-nb', { colors: false });

  const [download] = await Promise.all([page.waitForEvent('download'), part.click()]);
  expect(download.suggestedFilename()).toBe('Legg-til-vip-på-3-kontakter-merkelappendringer.csv');

  // Its undo (our service's activity log: one request for the whole job, issue 33) asks first and says what it did, in
  // bokmål with a plural.
  await entry.getByRole('button', { name: 'Angre denne jobben' }).click();
  const confirm = entry.getByRole('alertdialog', { name: 'Angre denne jobben' });
  await expect(confirm).toContainText('Vil du angre alt denne jobben endret, med én forespørsel?');
  await confirm.getByRole('button', { name: 'Angre jobben' }).click();
  await expect(entry.getByText('Tilbakestilte 3 endringer.')).toBeVisible();

  // English chosen in the header: the same stored jobs read in English at once.
  await page.getByRole('group', { name: 'Språk' }).getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('heading', { name: 'Jobs', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Add vip on 3 contacts', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Changes of this job in the activity log' })).toBeVisible();
});
