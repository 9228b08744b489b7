/**
 * Products and collections in bokmål (issue 23): in an nb-NO browser the products page, a new product's drawer
 * (labels, the price in Norwegian format through Intl, the «created» notification), a product's delete
 * confirmation with its Norwegian plural, the collections page and the CSV import's first step read in Norwegian,
 * and a person can use them by the Norwegian names; axe passes on each. Against the real server, in a workspace of
 * its own.
 */
import { randomUUID } from 'node:crypto';
import { checkAccessibility, expect, makeWorkspace, test } from './fixtures';

test.use({ locale: 'nb-NO' });

/** A name no other test uses. */
const unique = (prefix: string) => `${prefix}${randomUUID().replace(/-/g, '').slice(0, 8)}`;

test('the products page, a new product, the collections page and the import read in bokmål and work by their Norwegian names', async ({ page, connect, request }) => {
  const ws = await makeWorkspace('Katalog');
  // One product made through the API, so the list has a row and a count before ours.
  const first = await request.post('/api/products', { headers: { 'x-api-key': ws.key }, data: { title: unique('Ullsokker '), price: 149, currency: 'NOK', status: 'draft' } });
  expect(first.status()).toBe(201);
  await connect(ws.key);
  await expect(page.locator('html')).toHaveAttribute('lang', 'nb');

  await page.goto(`/w/${ws.id}/products`);
  await expect(page.getByRole('heading', { name: 'Produkter', level: 1 })).toBeVisible();
  await expect(page.getByText('1 produkt', { exact: true })).toBeVisible();
  const table = page.getByRole('table', { name: 'Produkter' });
  await expect(table.getByRole('columnheader', { name: 'Pris' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Leverandør' })).toBeVisible();
  // The price in Norwegian format (Intl, nb-NO: `kr 149,00` with a no-break space) and the status in bokmål.
  await expect(table.getByRole('cell', { name: /^(kr\s149,00|149,00\skr)$/ })).toBeVisible();
  await expect(table.getByText('utkast', { exact: true })).toBeVisible();
  const filters = page.getByRole('search', { name: 'Filtrer produkter' });
  await expect(filters.getByLabel('Pris fra')).toBeVisible();
  await expect(filters.getByRole('combobox', { name: 'Status' }).locator('option', { hasText: 'Arkivert' })).toHaveCount(1);
  await checkAccessibility(page, 'catalog-nb-products', { colors: false });

  // A new product, by the Norwegian labels; the price typed with a decimal comma.
  const title = unique('Fjellstøvel ');
  await page.getByRole('button', { name: 'Nytt produkt' }).click();
  const form = page.getByRole('form', { name: 'Nytt produkt' });
  await form.getByRole('textbox', { name: 'Tittel', exact: true }).fill(title);
  await expect(form.getByText('Foreslått ut fra tittelen; tjenesten legger til -2, -3 hvis det allerede er i bruk')).toBeVisible();
  await form.getByRole('textbox', { name: 'Leverandør', exact: true }).fill('Nordfjell');
  await form.getByRole('textbox', { name: 'Pris', exact: true }).fill('1299,5');
  await form.getByRole('textbox', { name: 'Opprinnelig pris', exact: true }).fill('1599');
  await expect(form.getByRole('group', { name: 'Egendefinerte egenskaper' }).getByRole('button', { name: 'Legg til en rad i egendefinerte egenskaper' })).toBeVisible();
  await checkAccessibility(page, 'catalog-nb-new-product', { include: 'form[aria-label="Nytt produkt"]', exclude: 'iframe', colors: false });
  await form.getByRole('button', { name: 'Opprett produktet' }).click();
  await expect(page.getByText('Produktet er opprettet')).toBeVisible();
  await expect(form).toBeHidden();
  await expect(page.getByText('2 produkter', { exact: true })).toBeVisible();
  const row = table.getByRole('row').filter({ hasText: title });
  await expect(row).toContainText(/1\s299,50/);
  await expect(row.getByText('Opprinnelig pris', { exact: false })).toHaveCount(1);

  // Its drawer, then Delete's confirmation worded for one product; cancelled.
  await row.getByRole('link', { name: title }).click();
  const edit = page.getByRole('form', { name: 'Rediger produkt' });
  await expect(edit.getByRole('textbox', { name: 'Pris', exact: true })).toHaveValue('1299,5');
  await edit.getByRole('button', { name: 'Slett produktet …' }).click();
  const confirm = page.getByRole('dialog', { name: `Vil du slette «${title}»?` });
  await expect(confirm).toContainText('Produktet slettes fra arbeidsområdet og fjernes fra kolleksjonene sine.');
  await confirm.getByRole('button', { name: 'Avbryt' }).click();
  await expect(confirm).toBeHidden();
  await edit.getByRole('textbox', { name: 'Leverandør', exact: true }).fill('Nordfjell AS');
  await page.getByRole('button', { name: 'Lukk rediger produkt' }).click();
  await expect(page.getByText('Vil du forkaste endringene?')).toBeVisible();
  await page.getByRole('button', { name: 'Forkast endringene' }).click();
  await expect(edit).toBeHidden();

  // Selecting both rows: the selection bar counts and words the deletion in bokmål's plural.
  await page.getByRole('checkbox', { name: 'Velg alle radene på denne siden' }).check();
  const bar = page.getByRole('region', { name: 'Utvalg' });
  await expect(bar).toContainText('2 valgt');
  await expect(bar.getByRole('button', { name: 'Slett 2 produkter …' })).toBeVisible();
  await bar.getByRole('button', { name: 'Fjern utvalget' }).click();

  // The import's first step.
  await page.getByRole('button', { name: 'Importer CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Importer produkter fra CSV' });
  await expect(dialog.getByRole('heading', { name: '1. Velg en fil' })).toBeVisible();
  await expect(dialog.getByLabel('CSV-fil')).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Last ned en CSV-eksempelfil' })).toBeVisible();
  await checkAccessibility(page, 'catalog-nb-import', { include: '[role="dialog"]' });
  // A file with a bad price: the map step says why in bokmål, and the run button counts rows in bokmål.
  await dialog.getByLabel('CSV-fil').setInputFiles({ name: 'varer.csv', mimeType: 'text/csv', buffer: Buffer.from('externalId,title,price\nsku-1,Lue,"12,5"\nsku-2,Skjerf,abc\n') });
  await expect(dialog.getByRole('heading', { name: '2. Koble kolonnene' })).toBeVisible();
  await expect(dialog.getByText('varer.csv: 2 rader, 3 kolonner.')).toBeVisible();
  await expect(dialog.getByText('Pris: «abc» er ikke et tall (denne kolonnen bruker desimalkomma).')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Importer 2 rader' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Lukk importen' }).click();
  await expect(dialog).toBeHidden();

  // The collections page: heading, empty state and a new collection.
  await page.getByRole('navigation', { name: 'Seksjoner' }).getByRole('link', { name: 'Kolleksjoner' }).click();
  await expect(page.getByRole('heading', { name: 'Kolleksjoner', level: 1 })).toBeVisible();
  await expect(page.getByText('Ingen kolleksjoner ennå.')).toBeVisible();
  await expect(page.getByRole('search', { name: 'Filtrer kolleksjoner' }).getByLabel('Opprettet fra')).toBeVisible();
  await page.getByRole('button', { name: 'Ny kolleksjon' }).click();
  const newCollection = page.getByRole('form', { name: 'Ny kolleksjon' });
  const collection = unique('Vintersalg ');
  await newCollection.getByRole('textbox', { name: 'Tittel', exact: true }).fill(collection);
  await newCollection.getByRole('button', { name: 'Opprett kolleksjonen' }).click();
  await expect(page.getByText('Kolleksjonen er opprettet')).toBeVisible();
  await expect(page.getByText('1 kolleksjon', { exact: true })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Kolleksjoner' }).getByRole('columnheader', { name: 'Opprettet' })).toBeVisible();
  await checkAccessibility(page, 'catalog-nb-collections', { colors: false });
});
