import { describe, expect, it } from 'vitest';
import { and, compare, inList } from '@/api/filter/ast';
import { parseFilter } from '@/api/filter/parse';
import { viewSearch } from './saved-views';
import { type ShareSource, isSharedViewShown, sharedNameProblem, sharedViewSearch, viewQueryOf } from './shared-views';

const COLUMNS = ['name', 'email', 'phone', 'state', 'tags', 'city', 'source', 'created'];
const source = (patch: Partial<ShareSource> = {}): ShareSource => ({ resource: 'contacts', filter: undefined, orderBy: [], pageSize: 20, columns: COLUMNS, ...patch });

describe('viewQueryOf', () => {
  it('saves the request the list sends: the filter and order as texts, the page size, the columns shown', () => {
    const filter = and(compare('city', 'eq', 'Oslo'), inList('tags', ['lead']));
    const query = viewQueryOf(source({ filter, orderBy: [{ field: 'name', direction: 'asc' }], pageSize: 50 }), ['city', 'source']);
    expect(query).toEqual({
      filter: "city eq 'Oslo' and tags in ('lead')",
      orderBy: 'name asc',
      columns: ['name', 'email', 'phone', 'state', 'tags', 'created'],
      pageSize: 50,
    });
    expect(parseFilter(query.filter!)).toEqual(filter);
  });

  it('saves no filter and the default order as null', () => {
    expect(viewQueryOf(source(), [])).toEqual({ filter: null, orderBy: null, columns: COLUMNS, pageSize: 20 });
  });
});

describe('sharedViewSearch', () => {
  it('opens a view as the list address: the filter, sort, size and hidden columns, keys sorted', () => {
    const search = sharedViewSearch({ query: { filter: "city eq 'Oslo'", orderBy: 'name asc, created desc', columns: ['name', 'email', 'state'], pageSize: 50 } }, COLUMNS);
    const params = new URLSearchParams(search);
    expect([...params.keys()]).toEqual(['filter', 'hide', 'size', 'sort']);
    expect(params.get('filter')).toBe("city eq 'Oslo'");
    expect(params.get('sort')).toBe('name:asc,created:desc');
    expect(params.get('size')).toBe('50');
    expect(params.get('hide')).toBe('city,created,phone,source,tags');
  });

  it('leaves out the default size, an empty column choice (the list keeps its columns) and an order it cannot read', () => {
    expect(sharedViewSearch({ query: { filter: null, orderBy: null, columns: [], pageSize: 20 } }, COLUMNS)).toBe('');
    expect(sharedViewSearch({ query: { filter: null, orderBy: 'name sideways', columns: COLUMNS, pageSize: 20 } }, COLUMNS)).toBe('');
  });

  it('gives back the address a view was saved from, so the view shows as current there', () => {
    const filter = compare('state', 'eq', 'active');
    const query = viewQueryOf(source({ filter, orderBy: [{ field: 'email', direction: 'desc' }] }), ['phone']);
    const shown = new URLSearchParams({ sort: 'email:desc', filter: "state eq 'active'", page: '2' });
    expect(sharedViewSearch({ query }, COLUMNS)).toBe(viewSearch(shown, ['phone']));
  });
});

describe('sharedNameProblem', () => {
  const views = [
    { viewId: 'a', name: 'Oslo leads' },
    { viewId: 'b', name: 'Pending' },
  ];
  it.each([
    ['', 'missing'],
    ['x'.repeat(101), 'too-long'],
    [' oslo LEADS ', 'taken'],
  ])('refuses %j: %s', (name, problem) => {
    expect(sharedNameProblem(views, name, 100)).toBe(problem);
  });

  it('accepts a new name of up to 100 characters, and a view keeping its own name on a rename', () => {
    expect(sharedNameProblem(views, 'x'.repeat(100), 100)).toBeNull();
    expect(sharedNameProblem(views, 'OSLO LEADS', 100, 'a')).toBeNull();
  });
});

describe('isSharedViewShown', () => {
  const query = { filter: "state eq 'active'", orderBy: 'name asc', columns: ['name', 'email'], pageSize: 20 };
  it('is true when the list requests the same filter, order and size and shows the same columns', () => {
    expect(isSharedViewShown({ query }, viewQueryOf(source({ filter: compare('state', 'eq', 'active'), orderBy: [{ field: 'name', direction: 'asc' }], columns: ['name', 'email', 'city'] }), ['city']))).toBe(true);
  });

  it('is false when any of them differs; a view naming no columns is shown whatever the columns', () => {
    const shown = viewQueryOf(source({ filter: compare('state', 'eq', 'active'), orderBy: [{ field: 'name', direction: 'asc' }], columns: ['name', 'email', 'city'] }), []);
    expect(isSharedViewShown({ query }, shown)).toBe(false);
    expect(isSharedViewShown({ query: { ...query, columns: [] } }, shown)).toBe(true);
    expect(isSharedViewShown({ query: { ...query, columns: [] } }, { ...shown, pageSize: 50 })).toBe(false);
    expect(isSharedViewShown({ query: { ...query, columns: [] } }, { ...shown, filter: null })).toBe(false);
  });
});

describe('sharedViewSearch reading an order', () => {
  it('takes the default direction and any case, as section 6 allows', () => {
    expect(new URLSearchParams(sharedViewSearch({ query: { filter: null, orderBy: 'name,created DESC', columns: [], pageSize: 20 } }, COLUMNS)).get('sort')).toBe('name:asc,created:desc');
  });
});
