/**
 * Query strings and URL paths of the typed client: `$`-parameters percent-encoded, ASTs printed by the shared
 * printers, strings passed through, undefined parameters omitted, path parameters encoded.
 */
import { describe, expect, it } from 'vitest';
import { and, compare, inList } from './filter/ast';
import { parseFilter } from './filter/parse';
import { buildQueryString, filterText, listQueryString, orderByText } from './query-string';
import { joinUrl, pathSegment } from './url';

describe('buildQueryString', () => {
  it.each([
    [{}, ''],
    [{ a: undefined, b: null }, ''],
    [{ $limit: 5 }, '?%24limit=5'],
    [{ $filter: "name eq 'a&b#c%d'" }, "?%24filter=name%20eq%20'a%26b%23c%25d'"],
    [{ limit: 10, flag: true }, '?limit=10&flag=true'],
    [{ q: 'Zoë 🎉+=' }, '?q=Zo%C3%AB%20%F0%9F%8E%89%2B%3D'],
  ])('builds %j as %s', (params, expected) => {
    expect(buildQueryString(params)).toBe(expected);
  });
});

describe('listQueryString', () => {
  it('sends $offset, $limit, $filter, $orderBy in that order, printed from trees', () => {
    const query = listQueryString({
      offset: 20,
      limit: 10,
      filter: and(compare('state', 'eq', 'active'), inList('tags', ["o'k", 'vip'])),
      orderBy: [{ field: 'name', direction: 'asc' }, { field: 'created', direction: 'desc' }],
    });
    expect(query).toBe("?%24offset=20&%24limit=10&%24filter=state%20eq%20'active'%20and%20tags%20in%20('o''k'%2C%20'vip')&%24orderBy=name%20asc%2C%20created%20desc");
    const filter = new URLSearchParams(query).get('$filter');
    expect(parseFilter(filter ?? '')).toEqual(and(compare('state', 'eq', 'active'), inList('tags', ["o'k", 'vip'])));
  });

  it('passes strings through as typed and omits what is undefined, blank or empty', () => {
    expect(listQueryString({ filter: "name  EQ 'x'", orderBy: 'name DESC' })).toBe("?%24filter=name%20%20EQ%20'x'&%24orderBy=name%20DESC");
    expect(listQueryString({})).toBe('');
    expect(listQueryString({ filter: '   ', orderBy: [] })).toBe('');
    expect(listQueryString({ offset: 0 })).toBe('?%24offset=0');
  });

  it('throws RangeError for trees the printers cannot express', () => {
    expect(() => filterText(compare('bad field', 'eq', 1))).toThrow(RangeError);
    expect(() => orderByText([{ field: 'na-me', direction: 'asc' }])).toThrow(RangeError);
  });
});

describe('joinUrl and pathSegment', () => {
  it.each([
    ['http://127.0.0.1:8080/api', '/contacts', 'http://127.0.0.1:8080/api/contacts'],
    ['http://127.0.0.1:8080/api/', '/contacts', 'http://127.0.0.1:8080/api/contacts'],
    ['/api', '/contacts', '/api/contacts'],
    ['/api//', 'contacts', '/api/contacts'],
    ['', '/contacts', '/contacts'],
  ])('joins %s and %s as %s', (base, path, expected) => {
    expect(joinUrl(base, path)).toBe(expected);
  });

  it('appends the query string', () => {
    expect(joinUrl('/api', '/posts', '?%24limit=5')).toBe('/api/posts?%24limit=5');
  });

  it('encodes path parameters and refuses dot segments and empty ones', () => {
    expect(pathSegment('a/b?c#d%e f')).toBe('a%2Fb%3Fc%23d%25e%20f');
    expect(pathSegment('3f1c…')).toBe('3f1c%E2%80%A6');
    expect(pathSegment('...')).toBe('...');
    for (const bad of ['', '.', '..']) expect(() => pathSegment(bad)).toThrow(RangeError);
  });
});
