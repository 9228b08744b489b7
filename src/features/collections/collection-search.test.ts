import { describe, expect, it } from 'vitest';
import { checkFilter } from '@/api/filter/check';
import { collectionFilterFields } from '@/api/filter/fields';
import { printFilter } from '@/api/filter/print';
import { localDayBound } from '@/lib/list-facets';
import { parseSearch } from '@/lib/list-search';
import { CLEAR_COLLECTION_FILTERS, collectionFilter, collectionSearchSchema, isCollectionFiltered } from './collection-search';

const search = (query: string) => parseSearch(collectionSearchSchema, new URLSearchParams(query));
const filterOf = (query: string) => {
  const node = collectionFilter(search(query));
  return node ? printFilter(node) : undefined;
};

describe('collections URL state', () => {
  it('has defaults for a bare URL and sends no filter', () => {
    expect(search('')).toEqual({ page: 1, size: 20, q: '' });
    expect(filterOf('')).toBeUndefined();
  });

  it('drops days that do not exist and keeps the rest', () => {
    expect(search('createdFrom=2026-02-30&createdTo=2026-03-01&size=50')).toEqual({ page: 1, size: 50, q: '', createdTo: '2026-03-01' });
  });

  it('searches titles literally', () => {
    expect(filterOf('q=%20Winter_%20')).toBe("title like 'Winter\\_'");
  });

  it('filters whole local days: from the first millisecond of the first to the last of the last', () => {
    const from = localDayBound('2026-01-01', false);
    const to = localDayBound('2026-01-31', true);
    expect(filterOf('createdFrom=2026-01-01&createdTo=2026-01-31')).toBe(`created between '${from}' and '${to}'`);
    expect(filterOf('updatedFrom=2026-01-01')).toBe(`updated ge '${from}'`);
    expect(filterOf('updatedTo=2026-01-31')).toBe(`updated le '${to}'`);
    expect(new Date(to).getTime() - new Date(localDayBound('2026-01-31', false)).getTime()).toBe(24 * 3600 * 1000 - 1);
  });

  it('joins every facet with and, in a filter GET /collections accepts', () => {
    const node = collectionFilter(search('q=a&createdFrom=2026-01-01&updatedTo=2026-02-01'))!;
    expect(node.kind).toBe('and');
    expect(() => checkFilter(node, collectionFilterFields)).not.toThrow();
    expect(isCollectionFiltered({ ...search('q=a&createdFrom=2026-01-01'), ...CLEAR_COLLECTION_FILTERS })).toBe(false);
  });
});
