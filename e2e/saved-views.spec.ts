/**
 * Saved views (issue 14 point 7): the current filters, sort and columns of a list saved under a name, kept per
 * workspace on this device, listed on the page, opened in one click, renamed and deleted; a view is also its URL.
 * The same component serves every list page with filters.
 *
 * Shared views (issue 36 point 8, docs/decisions.md section 13): a contacts view shared with the workspace in one
 * browser shows in a fresh one, marked shared with the key that made it, and opens there; read-write keys rename and
 * delete it, a read-only key sees and opens it but cannot change it; a service without `shared-views` offers no
 * sharing and asks nothing. A `GET /views` that fails says so in the row, with a Retry; the tab that shares, renames
 * or deletes a view sends at most one `GET /views` for each change, and another tab follows with at most one.
 */
import type { Browser, Page, Request } from '@playwright/test';
import { checkAccessibility, expect, hideExtensions, makeWorkspace, test } from './fixtures';
import { apiCall, cli } from './server';
import { readState } from './state';

const views = (page: Page) => page.getByRole('group', { name: 'Saved views' });

async function saveView(page: Page, name: string) {
  await views(page).getByRole('button', { name: 'Save view' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save the current view' });
  await dialog.getByRole('textbox', { name: 'View name' }).fill(name);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  return dialog;
}

async function viewAction(page: Page, view: string, action: 'Rename' | 'Copy link' | 'Delete') {
  await views(page).getByRole('button', { name: `Options of the view ${view}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

test('saves the filters, sort and columns of the contacts list as a named view, opens it in one click and by its URL, renames and deletes it, per workspace', async ({ page, state, connect, context }) => {
  const [nordic, lisbon] = state.demo.workspaces;
  await connect(lisbon!.key);
  await connect(nordic!.key);
  const table = page.getByRole('table', { name: 'Contacts' });
  await page.goto(`/w/${nordic!.id}/contacts?sort=name%3Aasc&state=active`);
  await expect(page.getByText(/matching contacts/)).toBeVisible();
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('checkbox', { name: 'City' }).uncheck();
  await checkAccessibility(page, 'column-menu', { include: '[role="dialog"]' });
  await page.keyboard.press('Escape');
  await expect(table.getByRole('columnheader', { name: 'City' })).toHaveCount(0);

  const dialog = await saveView(page, 'Active by name');
  await expect(dialog).toBeHidden();
  const link = views(page).getByRole('link', { name: 'Active by name' });
  await expect(link).toHaveAttribute('aria-current', 'true');
  await expect(link).toHaveAttribute('href', `/w/${nordic!.id}/contacts?hide=city&sort=name%3Aasc&state=active`);

  // Somewhere else, with the column back, one click on the view brings back its filters, sort and columns. (The
  // sidebar's link would bring the list back as it was left, issue 19: the plain list is opened by its address.)
  await page.goto(`/w/${nordic!.id}/contacts`);
  await expect(page.getByText('2,000 contacts')).toBeVisible();
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('checkbox', { name: 'City' }).check();
  await page.keyboard.press('Escape');
  await expect(link).not.toHaveAttribute('aria-current', 'true');
  await link.click();
  await expect(page).toHaveURL(/\/contacts\?sort=name%3Aasc&state=active$/);
  await expect(page.getByText(/matching contacts/)).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'City' })).toHaveCount(0);
  await expect(link).toHaveAttribute('aria-current', 'true');

  // The view is its URL: opened in another tab, it shows the same list.
  const other = await context.newPage();
  await other.goto(`/w/${nordic!.id}/contacts`);
  await other.getByRole('button', { name: 'Columns' }).click();
  await other.getByRole('checkbox', { name: 'City' }).check();
  await other.keyboard.press('Escape');
  await other.goto((await link.getAttribute('href'))!);
  await expect(other).toHaveURL(/\/contacts\?sort=name%3Aasc&state=active$/);
  await expect(other.getByRole('table', { name: 'Contacts' }).getByRole('columnheader', { name: 'City' })).toHaveCount(0);
  await expect(views(other).getByRole('link', { name: 'Active by name' })).toHaveAttribute('aria-current', 'true');
  await other.close();

  // Rename; a name taken by another view is refused.
  await viewAction(page, 'Active by name', 'Rename');
  const rename = page.getByRole('dialog', { name: 'Rename the view Active by name' });
  await rename.getByRole('textbox', { name: 'View name' }).fill('Active A to Z');
  await rename.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(views(page).getByRole('link', { name: 'Active A to Z' })).toBeVisible();
  const taken = await saveView(page, 'active a to z');
  await expect(taken.getByText('A view named active a to z already exists')).toBeVisible();
  await checkAccessibility(page, 'saved-views');
  await taken.getByRole('button', { name: 'Cancel' }).click();

  // Kept on this device: still there after a reload; but another workspace has views of its own.
  await page.reload();
  await expect(views(page).getByRole('link', { name: 'Active A to Z' })).toBeVisible();
  await page.goto(`/w/${lisbon!.id}/contacts`);
  await expect(views(page).getByRole('button', { name: 'Save view' })).toBeVisible();
  await expect(views(page).getByRole('link')).toHaveCount(0);

  await page.goto(`/w/${nordic!.id}/contacts`);
  await views(page).getByRole('button', { name: 'Options of the view Active A to Z' }).click();
  await checkAccessibility(page, 'saved-view-menu', { include: '[role="menu"]' });
  await page.keyboard.press('Escape');
  await viewAction(page, 'Active A to Z', 'Delete');
  await expect(views(page).getByRole('link')).toHaveCount(0);
  expect(await page.evaluate((id) => localStorage.getItem(`workspace-admin.views.${id}.contacts`), nordic!.id)).toBeNull();
});

test('every other list page with filters saves and opens views: products, collections, posts and workspaces', async ({ page, state, connect }) => {
  const nordic = state.demo.workspaces[0]!;
  await connect(nordic.key);
  const pages = [
    { section: 'products', heading: 'Products', search: 'status=draft' },
    { section: 'collections', heading: 'Collections', search: 'q=a' },
    { section: 'posts', heading: 'Posts', search: 'sort=most-claps' },
    { section: 'workspaces', heading: 'Workspaces', search: 'q=o' },
  ];
  for (const { section, heading, search } of pages) {
    await page.goto(`/w/${nordic.id}/${section}?${search}`);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await saveView(page, `My ${section}`);
    await page.goto(`/w/${nordic.id}/${section}`); // the plain list (the sidebar would restore the list as it was left)
    await expect(page).toHaveURL(new RegExp(`/${section}$`));
    await views(page).getByRole('link', { name: `My ${section}` }).click();
    await expect(page, section).toHaveURL(new RegExp(`/${section}\\?${search}$`));
  }
});

/** The key hint the service records for `key` (docs/live.md: `…` and its last four characters). */
const hintOf = (key: string) => `…${key.slice(-4)}`;

/** A page of a new browser context (another person's browser, nothing kept from this one), connected with `key` on Contacts. */
async function otherBrowser(browser: Browser, key: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: readState().baseURL, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto('/connect');
  await page.getByLabel('API key', { exact: true }).fill(key);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  // Our service names `stats`: connecting lands on the overview (issue 35 point 5).
  await expect(page).toHaveURL(/\/w\/[^/?]+$/);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Contacts' }).click();
  await expect(page).toHaveURL(/\/w\/[^/]+\/contacts/);
  return page;
}

async function sharedAction(page: Page, view: string, action: 'Rename' | 'Delete') {
  await views(page).getByRole('button', { name: `Options of the shared view ${view}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

test('a view shared with the workspace in one browser opens in a fresh one, marked shared by its maker; read-write keys rename and delete it, a read-only key cannot', async ({ page, connect, browser }) => {
  // Three browsers, each connecting and loading its first screen, on a shared 2-core machine.
  test.setTimeout(180_000);
  const ws = await makeWorkspace('Shared views');
  const { databaseUrl, baseURL } = readState();
  const colleague = cli<{ key: string }>(databaseUrl, 'key', 'create', '--workspace', ws.id, '--scope', 'all').key;
  const reader = cli<{ key: string }>(databaseUrl, 'key', 'create', '--workspace', ws.id, '--scope', 'contacts:read-only').key;
  for (const [name, city] of [['Berit Oslo', 'Oslo'], ['Anders Oslo', 'Oslo'], ['Carl Bergen', 'Bergen']] as const) {
    const { status } = await apiCall(baseURL, ws.key, 'POST', '/contacts', { addDirectly: true, name, email: `${name.split(' ')[0]!.toLowerCase()}@shared.test`, city });
    expect(status).toBe(201);
  }

  // First browser: the Oslo contacts by name without the phone column, shared with the workspace.
  await connect(ws.key, { path: 'contacts?city=Oslo&sort=name%3Aasc' });
  const table = page.getByRole('table', { name: 'Contacts' });
  await expect(page.getByText('2 matching contacts')).toBeVisible();
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('checkbox', { name: 'Phone' }).uncheck();
  await page.keyboard.press('Escape');
  await views(page).getByRole('button', { name: 'Save view' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save the current view' });
  await dialog.getByRole('textbox', { name: 'View name' }).fill('Oslo leads');
  const share = dialog.getByRole('checkbox', { name: 'Share with the workspace' });
  await expect(share).toBeEnabled();
  await share.check();
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog).toBeHidden();
  const link = views(page).getByRole('link', { name: 'Oslo leads' });
  await expect(link).toHaveAccessibleDescription(`Shared by ${hintOf(ws.key)}`);
  await expect(link).toHaveAttribute('aria-current', 'true');
  // Kept by the service, not on this device.
  expect(await page.evaluate((id) => localStorage.getItem(`workspace-admin.views.${id}.contacts`), ws.id)).toBeNull();
  const stored = await apiCall(baseURL, colleague, 'GET', '/views');
  expect(stored.body.items).toMatchObject([{ name: 'Oslo leads', resource: 'contacts', keyHint: hintOf(ws.key), query: { orderBy: 'name asc', pageSize: 20 } }]);
  expect(stored.body.items[0].query.columns).not.toContain('phone');
  await checkAccessibility(page, 'shared-views');

  // A fresh browser with a colleague's key: the view is there, marked shared by the first key, and applies.
  const second = await otherBrowser(browser, colleague);
  const secondLink = views(second).getByRole('link', { name: 'Oslo leads' });
  // The row loads at the first interaction (connecting was one), then asks `GET /views` once.
  await expect(secondLink).toBeVisible({ timeout: 30_000 });
  await expect(secondLink).toHaveAccessibleDescription(`Shared by ${hintOf(ws.key)}`);
  await expect(views(second).getByText(`Shared by ${hintOf(ws.key)}`)).toBeVisible();
  await expect(second.getByText('3 contacts', { exact: true })).toBeVisible();
  await expect(secondLink).not.toHaveAttribute('aria-current', 'true');
  await secondLink.click();
  await expect(second).toHaveURL(/\/contacts\?filter=[^&]*Oslo[^&]*&sort=name%3Aasc$/);
  await expect(second.getByText('2 matching contacts')).toBeVisible();
  const secondTable = second.getByRole('table', { name: 'Contacts' });
  await expect(secondTable.locator('tbody tr').first()).toContainText('Anders Oslo');
  await expect(secondTable.getByText('Carl Bergen')).toHaveCount(0);
  await expect(secondTable.getByRole('columnheader', { name: 'Phone' })).toHaveCount(0);
  await expect(secondLink).toHaveAttribute('aria-current', 'true');

  // The colleague renames it for everyone; the first browser follows (the change stream, or its next load).
  await sharedAction(second, 'Oslo leads', 'Rename');
  const rename = second.getByRole('dialog', { name: 'Rename the view Oslo leads' });
  await rename.getByRole('textbox', { name: 'View name' }).fill('Oslo team');
  await rename.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(rename).toBeHidden();
  await expect(views(second).getByRole('link', { name: 'Oslo team' })).toHaveAccessibleDescription(`Shared by ${hintOf(ws.key)}`);
  await expect(views(page).getByRole('link', { name: 'Oslo team' })).toBeVisible({ timeout: 20_000 });
  await expect(table.getByRole('columnheader', { name: 'Phone' })).toHaveCount(0);

  // A read-only key sees and opens it, but cannot share, rename or delete: the controls are disabled and say why.
  const third = await otherBrowser(browser, reader);
  const why = 'Only a key with contacts:read-write can share, rename or delete shared views.';
  await views(third).getByRole('link', { name: 'Oslo team' }).click({ timeout: 30_000 });
  await expect(third.getByText('2 matching contacts')).toBeVisible();
  await views(third).getByRole('button', { name: 'Options of the shared view Oslo team' }).click();
  await expect(third.getByRole('menuitem', { name: 'Rename' })).toBeDisabled();
  await expect(third.getByRole('menuitem', { name: 'Delete' })).toBeDisabled();
  await expect(third.getByRole('menuitem', { name: 'Copy link' })).toBeEnabled();
  await expect(third.getByRole('menu').getByText(why)).toBeVisible();
  await checkAccessibility(third, 'shared-view-menu-read-only', { include: '[role="menu"]' });
  await third.keyboard.press('Escape');
  await views(third).getByRole('button', { name: 'Save view' }).click();
  const readerDialog = third.getByRole('dialog', { name: 'Save the current view' });
  await expect(readerDialog.getByRole('checkbox', { name: 'Share with the workspace' })).toBeDisabled();
  await expect(readerDialog.getByRole('checkbox', { name: 'Share with the workspace' })).toHaveAccessibleDescription(why);
  // Its personal views still work.
  await readerDialog.getByRole('textbox', { name: 'View name' }).fill('Mine only');
  await readerDialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(views(third).getByRole('link', { name: 'Mine only' })).toBeVisible();
  await expect(views(second).getByRole('link', { name: 'Mine only' })).toHaveCount(0);

  // The colleague deletes it, after a confirmation; it goes for everyone.
  await sharedAction(second, 'Oslo team', 'Delete');
  const confirm = second.getByRole('dialog', { name: 'Delete the shared view Oslo team?' });
  await expect(confirm).toContainText('It goes for everyone in the workspace');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toBeHidden();
  await expect(views(second).getByRole('link', { name: 'Oslo team' })).toHaveCount(0);
  await expect(views(page).getByRole('link', { name: 'Oslo team' })).toHaveCount(0, { timeout: 20_000 });
  expect((await apiCall(baseURL, ws.key, 'GET', '/views')).body.items).toEqual([]);
  await second.context().close();
  await third.context().close();
});

test('against a service without shared views, saving offers no sharing, nothing asks for them, and personal views work', async ({ page, context, connect }) => {
  const ws = await makeWorkspace('No shared views');
  const { baseURL } = readState();
  // The service has one, but the console is told the service keeps none.
  expect((await apiCall(baseURL, ws.key, 'POST', '/views', { name: 'Hidden from the console', query: { filter: "state eq 'active'" } })).status).toBe(201);
  await hideExtensions(context, ['shared-views']);
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/views')) asked.push(request.url());
  });
  await connect(ws.key, { path: 'contacts?state=active' });
  const dialog = await (async () => {
    await views(page).getByRole('button', { name: 'Save view' }).click();
    return page.getByRole('dialog', { name: 'Save the current view' });
  })();
  await expect(dialog.getByRole('textbox', { name: 'View name' })).toBeVisible();
  await expect(dialog.getByRole('checkbox', { name: 'Share with the workspace' })).toHaveCount(0);
  await dialog.getByRole('textbox', { name: 'View name' }).fill('Active here');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog).toBeHidden();
  const link = views(page).getByRole('link', { name: 'Active here' });
  await expect(link).toHaveAttribute('aria-current', 'true');
  await expect(link).not.toHaveAttribute('aria-describedby');
  await expect(views(page).getByRole('link', { name: 'Hidden from the console' })).toHaveCount(0);
  await expect(views(page).getByText(/^Shared/)).toHaveCount(0);
  expect(await page.evaluate((id) => localStorage.getItem(`workspace-admin.views.${id}.contacts`), ws.id)).toContain('Active here');
  expect(asked).toEqual([]);
});

/** Whether `request` is a `GET /views` (docs/decisions.md section 13). */
const isViewsGet = (request: Request) => request.method() === 'GET' && new URL(request.url()).pathname === '/api/views';

test('a failed GET /views says so in the saved views row, and Retry loads the shared views once the service answers', async ({ page, connect }) => {
  const ws = await makeWorkspace('Views not loaded');
  const { baseURL } = readState();
  expect((await apiCall(baseURL, ws.key, 'POST', '/views', { name: 'Active people', query: { filter: "state eq 'active'" } })).status).toBe(201);
  expect((await apiCall(baseURL, ws.key, 'POST', '/contacts', { addDirectly: true, name: 'Ola Views', email: 'ola@views.test' })).status).toBe(201);
  // The browser's GET /views fails (the first attempt and the console's two retries); the rest goes to the real service.
  let refused = 0;
  await page.route('**/api/views*', async (route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    refused += 1;
    await route.fulfill({ status: 500, json: { traceId: 'e2e', message: 'Internal server error', path: '/api/views', timestamp: new Date().toISOString(), statusCode: 500 } });
  });
  await connect(ws.key);
  await expect(page.getByText('1 contact', { exact: true })).toBeVisible();
  await page.mouse.move(10, 10); // the first interaction loads the row (a stand-in until then)
  await page.mouse.move(20, 20);
  const notLoaded = views(page).getByRole('alert');
  await expect(notLoaded).toHaveText('Shared views could not be loaded', { timeout: 20_000 });
  expect(refused).toBeGreaterThan(0);
  await expect(views(page).getByRole('link', { name: 'Active people' })).toHaveCount(0);
  // The personal views still work beside it.
  await expect(views(page).getByRole('button', { name: 'Save view' })).toBeEnabled();
  await checkAccessibility(page, 'shared-views-not-loaded');

  await page.unroute('**/api/views*');
  const retried: string[] = [];
  page.on('request', (request) => {
    if (isViewsGet(request)) retried.push(request.url());
  });
  await views(page).getByRole('button', { name: 'Retry' }).click();
  await expect(views(page).getByRole('link', { name: 'Active people' })).toBeVisible();
  await expect(notLoaded).toHaveCount(0);
  expect(retried).toHaveLength(1);
});

test('in Norwegian, the row says the shared views could not be loaded and offers to try again', async ({ browser }) => {
  const ws = await makeWorkspace('Views not loaded nb');
  const { baseURL } = readState();
  expect((await apiCall(baseURL, ws.key, 'POST', '/contacts', { addDirectly: true, name: 'Kari Visning', email: 'kari@views.test' })).status).toBe(201);
  const context = await browser.newContext({ baseURL, locale: 'nb-NO', reducedMotion: 'reduce' });
  try {
    const page = await context.newPage();
    await page.route('**/api/views*', (route) => (route.request().method() === 'GET' ? route.abort('failed') : route.fallback()));
    await page.goto('/connect');
    await page.getByLabel('API-nøkkel', { exact: true }).fill(ws.key);
    await page.getByRole('button', { name: 'Koble til', exact: true }).click();
    await expect(page).toHaveURL(/\/w\/[^/?]+$/);
    await page.getByRole('navigation', { name: 'Seksjoner' }).getByRole('link', { name: 'Kontakter' }).click();
    const row = page.getByRole('group', { name: 'Lagrede visninger' });
    await expect(row.getByRole('alert')).toHaveText('Delte visninger kunne ikke lastes inn', { timeout: 20_000 });
    await expect(row.getByRole('button', { name: 'Prøv igjen' })).toBeVisible();
  } finally {
    await context.close();
  }
});

/**
 * The `view` changes the service's change stream (`GET /events`, docs/decisions.md section 13) sends for `key`'s
 * workspace, read by the test itself (as the console's stream would get them): `seen(action)` counts those of that
 * action so far; `close` ends the stream.
 */
async function watchViewChanges(baseURL: string, key: string): Promise<{ seen: (action: string) => number; close: () => void }> {
  const controller = new AbortController();
  const response = await fetch(`${baseURL}/api/events`, { headers: { 'x-api-key': key, accept: 'text/event-stream' }, signal: controller.signal });
  expect(response.status).toBe(200);
  const actions: string[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    let text = '';
    const reader = response.body!.getReader();
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        text += decoder.decode(chunk.value, { stream: true });
        const lines = text.split('\n');
        text = lines.pop() ?? '';
        for (const line of lines) {
          if (!line.startsWith('data:')) continue;
          const data = JSON.parse(line.slice(5)) as { resource?: string; action?: string };
          if (data.resource === 'view' && data.action) actions.push(data.action);
        }
      }
    } catch {
      // closed by the test
    }
  })();
  return { seen: (action) => actions.filter((seen) => seen === action).length, close: () => controller.abort() };
}

