import { describe, expect, it } from 'vitest';
import { checkFilter } from '@/api/filter/check';
import { productFilterFields } from '@/api/filter/fields';
import { printFilter } from '@/api/filter/print';
import { parseSearch } from '@/lib/list-search';
import { CLEAR_PRODUCT_FILTERS, isProductFiltered, productFilter, productSearchSchema } from './product-search';

const search = (query: string) => parseSearch(productSearchSchema, new URLSearchParams(query));
const filterOf = (query: string) => {
  const node = productFilter(search(query));
  return node ? printFilter(node) : undefined;
};

describe('products URL state', () => {
  it('has defaults for a bare URL and sends no filter', () => {
    expect(search('')).toEqual({ page: 1, size: 20, q: '', type: '', vendor: '', tags: [] });
    expect(filterOf('')).toBeUndefined();
    expect(isProductFiltered(search(''))).toBe(false);
  });

  it('falls back to defaults for malformed values, keeping the good ones', () => {
    expect(search('page=-3&size=7&status=sold&min=abc&max=-1&q=tee')).toEqual({ page: 1, size: 20, q: 'tee', type: '', vendor: '', tags: [] });
  });

  it.each([
    ['q=Summer%20tee', "title like 'Summer tee'"],
    ['q=50%25_off', "title like '50\\%\\_off'"],
    ['status=draft', "status eq 'draft'"],
    ['type=Shirt&vendor=Acme', "type like 'Shirt' and vendor like 'Acme'"],
    ['min=10&max=20.5', 'price between 10 and 20.5'],
    ['min=10', 'price ge 10'],
    ['max=0', 'price le 0'],
    ['collection=c-1', "collectionIds eq 'c-1'"],
    ['tags=a,b,,a', "tags in ('a', 'b')"],
  ])('%s filters by %s', (query, filter) => {
    expect(filterOf(query)).toBe(filter);
  });

  it('joins every facet with and, in a filter GET /products accepts', () => {
    const node = productFilter(search('q=tee&status=active&type=t&vendor=v&min=1&max=2&collection=c&tags=x'))!;
    expect(printFilter(node)).toBe("title like 'tee' and status eq 'active' and type like 't' and vendor like 'v' and price between 1 and 2 and collectionIds eq 'c' and tags in ('x')");
    expect(() => checkFilter(node, productFilterFields)).not.toThrow();
  });

  it('clears every facet', () => {
    const cleared = { ...search('q=tee&status=active&type=t&vendor=v&min=1&max=2&collection=c&tags=x'), ...CLEAR_PRODUCT_FILTERS };
    expect(isProductFiltered(cleared)).toBe(false);
  });
});
