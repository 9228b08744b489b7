import { beforeAll, describe, expect, it } from 'vitest';
import { checkFilter } from '@/api/filter/check';
import { contactFilterFields, postFilterFields, productFilterFields } from '@/api/filter/fields';
import { parseFilter } from '@/api/filter/parse';
import { printFilter } from '@/api/filter/print';
import { contactSearchSchema } from '@/features/contacts/list/contact-search';
import { loadFilterParser } from '@/features/contacts/list/filter-parser';
import { parseSearch } from '@/lib/list-search';
import {
  collectionProductsHref, contactsListHref, daysBefore, forSaleFilter, inCollectionFilter, publishedSinceFilter, stateFilter, tagFilter, weekFilter,
} from './figures';
import { weekBuckets } from './week-buckets';

const week = { start: new Date('2026-11-23T00:00:00.000Z'), end: new Date('2026-11-30T00:00:00.000Z') };

// The contacts schema reads `filter` with the parser it loads on demand.
beforeAll(async () => {
  await loadFilterParser();
});

describe('the overview\'s filters', () => {
  it('asks for a week as a half-open range of created instants', () => {
    expect(printFilter(weekFilter(week))).toBe("created ge '2026-11-23T00:00:00.000Z' and created lt '2026-11-30T00:00:00.000Z'");
  });

  it('prints filters the shared parser and the field checks accept', () => {
    for (const node of [stateFilter('active'), weekFilter(week), tagFilter("o'reilly"), ...weekBuckets(new Date()).map(weekFilter)]) {
      expect(() => checkFilter(parseFilter(printFilter(node)), contactFilterFields)).not.toThrow();
    }
    expect(() => checkFilter(parseFilter(printFilter(publishedSinceFilter(daysBefore(new Date(), 30)))), postFilterFields)).not.toThrow();
    for (const node of [forSaleFilter(true), forSaleFilter(false), inCollectionFilter('col_1')]) {
      expect(() => checkFilter(parseFilter(printFilter(node)), productFilterFields)).not.toThrow();
    }
    expect(printFilter(tagFilter("o'reilly"))).toBe("tags eq 'o''reilly'");
  });

  it('links a figure to the contacts list the contacts page reads back as the same filter', () => {
    const href = contactsListHref('ws 1', weekFilter(week));
    const url = new URL(href, 'http://console');
    expect(url.pathname).toBe('/w/ws%201/contacts');
    const search = parseSearch(contactSearchSchema, url.searchParams);
    expect(search.filter).toBe(printFilter(weekFilter(week)));
    expect(parseSearch(contactSearchSchema, new URL(contactsListHref('w', tagFilter('a&b=c')), 'http://c').searchParams).filter).toBe("tags eq 'a&b=c'");
  });

  it('counts 30 days back in whole days of 24 hours', () => {
    expect(daysBefore(new Date('2026-11-25T16:40:00Z'), 30).toISOString()).toBe('2026-10-26T16:40:00.000Z');
  });

  it('links a collection to the products list narrowed to it', () => {
    expect(collectionProductsHref('w1', 'c/1')).toBe('/w/w1/products?collection=c%2F1');
  });
});
