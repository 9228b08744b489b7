/**
 * Numbers in the reader's locale (issue 14 point 6), in nb-NO, de-DE and en-US browser contexts: prices are typed
 * and shown with the locale's separators (`199,5` in nb-NO and de-DE), the price filter reads them the same way,
 * and the CSV import detects each column's decimal separator from its values, saying which in the preview. The
 * nb-NO context sees the screens in bokmål (issue 23), the others in English.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, makeWorkspace, test } from './fixtures';

async function apiProducts(request: APIRequestContext, key: string, filter: string) {
  const response = await request.get(`/api/products?%24filter=${encodeURIComponent(filter)}`, { headers: { 'x-api-key': key } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { items: { title: string; price: number | null; originalPrice: number | null }[] }).items;
}

/** The screen's names in each language (issue 23: an nb-NO browser sees bokmål, de-DE English). */
const ENGLISH = {
  newProduct: 'New product', title: 'Title', price: 'Price', create: 'Create product', created: 'Product created', products: 'Products',
  edit: 'Edit product', filters: 'Filter products', priceFrom: 'Price from', oneMatching: '1 matching product',
};
const BOKMAL = {
  newProduct: 'Nytt produkt', title: 'Tittel', price: 'Pris', create: 'Opprett produktet', created: 'Produktet er opprettet', products: 'Produkter',
  edit: 'Rediger produkt', filters: 'Filtrer produkter', priceFrom: 'Pris fra', oneMatching: '1 produkt passer',
};

const LOCALES = [
  { locale: 'nb-NO', currency: 'NOK', typed: '199,5', shown: '199,50', filter: '199,4', refused: null, words: BOKMAL },
  { locale: 'de-DE', currency: 'EUR', typed: '199,5', shown: '199,50', filter: '199,4', refused: null, words: ENGLISH },
  { locale: 'en-US', currency: 'USD', typed: '199.5', shown: '199.50', filter: '199.4', refused: { text: '199,5', message: 'must be a number such as 1,234.5' }, words: ENGLISH },
] as const;

for (const { locale, currency, typed, shown, filter, refused, words } of LOCALES) {
  test.describe(`in ${locale}`, () => {
    test.use({ locale });

    test(`a price typed as ${typed} is saved as 199.5, shown as ${shown}, and the price filter reads the locale too`, async ({ page, connect, request }) => {
      const ws = await makeWorkspace(`Locale ${locale}`);
      const seeded = await request.post('/api/products', { headers: { 'x-api-key': ws.key }, data: { title: 'Cheap thing', price: 5, currency } });
      expect(seeded.status()).toBe(201);
      await connect(ws.key, { path: 'products' });
      await page.getByRole('button', { name: words.newProduct }).click();
      const form = page.getByRole('form', { name: words.newProduct });
      await form.getByRole('textbox', { name: words.title, exact: true }).fill('Locale lamp');
      const price = form.getByRole('textbox', { name: words.price, exact: true });
      if (refused) {
        await price.fill(refused.text);
        await form.getByRole('button', { name: words.create }).click();
        await expect(form.getByText(refused.message)).toBeVisible();
      }
      await price.fill(typed);
      await form.getByRole('button', { name: words.create }).click();
      await expect(page.getByText(words.created)).toBeVisible();
      const row = page.getByRole('table', { name: words.products }).getByRole('row').filter({ hasText: 'Locale lamp' });
      await expect(row).toContainText(shown);
      expect((await apiProducts(request, ws.key, "title eq 'Locale lamp'"))[0]?.price).toBe(199.5);

      await row.getByRole('link', { name: 'Locale lamp' }).click();
      await expect(page.getByRole('form', { name: words.edit }).getByRole('textbox', { name: words.price, exact: true })).toHaveValue(typed);
      await page.keyboard.press('Escape');

      await page.getByRole('search', { name: words.filters }).getByRole('textbox', { name: words.priceFrom }).fill(filter);
      await expect(page).toHaveURL(/min=199\.4(&|$)/);
      await expect(page.getByText(words.oneMatching, { exact: true })).toBeVisible();
      await expect(page.getByRole('search', { name: words.filters }).getByRole('textbox', { name: words.priceFrom })).toHaveValue(filter);
    });
  });
}

test.describe('the CSV import in nb-NO', () => {
  test.use({ locale: 'nb-NO' });

  test('detects each number column’s decimal separator from its values: 1,299.00 and 1.299,00 both import as 1299', async ({ page, connect, request }) => {
    const ws = await makeWorkspace('Locale import');
    await connect(ws.key, { path: 'products' });
    await page.getByRole('button', { name: 'Importer CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importer produkter fra CSV' });
    const csv = ['externalId,title,price,originalPrice', 'loc-1,Kettle,"1,299.00","1.299,00"', 'loc-2,Cup,12.5,"12,5"', 'loc-3,Tray,7,8'].join('\r\n');
    await dialog.getByLabel('CSV-fil').setInputFiles({ name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const formats = dialog.getByRole('group', { name: 'Tallformater' });
    await expect(formats).toContainText('Pris: desimalpunktum (1,299.00)');
    await expect(formats).toContainText('Opprinnelig pris: desimalkomma (1.299,00)');
    await dialog.getByRole('button', { name: 'Importer 3 rader' }).click();
    // The import runs as a background job (issue 20): its rows reach the service while the person goes on.
    await expect.poll(async () => (await apiProducts(request, ws.key, "externalId like 'loc-%'")).length, { timeout: 60_000 }).toBe(3);
    const items = await apiProducts(request, ws.key, "externalId like 'loc-%'");
    expect(items.map(({ title, price, originalPrice }) => [title, price, originalPrice]).sort()).toEqual([
      ['Cup', 12.5, 12.5],
      ['Kettle', 1299, 1299],
      ['Tray', 7, 8],
    ]);
  });
});
