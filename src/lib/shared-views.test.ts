import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '@/api/client';
import { and, compare, inList } from '@/api/filter/ast';
import { parseFilter } from '@/api/filter/parse';
import type { SharedView } from '@/api/live';
import { takeOwnWrite } from './live/live-store';
import { viewSearch } from './saved-view-store';
import {
  type ShareSource,
  applyOwnChange,
  createSharedView,
  deleteSharedView,
  isSharedViewShown,
  renameSharedView,
  sharedNameProblem,
  sharedViewQueries,
  sharedViewSearch,
  viewQueryOf,
  withView,
  withoutView,
} from './shared-views';

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

const view = (viewId: string, name: string): SharedView => ({
  viewId,
  name,
  resource: 'contacts',
  query: { filter: null, orderBy: null, columns: [], pageSize: 20 },
  keyHint: null,
  created: '2026-01-01T00:00:00.000Z',
  updated: '2026-01-01T00:00:00.000Z',
});

describe('withView and withoutView', () => {
  it('adds a view in the order GET /views answers (name ignoring case, then id), and applied twice gives the same list', () => {
    const views = [view('1', 'alpha'), view('2', 'Gamma')];
    const added = withView(views, view('3', 'Beta'));
    expect(added.map((one) => one.name)).toEqual(['alpha', 'Beta', 'Gamma']);
    expect(withView(added, view('3', 'Beta'))).toEqual(added);
    expect(withView([view('b', 'same'), view('c', 'other')], view('a', 'Same')).map((one) => one.viewId)).toEqual(['c', 'a', 'b']);
  });

  it('puts a renamed view in place of its old self, in its new place', () => {
    const renamed = withView([view('1', 'alpha'), view('2', 'Beta')], view('1', 'zeta'));
    expect(renamed.map((one) => [one.viewId, one.name])).toEqual([
      ['2', 'Beta'],
      ['1', 'zeta'],
    ]);
  });

  it('removes a view by id, and one already gone changes nothing', () => {
    expect(withoutView([view('1', 'a'), view('2', 'b')], '1')).toEqual([view('2', 'b')]);
    expect(withoutView([view('2', 'b')], '1')).toEqual([view('2', 'b')]);
  });
});

/** A client whose calls of `GET /views` are counted, answering `listed`; the writes answer as the service would. */
function fakeApi(listed: () => SharedView[]) {
  const calls = { list: 0 };
  const api = {
    listViews: async () => {
      calls.list += 1;
      return { items: listed() };
    },
    createView: async (input: { name: string }) => ({ ...view('new', input.name) }),
    replaceView: async (viewId: string, input: { name: string }) => ({ ...view(viewId, input.name) }),
    deleteView: async () => undefined,
  } as unknown as ApiClient;
  return { api, calls };
}

describe("a tab's own change to the shared views", () => {
  const ws = 'ws-own-change';
  const QUERY = { filter: null, orderBy: null, columns: [], pageSize: 20 };

  it('is put into the loaded list from the answer, without GET /views, and marked as its own write', async () => {
    const queryClient = new QueryClient();
    const { api, calls } = fakeApi(() => [view('old', 'Old')]);
    const options = sharedViewQueries.list(api, ws);
    await queryClient.fetchQuery(options);
    expect(calls.list).toBe(1);

    await createSharedView(api, queryClient, ws, ' Newest ', QUERY);
    expect(queryClient.getQueryData(options.queryKey)?.map((one) => one.name)).toEqual(['Newest', 'Old']);
    // Its event, when it comes back, is this tab's own; a second one is not.
    expect(takeOwnWrite(ws, 'new')).toBe(true);
    expect(takeOwnWrite(ws, 'new')).toBe(false);
    await renameSharedView(api, queryClient, ws, view('old', 'Old'), 'Ancient');
    expect(queryClient.getQueryData(options.queryKey)?.map((one) => one.name)).toEqual(['Ancient', 'Newest']);
    await deleteSharedView(api, queryClient, ws, 'new');
    expect(queryClient.getQueryData(options.queryKey)?.map((one) => one.name)).toEqual(['Ancient']);
    expect(calls.list).toBe(1);
    expect(queryClient.getQueryState(options.queryKey)?.isInvalidated).toBe(false);
  });

  it('waits for a load under way and puts the change on its answer', async () => {
    const queryClient = new QueryClient();
    let answer: (items: SharedView[]) => void = () => undefined;
    const api = { listViews: () => new Promise((resolve) => (answer = (items) => resolve({ items }))) } as unknown as ApiClient;
    const options = sharedViewQueries.list(api, ws);
    void queryClient.prefetchQuery(options);
    const applied = applyOwnChange(queryClient, api, ws, 'b', (views) => withView(views, view('b', 'Bravo')));
    answer([view('a', 'Alpha')]);
    await applied;
    expect(queryClient.getQueryData(options.queryKey)?.map((one) => one.name)).toEqual(['Alpha', 'Bravo']);
  });

  it('asks nothing for a list never loaded: it loads when shown', async () => {
    const queryClient = new QueryClient();
    const { api, calls } = fakeApi(() => []);
    await createSharedView(api, queryClient, ws, 'First', QUERY);
    expect(calls.list).toBe(0);
    expect(queryClient.getQueryData(sharedViewQueries.list(api, ws).queryKey)).toBeUndefined();
  });

  it('loads a list whose load failed again, once', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let fail = true;
    const { api, calls } = fakeApi(() => {
      if (fail) throw new Error('offline');
      return [view('new', 'First')];
    });
    const options = sharedViewQueries.list(api, ws);
    const stop = new QueryObserver(queryClient, options).subscribe(() => undefined); // the row on screen
    await expect.poll(() => queryClient.getQueryState(options.queryKey)?.status).toBe('error');
    fail = false;
    await createSharedView(api, queryClient, ws, 'First', QUERY);
    expect(queryClient.getQueryData(options.queryKey)?.map((one) => one.name)).toEqual(['First']);
    expect(calls.list).toBe(2);
    stop();
  });

  it("leaves a list marked stale (by a fresh change stream's reset) stale, with the change in it", async () => {
    const queryClient = new QueryClient();
    const { api, calls } = fakeApi(() => []);
    const options = sharedViewQueries.list(api, ws);
    await queryClient.fetchQuery(options);
    await queryClient.invalidateQueries({ queryKey: options.queryKey, refetchType: 'none' });
    await createSharedView(api, queryClient, ws, 'First', QUERY);
    expect(queryClient.getQueryData(options.queryKey)?.map((one) => one.name)).toEqual(['First']);
    expect(queryClient.getQueryState(options.queryKey)?.isInvalidated).toBe(true);
    expect(calls.list).toBe(1);
  });
});
