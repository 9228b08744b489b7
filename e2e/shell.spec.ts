/**
 * The shell (issue 4): switching workspaces, permission-aware navigation, a key that stops working, the
 * workspace without a key, 404, and an accessibility check with a screenshot of every page.
 */
import { cli } from './server';
import { checkAccessibility, expect, searchWorkspaces, test } from './fixtures';

test('switches workspaces: the URL and the rows change, and never show the other workspace rows', async ({ page, state, connect }) => {
  const [nordic, lisbon] = state.demo.workspaces;
  await connect(lisbon!.key);
  await connect(nordic!.key);
  const table = page.getByRole('table', { name: 'Contacts' });
  await expect(page.getByText('2,000 contacts')).toBeVisible();
  const nordicRows = await table.getByRole('row').allInnerTexts();

  await page.getByRole('button', { name: /Switch workspace/ }).click();
  // Searched for: the switcher pages 50 workspaces by name, and the other specs' workspaces can push it off the first page.
  const options = await searchWorkspaces(page, lisbon!.name);
  await expect(options.getByRole('option', { name: lisbon!.name })).toContainText('key saved');
  await options.getByRole('option', { name: lisbon!.name }).click();

  await expect(page).toHaveURL(new RegExp(`/w/${lisbon!.id}/contacts$`));
  await expect(page.getByText('300 contacts')).toBeVisible();
  const lisbonRows = await table.getByRole('row').allInnerTexts();
  expect(lisbonRows.slice(1).some((row) => nordicRows.includes(row))).toBe(false);
  // Phones tell the workspaces apart: the demo seeds +47 numbers in Nordic, +351 in Lisbon.
  await page.goto(`/w/${lisbon!.id}/products`);
  await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Products' }).getByText(/€/).first()).toBeVisible();
});

test('keeps the section when switching, and offers Add key and the public page for a workspace without a key', async ({ page, state, connect }) => {
  await connect(state.demo.workspaces[0]!.key);
  await page.getByRole('link', { name: 'Collections' }).click();
  await page.getByRole('button', { name: /Switch workspace/ }).click();
  const keyless = (await searchWorkspaces(page, state.keylessWorkspace.name)).getByRole('option', { name: state.keylessWorkspace.name });
  await expect(keyless).toContainText('Add key');
  await checkAccessibility(page, 'workspace-switcher', { colors: false });
  await keyless.click();
  const dialog = page.getByRole('dialog', { name: `Add a key for ${state.keylessWorkspace.name}` });
  await expect(dialog.getByRole('link', { name: `Public page of ${state.keylessWorkspace.name}` })).toHaveAttribute('href', `/embed/${state.keylessWorkspace.id}`);
  await expect(page).toHaveURL(/\/collections$/);
});

test('a key with few scopes: disabled sections name the missing scope, and a page opened by URL explains it', async ({ page, state, connect }) => {
  await connect(state.limitedKey);
  const nav = page.getByRole('navigation', { name: 'Sections' });
  await expect(nav.getByRole('link', { name: 'Contacts' })).not.toHaveAttribute('data-disabled', 'true');
  const products = nav.getByRole('link', { name: 'Products' });
  await expect(products).toHaveAttribute('data-disabled', 'true');
  await products.locator('..').hover();
  await expect(page.getByRole('tooltip').or(page.getByTitle('Needs products:read-only')).first()).toContainText('Needs products:read-only');
  const id = state.demo.workspaces[0]!.id;
  await page.goto(`/w/${id}/products`);
  await expect(page.getByRole('alert')).toContainText('needs the scope products:read-only');
  await page.goto(`/w/${id}/workspaces`);
  await expect(page.getByRole('alert')).toContainText('needs the scope feeds:read-only');
  await page.getByRole('button', { name: /Switch workspace/ }).click();
  await expect(page.getByText('only workspaces with saved keys are listed')).toBeVisible();
});

