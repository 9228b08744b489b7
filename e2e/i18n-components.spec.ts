/**
 * The shared components in bokmål (issue 23): in an nb-NO browser the header's request meter and key menu, the
 * notice after connecting, the column menu, the saved views (naming dialog, its refusal, a view's menu), a paged
 * list's count and a record drawer's "not found", the add-key dialog and the composer refusing a past time all speak
 * Norwegian, and a person can use them by their Norwegian names; each screen passes the axe check.
 */
import type { Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { checkAccessibility, expect, makeWorkspace, test } from './fixtures';
import { type StartedServer, apiCall, cli, startService } from './server';

test.use({ locale: 'nb-NO' });
// Each test loads several screens and runs the axe check on a machine shared with other work.
test.describe.configure({ timeout: 120_000 });

// The request meter shows once the service sends its `X-RateLimit-*` headers: a server with a limit, as the
// request-budget spec starts, over the same database.
let limited: StartedServer;
test.beforeAll(async ({ state }) => {
  limited = await startService(state.databaseUrl, { RATE_LIMIT_PER_MINUTE: '60', DEMO_SEED: 'off' });
});
test.afterAll(async () => {
  await limited?.stop();
});

/** Groups of digits as Intl writes them in nb-NO (a no-break space, narrow or not). */
const NB_NUMBER = '\\d{1,3}(?:[\\u00a0\\u202f ]\\d{3})*';

test('the header tools, the request meter, the column menu and saved views speak bokmål and work by their Norwegian names', async ({ page, state }) => {
  const workspace = state.demo.workspaces[2]!;
  // A key of its own, so the budget is full.
  const { key } = cli<{ key: string }>(state.databaseUrl, 'key', 'create', '--workspace', workspace.id, '--scope', 'all');
  // The workspace's shared views are gone before the test starts (through the unlimited server, so this key's budget
  // stays full): a retry (CI=1) then finds no "Delt uten sted" left by the attempt before it.
  const left = await apiCall(state.baseURL, key, 'GET', '/views');
  expect(left.status).toBe(200);
  for (const view of left.body.items as { viewId: string }[]) expect((await apiCall(state.baseURL, key, 'DELETE', `/views/${view.viewId}`)).status).toBe(204);
  await page.goto(`${limited.baseURL}/connect`);
  await page.getByLabel('API-nøkkel', { exact: true }).fill(key);
  await page.getByRole('button', { name: 'Koble til', exact: true }).click();
  // The notice after connecting with a pasted key says what the key allows.
  const notice = page.getByRole('status').filter({ hasText: `Koblet til ${workspace.name}` });
  await expect(notice).toContainText('Med denne nøkkelen kan du se og endre kontakter, se og endre produkter, se og publisere innlegg og legge til kontakter og se arbeidsområdene.', { timeout: 30_000 });
  // Connecting lands on the overview where the service names `stats` (issue 35 point 5).
  await page.getByRole('navigation', { name: 'Seksjoner' }).getByRole('link', { name: 'Kontakter' }).click();
  await expect(page.getByRole('heading', { name: 'Kontakter', level: 1 })).toBeVisible({ timeout: 30_000 });

  // The request meter: its name and its spoken value, with the numbers in place.
  const meter = page.getByRole('meter', { name: 'Forespørsler igjen' });
  await expect(meter).toBeVisible();
  await expect(meter).toHaveAttribute('aria-valuetext', /^\d+ av \d+ forespørsler igjen dette minuttet(, fylles på om \d+ s)?$/);

  // The key menu: organization, permissions, the share kept for the person's clicks (a percentage through Intl).
  await page.getByRole('button', { name: 'Nøkkel og tilganger' }).click();
  const keyMenu = page.getByRole('dialog', { name: 'Nøkkel og tilganger' });
  await expect(keyMenu.getByText('Organisasjon')).toBeVisible();
  await expect(keyMenu.getByRole('table', { name: 'Tilgangene til denne nøkkelen' })).toBeVisible();
  // In words (issue 34 point 9), not `contacts: read-write`.
  await expect(keyMenu.getByRole('row', { name: 'Kontakter se og endre kontakter' })).toBeVisible();
  await expect(keyMenu).not.toContainText(/read-write|read-only/);
  const reserve = keyMenu.getByRole('combobox', { name: 'Holdes av til dine egne klikk mens jobber kjører' });
  await expect(reserve.getByRole('option', { name: /^10[\u00a0\u202f ]%$/ })).toHaveCount(1);
  await expect(keyMenu.getByRole('link', { name: 'Administrer nøkler' })).toBeVisible();
  await checkAccessibility(page, 'nb-key-menu', { colors: false });
  await page.getByRole('button', { name: 'Nøkkel og tilganger' }).click();
  await expect(keyMenu).toBeHidden();

  // The column menu hides a column by its Norwegian name.
  const table = page.getByRole('table', { name: 'Kontakter' });
  await page.getByRole('button', { name: 'Kolonner' }).click();
  // The pop-up is named by its button (Mantine's aria-labelledby wins over its own label).
  const columns = page.getByRole('dialog', { name: 'Kolonner' });
  await columns.getByRole('checkbox', { name: 'Sted' }).uncheck();
  await page.keyboard.press('Escape');
  await expect(table.getByRole('columnheader', { name: 'Sted' })).toHaveCount(0);

  // Saving a view: a blank name is refused in Norwegian, a name saves it, and the view opens in one click.
  const views = page.getByRole('group', { name: 'Lagrede visninger' });
  await views.getByRole('button', { name: 'Lagre visning' }).click();
  const naming = page.getByRole('dialog', { name: 'Lagre visningen du ser nå' });
  await naming.getByRole('button', { name: 'Lagre', exact: true }).click();
  await expect(naming.getByText('Skriv et navn på visningen')).toBeVisible();
  await checkAccessibility(page, 'nb-save-view', { colors: false });
  await naming.getByRole('textbox', { name: 'Navn på visningen' }).fill('Uten sted');
  await naming.getByRole('button', { name: 'Lagre', exact: true }).click();
  await expect(naming).toBeHidden();
  const link = views.getByRole('link', { name: 'Uten sted', exact: true });
  await expect(link).toHaveAttribute('aria-current', 'true');

  // Elsewhere, with the column back (the page remembers its columns), one click on the view hides it again.
  await page.goto(`${limited.baseURL}/w/${workspace.id}/contacts`);
  await page.getByRole('button', { name: 'Kolonner' }).click();
  await columns.getByRole('checkbox', { name: 'Sted' }).check();
  await page.keyboard.press('Escape');
  await expect(table.getByRole('columnheader', { name: 'Sted' })).toBeVisible();
  await expect(link).not.toHaveAttribute('aria-current', 'true');
  await link.click();
  await expect(table.getByRole('columnheader', { name: 'Sted' })).toHaveCount(0);
  await expect(link).toHaveAttribute('aria-current', 'true');

  // A view's menu, and renaming it: the dialog names the view in «».
  await views.getByRole('button', { name: 'Valg for visningen «Uten sted»' }).click();
  await expect(page.getByRole('menuitem', { name: 'Kopier lenke' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Slett' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Gi nytt navn' }).click();
  const rename = page.getByRole('dialog', { name: 'Gi visningen «Uten sted» nytt navn' });
  await rename.getByRole('textbox', { name: 'Navn på visningen' }).fill('Kontakter uten sted');
  await rename.getByRole('button', { name: 'Lagre', exact: true }).click();
  await expect(views.getByRole('link', { name: 'Kontakter uten sted' })).toBeVisible();
  await checkAccessibility(page, 'nb-saved-views', { colors: false });

  // Sharing a view with the workspace (issue 36 point 8): the choice, the mark, the menu and the confirmation in bokmål.
  await views.getByRole('button', { name: 'Lagre visning' }).click();
  await naming.getByRole('textbox', { name: 'Navn på visningen' }).fill('Delt uten sted');
  const share = naming.getByRole('checkbox', { name: 'Del med arbeidsområdet' });
  await expect(share).toHaveAccessibleDescription(/^Alle nøkler i dette arbeidsområdet ser den/);
  await share.check();
  await naming.getByRole('button', { name: 'Lagre', exact: true }).click();
  await expect(naming).toBeHidden();
  await expect(views.getByRole('link', { name: 'Delt uten sted' })).toHaveAccessibleDescription(`Delt av …${key.slice(-4)}`);
  await views.getByRole('button', { name: 'Valg for den delte visningen «Delt uten sted»' }).click();
  await page.getByRole('menuitem', { name: 'Slett' }).click();
  const confirm = page.getByRole('dialog', { name: 'Slette den delte visningen «Delt uten sted»?' });
  await expect(confirm).toContainText('Den forsvinner for alle i arbeidsområdet');
  await confirm.getByRole('button', { name: 'Slett', exact: true }).click();
  await expect(views.getByRole('link', { name: 'Delt uten sted' })).toHaveCount(0);
});

test('a paged list counts in bokmål with Intl numbers, and a record that does not exist says so in bokmål', async ({ page, state, connect }) => {
  const workspace = state.demo.workspaces[0]!;
  await connect(workspace.key, { path: 'products' });
  await expect(page.getByText(new RegExp(`^${NB_NUMBER} produkt(er)?$`))).toBeVisible({ timeout: 30_000 });

  await page.goto(`/w/${workspace.id}/products/no-such-product`);
  const drawer = page.getByRole('dialog', { name: 'Fant ikke produktet' });
  await expect(drawer).toBeVisible({ timeout: 30_000 });
  await expect(drawer.getByRole('alert')).toHaveText('Dette arbeidsområdet har ikke noe produkt med ID-en «no-such-product». Det kan være slettet, eller adressen hører til et annet arbeidsområde.');
  await checkAccessibility(page, 'nb-record-not-found', { colors: false });
  await drawer.getByRole('button', { name: 'Tilbake til listen' }).click();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.id}/products$`));
});

test('the add-key dialog speaks bokmål and refuses a key of another workspace', async ({ page, state, connect }) => {
  const nordic = state.demo.workspaces[0]!;
  const keyless = await makeWorkspace('Uten nøkkel', 'contacts:read-only');
  await connect(nordic.key);
  await page.getByRole('button', { name: /Switch workspace|Bytt arbeidsområde/ }).click();
  // The switcher's own texts are the workspaces area's: its search box in either language.
  await page.getByRole('combobox', { name: /Search workspaces|arbeidsområde/i }).fill(keyless.name);
  await checkAccessibility(page, 'nb-workspace-switcher', { colors: false });
  await page.getByRole('option', { name: keyless.name }).click();
  const dialog = page.getByRole('dialog', { name: `Legg til en nøkkel for ${keyless.name}` });
  await expect(dialog).toContainText(`Denne nettleseren har ingen nøkkel for ${keyless.name} ennå.`);
  await dialog.getByRole('button', { name: 'Koble til', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText('Lim inn en API-nøkkel først.');
  await dialog.getByLabel('API-nøkkel', { exact: true }).fill(state.demo.workspaces[1]!.key);
  await dialog.getByRole('button', { name: 'Koble til', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText(`Denne nøkkelen hører til ${state.demo.workspaces[1]!.name}, ikke ${keyless.name}. Ingenting ble lagret.`);
  await expect(dialog.getByRole('link', { name: 'Flere valg (Basic-pålogging, et annet API)' })).toBeVisible();
  await checkAccessibility(page, 'nb-add-key-dialog', { colors: false });
  await dialog.getByRole('button', { name: 'Avbryt' }).click();
  await expect(dialog).toBeHidden();
});

/** A local time `seconds` from now, to the minute, as the date-time picker asks for it. */
async function localTime(page: Page, seconds: number) {
  return page.evaluate((offset) => {
    const date = new Date(Math.ceil((Date.now() + offset * 1000) / 60_000) * 60_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    const month = (locale: string) => date.toLocaleString(locale, { month: 'long' });
    return { date: date.getDate(), months: [month('en-US'), month('nb-NO')], year: date.getFullYear(), hours: pad(date.getHours()), minutes: pad(date.getMinutes()), sameDay: date.getDate() === new Date().getDate() };
  }, seconds);
}

test('the composer refuses a time that has passed, in bokmål, and sends nothing', async ({ page, connect }) => {
  const workspace = await makeWorkspace('Komponist');
  await connect(workspace.key, { path: 'posts/new' });
  await expect(page.getByRole('heading', { name: 'Nytt innlegg', level: 1 })).toBeVisible({ timeout: 30_000 });
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/api/post-requests')) sent.push(request.url());
  });
  await page.getByLabel('Overskrift', { exact: true }).fill(`Sommersalg ${randomUUID().slice(0, 8)}`);
  await page.getByRole('radio', { name: 'Planlegg' }).check();
  const past = await localTime(page, -120);
  test.skip(!past.sameDay, 'too close to midnight to pick a past time today');
  await page.getByRole('button', { name: 'Publiser', exact: true }).click();
  // The calendar names its days as the date library's locale does (English unless it is given Norwegian).
  await page.getByRole('button', { name: new RegExp(`^${past.date}\\.? (${past.months.join('|')}) ${past.year}$`, 'i') }).click();
  await page.getByRole('spinbutton', { name: 'Timer' }).fill(past.hours);
  await page.getByRole('spinbutton', { name: 'Minutter' }).fill(past.minutes);
  await page.getByRole('button', { name: 'Bekreft dato og klokkeslett' }).click();
  await page.getByRole('button', { name: 'Planlegg innlegget' }).click();
  await expect(page.getByText('Publiseringstidspunktet må være fram i tid: dette tidspunktet har allerede passert.')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await checkAccessibility(page, 'nb-composer-past-time', { colors: false });
  expect(sent).toEqual([]);
});
