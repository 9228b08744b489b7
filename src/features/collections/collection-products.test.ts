import { describe, expect, it } from 'vitest';
import { checkFilter } from '@/api/filter/check';
import { productFilterFields } from '@/api/filter/fields';
import { printFilter } from '@/api/filter/print';
import { collectionsWith, collectionsWithout, inCollection, lastPageOffset, notInCollection, productsListSearch } from './collection-products';

const product = { id: 'p-1', collections: [{ id: 'c-1', collectionTitle: 'Winter' }, { id: 'c-2', collectionTitle: 'Sale' }] };

describe("a collection's products", () => {
  it('lists them with collectionIds eq, and offers the others by title, in filters GET /products accepts', () => {
    expect(printFilter(inCollection('c-1'))).toBe("collectionIds eq 'c-1'");
    expect(printFilter(notInCollection('c-1', ''))).toBe("collectionIds ne 'c-1'");
    expect(printFilter(notInCollection('c-1', " Ann's 10% "))).toBe("collectionIds ne 'c-1' and title like 'Ann''s 10\\%'");
    for (const node of [inCollection('c-1'), notInCollection('c-1', 'parka')]) expect(() => checkFilter(node, productFilterFields)).not.toThrow();
  });

  it('adds a product to a collection keeping its other collections, and sends nothing when it is in it already', () => {
    expect(collectionsWith(product, 'c-3')).toEqual({ id: 'p-1', collectionIds: ['c-1', 'c-2', 'c-3'] });
    expect(collectionsWith(product, 'c-2')).toBeNull();
    expect(collectionsWith({ id: 'p-2', collections: [] }, 'c-3')).toEqual({ id: 'p-2', collectionIds: ['c-3'] });
  });

  it('removes a product from a collection keeping its other collections, down to none, and sends nothing when it is not in it', () => {
    expect(collectionsWithout(product, 'c-1')).toEqual({ id: 'p-1', collectionIds: ['c-2'] });
    expect(collectionsWithout({ id: 'p-2', collections: [{ id: 'c-3', collectionTitle: null }] }, 'c-3')).toEqual({ id: 'p-2', collectionIds: [] });
    expect(collectionsWithout(product, 'c-3')).toBeNull();
  });

  it('links to the products list filtered by the collection, and steps back a page when a removal empties the last', () => {
    expect(productsListSearch('c 1&x')).toBe('?collection=c+1%26x');
    expect(lastPageOffset(10, 10, 11)).toBe(10);
    expect(lastPageOffset(10, 10, 10)).toBe(0);
    expect(lastPageOffset(20, 10, 0)).toBe(0);
    expect(lastPageOffset(0, 10, 5)).toBe(0);
  });
});
