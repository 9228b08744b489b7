/**
 * The console and the embed page in the reader's language (issue 23, "Done when"): with the browser locale nb-NO
 * the connect page, the contacts page, a dialog, an error sentence and the embed page are Norwegian with
 * lang="nb"; English chosen in the header stays after a reload; with en-US the English is as before.
 */
import { expect, makeWorkspace, test } from './fixtures';

test.describe('in a Norwegian browser (nb-NO)', () => {
  test.use({ locale: 'nb-NO' });

  test('the connect page, an error sentence, the contacts page and a dialog are Norwegian, and English chosen in the header stays', async ({ page }) => {
    const workspace = await makeWorkspace('Språk');
    await page.goto('/connect');
    await expect(page.locator('html')).toHaveAttribute('lang', 'nb');
    await expect(page.getByRole('heading', { name: 'Koble til et arbeidsområde', level: 1 })).toBeVisible();

    // A field's own message, then the service's refusal as a Norwegian sentence.
    await page.getByRole('button', { name: 'Koble til', exact: true }).click();
    await expect(page.getByText('Skriv inn en API-nøkkel')).toBeVisible();
    await page.getByLabel('API-nøkkel', { exact: true }).fill('wsk_0000000000000000000000000000000000000000');
    await page.getByRole('button', { name: 'Koble til', exact: true }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'Kunne ikke koble til' });
    await expect(refusal).toContainText('Tjenesten avviste denne nøkkelen.');
    await expect(refusal).toContainText('Ingenting ble lagret.');

    await page.getByLabel('API-nøkkel', { exact: true }).fill(workspace.key);
    await page.getByRole('button', { name: 'Koble til', exact: true }).click();
    // Connecting lands on the overview where the service names `stats` (issue 35 point 5).
    await page.getByRole('navigation', { name: 'Seksjoner' }).getByRole('link', { name: 'Kontakter' }).click();
    await expect(page.getByRole('heading', { name: 'Kontakter', level: 1 })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('navigation', { name: 'Seksjoner' }).getByRole('link', { name: 'Innlegg' })).toBeVisible();
    await expect(page.getByRole('search', { name: 'Filtrer kontakter' }).getByLabel('Søk')).toBeVisible();
    await expect(page.getByText('Ingen kontakter ennå.')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'nb');

    // English in the header, at once and after a reload.
    await page.getByRole('group', { name: 'Språk' }).getByRole('button', { name: 'English' }).click();
    await expect(page.getByRole('heading', { name: 'Contacts', level: 1 })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Contacts', level: 1 })).toBeVisible();
    await expect(page.getByText('No contacts yet.')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');
  });

  test('the bulk tags dialog speaks Norwegian with Norwegian plurals', async ({ page, state }) => {
    const workspace = state.demo.workspaces[2]!;
    await page.goto('/connect');
    await page.getByRole('button', { name: `Koble til ${workspace.name}` }).click();
    // Connecting lands on the overview where the service names `stats` (issue 35 point 5).
    await page.getByRole('navigation', { name: 'Seksjoner' }).getByRole('link', { name: 'Kontakter' }).click();
    await expect(page.getByRole('heading', { name: 'Kontakter', level: 1 })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(/^200 kontakter$/)).toBeVisible();
    await page.getByRole('checkbox', { name: 'Velg alle radene på denne siden' }).check();
    const bar = page.getByRole('region', { name: 'Utvalg' });
    await bar.getByRole('button', { name: /^Sett merkelapper på 20 valgte$/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Merkelapper for 20 valgte kontakter' });
    await expect(dialog.getByRole('button', { name: 'Bruk på 20 kontakter' })).toBeDisabled();
    await expect(dialog.getByLabel('Merkelapper som skal legges til')).toBeVisible();
    await dialog.getByRole('button', { name: 'Lukk merking av flere' }).click();
    await expect(dialog).toBeHidden();
  });

  test('the embed page follows the reader, or its lang parameter', async ({ page, state }) => {
    const workspace = state.demo.workspaces[0]!;
    await page.goto(`/embed/${workspace.id}`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'nb');
    await expect(page.getByRole('heading', { name: 'Innlegg', level: 1 })).toBeVisible();
    await expect(page).toHaveTitle('Innlegg');
    await page.goto(`/embed/${workspace.id}?lang=en`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { name: 'Posts', level: 1 })).toBeVisible();
    await page.goto('/embed/no-such-workspace');
    await expect(page.getByRole('heading', { name: 'Fant ikke siden', level: 1 })).toBeVisible();
  });
});

test.describe('in an English browser (en-US)', () => {
  test.use({ locale: 'en-US' });

  test('the console and the embed page stay in English', async ({ page, state }) => {
    await page.goto('/connect');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { name: 'Connect to a workspace', level: 1 })).toBeVisible();
    await page.goto(`/embed/${state.demo.workspaces[0]!.id}`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { name: 'Posts', level: 1 })).toBeVisible();
  });
});