test('a key that stops working sends the user to /connect with a message, keeping the page to return to', async ({ page, state, connect }) => {
  const workspace = state.demo.workspaces[1]!;
  const { key } = cli<{ key: string }>(state.databaseUrl, 'key', 'create', '--workspace', workspace.id, '--scope', 'all');
  await connect(key);
  await page.getByRole('link', { name: 'Posts' }).click();
  await expect(page.getByRole('heading', { name: 'Posts', level: 1 })).toBeVisible();
  cli(state.databaseUrl, 'key', 'revoke', '--key', key);
  await page.getByRole('link', { name: 'Collections' }).click();
  await expect(page).toHaveURL(/\/connect\?reason=expired/);
  await expect(page.getByRole('alert').filter({ hasText: 'stopped working' })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('return')).toBe(`/w/${workspace.id}/collections`);
  await page.getByLabel('API key', { exact: true }).fill(workspace.key);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.id}/collections$`));
});

test('answers unknown pages with a 404 page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

test('for a person who asks for less motion, a looping animation (a loader\'s spin) ends at once and a color does not glide; for others both move', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  // A stand-in for Mantine's loader, whose own style loops forever (as .mantine-Loader-root::after does), and for a
  // button's hover transition.
  const motion = () =>
    page.evaluate(() => {
      const spinner = document.createElement('span');
      spinner.style.animation = 'spin 1.2s linear infinite';
      spinner.style.transition = 'background-color 150ms ease';
      document.body.append(spinner);
      const { animationIterationCount, transitionProperty, transitionDuration } = getComputedStyle(spinner);
      spinner.remove();
      return { animationIterationCount, transitionProperty, transitionDuration };
    });
  // The tests' browser asks for less motion (playwright.config.ts).
  expect(await motion()).toEqual({ animationIterationCount: '1', transitionProperty: 'none', transitionDuration: '0s' });
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  expect(await motion()).toEqual({ animationIterationCount: 'infinite', transitionProperty: 'background-color', transitionDuration: '0.15s' });
});

test('remembers the color scheme', async ({ page, state, connect }) => {
  await connect(state.demo.workspaces[0]!.key);
  await page.getByRole('button', { name: /Switch to (dark|light) mode/ }).click();
  const scheme = await page.locator('html').getAttribute('data-mantine-color-scheme');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme!);
});

// One test a page, run side by side (the file's other tests stay in order): the pages in one test took 1.7 min at the
// end of the run on one worker while the others had finished.
test.describe('every page has no serious accessibility violations', () => {
  test.describe.configure({ mode: 'parallel' });
  for (const [section, heading] of [['contacts', 'Contacts'], ['products', 'Products'], ['collections', 'Collections'], ['posts', 'Posts'], ['workspaces', 'Workspaces']] as const) {
    test(`the ${section} page`, async ({ page, state, connect }) => {
      await connect(state.demo.workspaces[0]!.key);
      // Connecting opens Contacts: the other pages are a load away.
      if (section !== 'contacts') await page.goto(`/w/${state.demo.workspaces[0]!.id}/${section}`);
      await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
      await expect(page.getByRole('table').first()).toBeVisible();
      await checkAccessibility(page, section);
    });
  }

  test('the key menu, a missing page and the public embed page', async ({ page, state, connect }) => {
    await connect(state.demo.workspaces[0]!.key);
    await page.getByRole('button', { name: 'Key and permissions' }).click();
    await expect(page.getByRole('table', { name: 'Permissions of this key' })).toBeVisible();
    await checkAccessibility(page, 'account-menu');
    await page.goto('/no/such/page');
    await checkAccessibility(page, 'not-found');
    await page.goto(`/embed/${state.demo.workspaces[0]!.id}`);
    await expect(page.getByRole('heading', { name: 'Posts' })).toBeVisible();
    await checkAccessibility(page, 'embed');
  });
});

test('serves the console with a CSP that allows no inline script and forbids framing, and lets anyone frame /embed', async ({ request, state }) => {
  const console = await request.get('/connect');
  const csp = console.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/script-src 'self'(;|$)/);
  expect(console.headers()['x-frame-options']).toBe('DENY');
  const embed = await request.get(`/embed/${state.demo.workspaces[0]!.id}`);
  expect(embed.headers()['content-security-policy']).toContain('frame-ancestors *');
  expect(embed.headers()['x-frame-options']).toBeUndefined();
  expect(await embed.text()).not.toContain('/src/main');
});
