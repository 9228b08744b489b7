import { describe, expect, it } from 'vitest';
import { printFilter } from '@/api/filter/print';
import { parseFilter } from '@/api/filter/parse';
import { POSTS_SEARCH_DEFAULTS, maxReachablePage, parsePostsSearch, postsFilter, postsSearchParams, reachableCount } from './posts-search';
import { literalLike } from '@/api/filter/ast';
import { contactSearchFilter } from './queries';

describe('posts page URL state', () => {
  it('falls back to the defaults for a bad URL', () => {
    expect(parsePostsSearch(new URLSearchParams('page=abc&size=7&sort=sideways&from=yesterday&to=2026-13-45&tab=nope&limit=99'))).toEqual(POSTS_SEARCH_DEFAULTS);
  });

  it('round-trips a search through the URL, leaving defaults out', () => {
    const search = { ...POSTS_SEARCH_DEFAULTS, page: 3, size: 30 as const, sort: 'most-claps' as const, q: "it's", from: '2026-01-01', tab: 'public' as const, limit: 5 };
    const params = postsSearchParams(search);
    expect(params.toString()).toBe('page=3&size=30&sort=most-claps&q=it%27s&from=2026-01-01&tab=public&limit=5');
    expect(parsePostsSearch(params)).toEqual(search);
    expect(postsSearchParams(POSTS_SEARCH_DEFAULTS).toString()).toBe('');
  });

  it.each([
    [10, 11, 110],
    [20, 6, 120],
    [30, 4, 120],
  ])('with %i a page reaches page %i and %i posts within $offset 100', (size, page, count) => {
    expect(maxReachablePage(size)).toBe(page);
    expect((maxReachablePage(size) - 1) * size).toBeLessThanOrEqual(100);
    expect(reachableCount(size)).toBe(count);
  });

  it('builds the $filter from the AST: header or text like the words, and the local days of the range', () => {
    expect(postsFilter({ q: '', from: '', to: '' })).toBeUndefined();
    const text = printFilter(postsFilter({ q: '50%_off', from: '', to: '' })!);
    expect(text).toBe("text like '50\\%\\_off' or header like '50\\%\\_off'");
    expect(parseFilter(text)).toEqual(postsFilter({ q: '50%_off', from: '', to: '' }));
    const range = postsFilter({ q: '', from: '2026-03-01', to: '2026-03-31' });
    expect(range).toEqual({ kind: 'between', field: 'publishedDate', low: new Date(2026, 2, 1).toISOString(), high: new Date(2026, 2, 31, 23, 59, 59, 999).toISOString() });
    expect(postsFilter({ q: '', from: '2026-03-31', to: '2026-03-01' })).toBeUndefined();
  });

  it('searches contacts by name or email, matching the typed text literally', () => {
    expect(literalLike(' a_b ')).toBe('a\\_b');
    expect(printFilter(contactSearchFilter('ann')!)).toBe("name like 'ann' or email like 'ann'");
    expect(contactSearchFilter('  ')).toBeUndefined();
  });
});