test('sharing, renaming and deleting a view each send at most one GET /views from the tab that did it, and another tab follows', async ({ page, context, connect }) => {
  test.setTimeout(120_000);
  const ws = await makeWorkspace('Views requests');
  const { baseURL } = readState();
  expect((await apiCall(baseURL, ws.key, 'POST', '/contacts', { addDirectly: true, name: 'Per Views', email: 'per@views.test' })).status).toBe(201);
  const gets: string[] = [];
  let streams = 0;
  page.on('request', (request) => {
    if (isViewsGet(request)) gets.push(request.url());
    if (new URL(request.url()).pathname === '/api/events') streams += 1;
  });
  await connect(ws.key);
  await expect(page.getByText('1 contact', { exact: true })).toBeVisible();
  await page.mouse.move(10, 10); // the first interaction loads the row, which asks GET /views once
  await page.mouse.move(20, 20);
  await expect.poll(() => gets.length).toBe(1);
  await expect.poll(() => streams).toBe(1);
  // Another tab of the same browser, its row loaded (its GET /views answered: no shared view yet).
  const other = await context.newPage();
  await other.goto(`/w/${ws.id}/contacts`);
  await expect(other.getByText('1 contact', { exact: true })).toBeVisible();
  const otherLoaded = other.waitForResponse((response) => isViewsGet(response.request()));
  await other.mouse.move(10, 10);
  await other.mouse.move(20, 20);
  await otherLoaded;
  const otherGets: string[] = [];
  other.on('request', (request) => {
    if (isViewsGet(request)) otherGets.push(request.url());
  });
  const changes = await watchViewChanges(baseURL, ws.key);
  const counts: Record<string, number> = {};
  /** Runs `change` and counts the GET /views of `page` from it until a moment after the stream has sent its event. */
  const costOf = async (action: 'create' | 'update' | 'delete', change: () => Promise<void>) => {
    const before = gets.length;
    await change();
    await expect.poll(() => changes.seen(action), { timeout: 5000 }).toBe(1);
    await page.waitForTimeout(1500); // the tab has had the event too, and whatever it loads for it has been sent
    counts[action] = gets.length - before;
  };

  try {
    await costOf('create', async () => {
      await views(page).getByRole('button', { name: 'Save view' }).click();
      const dialog = page.getByRole('dialog', { name: 'Save the current view' });
      await dialog.getByRole('textbox', { name: 'View name' }).fill('Everyone');
      await dialog.getByRole('checkbox', { name: 'Share with the workspace' }).check();
      await dialog.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(dialog).toBeHidden();
      await expect(views(page).getByRole('link', { name: 'Everyone' })).toHaveAccessibleDescription(`Shared by ${hintOf(ws.key)}`);
    });
    await expect(views(other).getByRole('link', { name: 'Everyone' })).toBeVisible();

    await costOf('update', async () => {
      await sharedAction(page, 'Everyone', 'Rename');
      const rename = page.getByRole('dialog', { name: 'Rename the view Everyone' });
      await rename.getByRole('textbox', { name: 'View name' }).fill('All of us');
      await rename.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(rename).toBeHidden();
      await expect(views(page).getByRole('link', { name: 'All of us' })).toBeVisible();
      await expect(views(page).getByRole('link', { name: 'Everyone' })).toHaveCount(0);
    });
    await expect(views(other).getByRole('link', { name: 'All of us' })).toBeVisible();

    await costOf('delete', async () => {
      await sharedAction(page, 'All of us', 'Delete');
      const confirm = page.getByRole('dialog', { name: 'Delete the shared view All of us?' });
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expect(confirm).toBeHidden();
      await expect(views(page).getByRole('link', { name: 'All of us' })).toHaveCount(0);
    });
    await expect(views(other).getByRole('link', { name: 'All of us' })).toHaveCount(0);
  } finally {
    changes.close();
    console.log(`GET /views of the tab that made each change: ${JSON.stringify(counts)}; of the other tab, for the three: ${otherGets.length}`);
  }
  expect(counts).toEqual({ create: expect.any(Number), update: expect.any(Number), delete: expect.any(Number) });
  for (const [action, count] of Object.entries(counts)) expect(count, `GET /views for the ${action}`).toBeLessThanOrEqual(1);
  // The other tab loads the views once a change: it hears the change stream's event, and is not also told over the
  // tabs' channel (it was, and loaded each change twice).
  expect(otherGets.length, 'GET /views of the other tab for the three changes').toBeLessThanOrEqual(3);
});
