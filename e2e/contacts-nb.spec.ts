/**
 * A contact's record, its editing and erasure, the import dialog and the export menu in bokmål (issue 23): in an
 * nb-NO browser, against the real service, selected by their Norwegian names, with the axe check on each.
 */
import { randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { checkAccessibility, expect, makeWorkspace, test } from './fixtures';

async function post(request: APIRequestContext, key: string, data: Record<string, unknown>) {
  const response = await request.post('/api/contacts', { headers: { 'x-api-key': key }, data });
  expect(response.status(), await response.text()).toBe(201);
}

test.use({ locale: 'nb-NO' });

test('the record, Edit, Erase, the import dialog and the export menu read in bokmål and work by their Norwegian names', async ({ page, request, connect }) => {
  const ws = await makeWorkspace('Kontaktkort');
  const name = `Åse Bø ${randomUUID().slice(0, 6)}`;
  await post(request, ws.key, { name, email: `ase.${randomUUID().slice(0, 6)}@example.com`, city: 'Bergen' });
  await post(request, ws.key, { name: 'Øystein Lie', email: 'oystein@example.com' });
  await connect(ws.key);
  await expect(page.locator('html')).toHaveAttribute('lang', 'nb');
  await expect(page.getByRole('heading', { name: 'Kontakter', level: 1 })).toBeVisible();

  // The record.
  await page.locator('tbody tr').filter({ hasText: name }).click();
  const drawer = page.getByRole('dialog', { name });
  await expect(drawer.getByRole('heading', { name: 'Varsler' })).toBeVisible();
  await expect(drawer.getByRole('heading', { name: 'Detaljer' })).toBeVisible();
  await expect(drawer.getByText('Basic-pålogging trengs')).toBeVisible();
  await expect(drawer.getByLabel('Merkelapper')).toBeVisible();
  await expect(drawer.getByText('Opprettet', { exact: true })).toBeVisible();
  await checkAccessibility(page, 'contact-record-nb', { include: '[role="dialog"]', colors: false });

  // Edit a field and save: the Norwegian labels and the notification.
  await drawer.getByRole('button', { name: `Rediger ${name}` }).click();
  const form = page.getByRole('dialog', { name: 'Rediger kontakt' });
  await expect(form.getByLabel('E-post')).toBeVisible();
  await expect(form.getByText('Internasjonal form, for eksempel +47 123 45 678')).toBeVisible();
  const city = form.getByLabel('Sted');
  await expect(city).toHaveValue('Bergen');
  await city.fill('Tromsø');
  await checkAccessibility(page, 'contact-edit-nb', { include: '[role="dialog"]' });
  await form.getByRole('button', { name: 'Lagre endringene' }).click();
  await expect(page.getByText(`${name} er lagret.`)).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Rediger kontakt' })).toHaveCount(0);
  await expect(page.locator('tbody tr').filter({ hasText: name })).toContainText('Tromsø');

  // Erase: the confirmation's wording, the name typed, then cancelled.
  await page.getByRole('dialog', { name }).getByRole('button', { name: 'Slett for godt …' }).click();
  const confirm = page.getByRole('dialog', { name: `Slette ${name} for godt?` });
  await expect(confirm).toContainText('Slettingen er endelig: ingenting kan hentes tilbake.');
  await expect(confirm).toContainText('merkelappene');
  const erase = confirm.getByRole('button', { name: 'Slett for godt', exact: true });
  await expect(erase).toBeDisabled();
  await confirm.getByLabel(`Skriv «${name}» for å bekrefte`).fill(name);
  await expect(erase).toBeEnabled();
  await checkAccessibility(page, 'contact-erase-nb', { include: '[role="dialog"]' });
  await confirm.getByRole('button', { name: 'Avbryt' }).click();
  await expect(confirm).toHaveCount(0);
  await page.getByRole('dialog', { name }).getByRole('button', { name: 'Lukk kontakten' }).click();
  await expect(page.getByRole('dialog', { name })).toHaveCount(0);

  // The import dialog's first step.
  await page.getByRole('button', { name: 'Importer', exact: true }).click();
  const importer = page.getByRole('dialog', { name: 'Importer kontakter' });
  await expect(importer.getByRole('heading', { name: '1. Velg en fil' })).toBeVisible();
  await expect(importer.getByLabel('CSV- eller Excel-fil')).toBeVisible();
  await expect(importer).toContainText('Ingenting sendes før du har sett planen.');
  await checkAccessibility(page, 'contacts-import-nb', { include: '[role="dialog"]' });
  // A file with a quote left open: the reader's problem (a Papa Parse code from its worker) in bokmål.
  const broken = 'Navn,E-post\nKari Nordmann,kari@example.no\n"Ola Nordmann,ola@example.no\n';
  await importer.getByLabel('CSV- eller Excel-fil').setInputFiles({ name: 'ødelagt.csv', mimeType: 'text/csv', buffer: Buffer.from(broken) });
  const warning = importer.getByRole('alert').filter({ hasText: 'Filen har formateringsfeil' });
  await expect(warning).toContainText(/Rad \d: et felt i anførselstegn mangler avsluttende anførselstegn/);
  await importer.getByRole('button', { name: 'Lukk importen' }).click();
  await expect(importer).toHaveCount(0);

  // The Advanced $filter editor words the parser's problem in bokmål, pointing at the character.
  await page.getByRole('button', { name: 'Avansert' }).click();
  // Its rows in bokmål too (issue 34 point 9).
  await expect(page.getByRole('group', { name: 'Vilkår 1' }).getByLabel('Sammenligning')).toHaveValue('eq');
  const editor = page.getByLabel('Filteruttrykk ($filter)');
  await editor.fill("state eqq 'active'");
  await expect(page.getByText('eqq ved tegn 7 passer ikke her')).toBeVisible();
  await editor.fill("bio eq 'x'");
  await expect(page.getByText(/^Du kan ikke filtrere på bio\. Felt du kan filtrere på: id, name, .+ og updated$/)).toBeVisible();
  await expect(page.getByText('Radene viser filteret igjen når teksten er et filter listen kan bruke.')).toBeVisible();
  await editor.fill('');

  // The export menu, with a Norwegian plural, and an export whose notification counts through Intl.
  await page.getByRole('button', { name: 'Eksporter' }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByText('2 kontakter passer')).toBeVisible();
  await expect(menu.getByRole('menuitemradio', { name: 'Synlige kolonner' })).toBeVisible();
  await expect(menu.getByRole('menuitemradio', { name: 'Alle felt' })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Excel (.xlsx)' })).toBeVisible();
  await checkAccessibility(page, 'contacts-export-menu-nb', { include: '[role="menu"]' });
  const download = page.waitForEvent('download');
  await menu.getByRole('menuitem', { name: 'CSV (.csv)' }).click();
  await download;
  await expect(page.getByText(/^2 kontakter er eksportert til .+\.csv\.$/)).toBeVisible();
});
