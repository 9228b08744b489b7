import { describe, expect, it } from 'vitest';
import type { Product } from '@/api/catalog';
import { decimalExample } from '@/lib/decimal';
import { CANNOT_CLEAR } from '@/lib/form-fields';
import { type ProductFormValues, productFormSchema, productFormValues, toProductUpsert } from './product-form';

const product: Product = {
  id: 'p-1',
  externalId: 'ext-1',
  title: 'Summer Jacket',
  handle: 'summer-jacket',
  bodyHtml: '<p>Warm</p>',
  type: 'Jacket',
  status: 'draft',
  vendor: 'Acme',
  source: 'shop',
  url: 'https://shop.example/jacket',
  imageUrl: 'https://shop.example/jacket.png',
  price: 80,
  originalPrice: 100,
  currency: 'EUR',
  isForSale: true,
  tags: ['outdoor'],
  collections: [{ id: 'c-1', collectionTitle: 'Winter' }],
  customProperties: { size: 'L', weight: 1.2 },
};

/** Parses `values` with the schema for `original`: the body sent, or the messages by field. */
function submit(values: ProductFormValues, original?: Product) {
  const parsed = productFormSchema(original).safeParse(values);
  if (!parsed.success) return { errors: Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message])) };
  return { body: toProductUpsert(parsed.data, original) };
}

describe('the product form', () => {
  it('starts a create blank: active, for sale, in the given currency, the handle to be suggested', () => {
    const values = productFormValues(null, { currency: 'NOK' });
    expect(values).toMatchObject({ title: '', handle: '', handleSuggested: true, status: 'active', isForSale: true, currency: 'NOK', tags: [], collectionIds: [], customProperties: [] });
  });

  it('starts an edit from the row, amounts as text and collections as ids', () => {
    expect(productFormValues(product)).toMatchObject({
      title: 'Summer Jacket', handle: 'summer-jacket', handleSuggested: false, price: '80', originalPrice: '100', currency: 'EUR', collectionIds: ['c-1'],
      customProperties: [{ key: 'size', type: 'text', value: 'L' }, { key: 'weight', type: 'number', value: '1.2' }],
    });
  });

  it('refuses a negative price and a missing title before any request', () => {
    const { errors } = submit({ ...productFormValues(null), title: '  ', price: '-5' });
    expect(errors).toEqual({ title: 'A product needs a title.', price: 'must not be less than 0' });
  });

  it.each([
    ['price', 'abc', `must be a number such as ${decimalExample()}`],
    ['url', 'ftp://x', 'must be an absolute http(s) URL'],
    ['handle', 'Not A Slug', 'must be a lower-case slug of letters, digits and single dashes'],
    ['currency', 'eur', 'must be an ISO 4217 code of three upper-case letters'],
  ] as const)('refuses %s %j with the contract message', (field, value, message) => {
    expect(submit({ ...productFormValues(null), title: 'T', [field]: value }).errors).toEqual({ [field]: message });
  });

  it('leaves a suggested handle to the service on a create, and blank fields out', () => {
    const { body } = submit({ ...productFormValues(null, { currency: 'EUR' }), title: ' Tee ', handle: 'tee', price: '12.5', tags: ['a', 'a'] });
    expect(body).toEqual({ title: 'Tee', status: 'active', price: 12.5, currency: 'EUR', isForSale: true, tags: ['a'], collectionIds: [] });
    expect(body && 'handle' in body && body.handle !== undefined).toBe(false);
  });

  it('sends a handle the user typed', () => {
    const { body } = submit({ ...productFormValues(null), title: 'Tee', handle: 'my-tee', handleSuggested: false });
    expect(body?.handle).toBe('my-tee');
  });

  it('saves an edit with the id and every value of the row', () => {
    const { body } = submit({ ...productFormValues(product), price: '75' }, product);
    expect(body).toEqual({
      id: 'p-1', externalId: 'ext-1', title: 'Summer Jacket', handle: 'summer-jacket', bodyHtml: '<p>Warm</p>', type: 'Jacket', status: 'draft',
      vendor: 'Acme', source: 'shop', url: 'https://shop.example/jacket', imageUrl: 'https://shop.example/jacket.png', price: 75, originalPrice: 100,
      currency: 'EUR', isForSale: true, tags: ['outdoor'], collectionIds: ['c-1'], customProperties: { size: 'L', weight: 1.2 },
    });
  });

  it('clears free text and custom properties on an edit, and refuses to empty what cannot be cleared', () => {
    const cleared = submit({ ...productFormValues(product), vendor: '', bodyHtml: ' ', customProperties: [] }, product);
    expect(cleared.body).toMatchObject({ vendor: '', bodyHtml: '', customProperties: {} });
    expect(submit({ ...productFormValues(product), price: '', url: '', handle: '' }, product).errors).toEqual({ price: CANNOT_CLEAR, url: CANNOT_CLEAR, handle: CANNOT_CLEAR });
  });

  it('sends external collection ids only when given', () => {
    expect(submit({ ...productFormValues(null), title: 'T', externalCollectionIds: ['x-1'] }).body?.externalCollectionIds).toEqual(['x-1']);
  });

  it('puts key-value problems on customProperties', () => {
    const { errors } = submit({ ...productFormValues(null), title: 'T', customProperties: [{ key: 'n', type: 'number', value: 'x' }] });
    expect(errors).toEqual({ customProperties: `n is not a number such as ${decimalExample()}` });
  });
});
