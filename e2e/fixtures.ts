/**
 * Test fixtures: the state from the global setup, `baseURL` pointing at the real server, and `connect`, which opens
 * a key's workspace at Contacts (or its overview, for a key that cannot read contacts): by default with the key put
 * where /connect saves it (the tab's session storage; the browser's local storage with `remember`), or with
 * `{ through: 'connect-page' }` through /connect as a person would (paste a key, Connect), then from the overview.
 * `{ path }` opens that address of the workspace instead (`products`, `contacts?state=active`, `''` for the overview):
 * one page load where opening Contacts and then going there would take two (about 1.5 s of CPU each, docs/benchmarks.md).
 * connect.spec.ts, first-screens.spec.ts and the specs counting requests from connecting take /connect.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { type BrowserContext, type Locator, type Page, test as base, expect } from '@playwright/test';
import axe from 'axe-core';
import type { Authorization } from '../src/api/authorization';
import type { SavedConnection } from '../src/lib/connections';
import { parseScopeList } from '../src/api/scopes';
import { openDatabase, type ServiceDatabase } from '../server/db/connection';
import { createWorkspaceWithKey } from '../server/db/workspaces';
import { type E2eState, readState } from './state';

type Fixtures = {
  state: E2eState;
  connect: (key: string, options?: { remember?: boolean; through?: 'connect-page'; path?: string }) => Promise<void>;
};

export const test = base.extend<Fixtures>({
  state: async ({}, use) => {
    await use(readState());
  },
  baseURL: async ({}, use) => {
    await use(readState().baseURL);
  },
  connect: async ({ page }, use) => {
    await use(async (key, options = {}) => {
      if (options.path !== undefined && options.through === 'connect-page') throw new Error('connect: `path` opens a seeded connection; /connect lands where the console sends it');
      if (options.through !== 'connect-page') {
        // What /connect saves (src/lib/connections.ts), put in the tab's session storage (with `remember`, the
        // browser's local storage) before the app reads it: two page loads fewer than the way through /connect and the
        // overview (docs/benchmarks.md), which connect.spec.ts and the specs passing `through: 'connect-page'` take.
        const connection = await savedConnection(readState().baseURL, key, options.remember ?? false);
        await page.addInitScript(seedConnection, connection);
        const readsContacts = ['read-only', 'read-write'].includes(connection.permissions.contacts ?? '');
        const path = options.path ?? (readsContacts ? 'contacts' : '');
        await page.goto(`/w/${connection.workspaceId}${path ? `/${path}` : ''}`);
        return;
      }
      // In either language the browser's locale picks (issue 23: an nb-NO context sees the page in bokmål).
      await page.goto('/connect');
      await page.getByLabel(/^(API key|API-nøkkel)$/).fill(key);
      if (options.remember) await page.getByLabel(/^(Remember on this device|Husk på denne enheten)$/).check();
      await page.getByRole('button', { name: /^(Connect|Koble til)$/ }).click();
      // Our service names `stats`, so connecting lands on the overview (issue 35 point 5); the tests go on from Contacts.
      await expect(page).toHaveURL(/\/w\/[^/?]+(\/contacts)?(\?.*)?$/);
      if (!/\/contacts/.test(new URL(page.url()).pathname)) {
        // On a phone the sections are behind the burger (issue 23 point 6): whichever of the two shows, once the layout is drawn.
        const sections = page.getByRole('navigation', { name: /^(Sections|Seksjoner)$/ });
        const burger = page.getByRole('button', { name: /^(Toggle navigation|Vis eller skjul navigasjonen)$/ });
        await expect(sections.or(burger).filter({ visible: true }).first()).toBeVisible();
        const onPhone = await burger.isVisible();
        if (onPhone) {
          await burger.click();
          await expect(burger).toHaveAttribute('aria-expanded', 'true');
        }
        const contacts = sections.getByRole('link', { name: /^(Contacts|Kontakter)$/ });
        // A key that cannot read contacts has the Contacts section disabled: the test goes on from the overview.
        if ((await contacts.getAttribute('aria-disabled')) === 'true') {
          if (onPhone) await burger.click();
          return;
        }
        await contacts.click();
        if (onPhone) {
          // The menu closes on navigation: gone, not closing, before the test taps the burger again.
          await expect(burger).toHaveAttribute('aria-expanded', 'false');
          await expect(sections).toBeHidden();
        }
        await expect(page).toHaveURL(/\/w\/[^/]+\/contacts/);
      }
    });
  },
});
export { expect };

/** The connection /connect would save for `key` (src/lib/connect-key.ts `toConnection`), from `GET /authorization`. */
async function savedConnection(baseURL: string, key: string, remember: boolean): Promise<SavedConnection> {
  const answer = await fetch(new URL('/api/authorization', baseURL), { headers: { 'x-api-key': key } });
  expect(answer.status, 'the key is accepted').toBe(200);
  const authorization = (await answer.json()) as Authorization;
  return {
    workspaceId: authorization.feed.id, workspaceName: authorization.feed.name, organizationId: authorization.organization.id,
    organizationName: authorization.organization.name, baseUrl: '/api', apiKey: key, permissions: authorization.permissions,
    remember, savedAt: new Date().toISOString(),
  };
}

/**
 * Runs in the page before its scripts, on every load of the tab: adds `connection` to the tab's session keys (or,
 * remembered, to the browser's local storage) once, by a marker beside them, so that a test forgetting the key and
 * reloading sees it gone.
 */
function seedConnection(connection: SavedConnection) {
  if (location.protocol === 'about:') return;
  const storage = connection.remember ? localStorage : sessionStorage;
  const marker = `e2e.seeded.${connection.workspaceId}`;
  if (storage.getItem(marker)) return;
  const KEY = 'workspace-admin.connections';
  const saved = JSON.parse(storage.getItem(KEY) ?? '[]') as SavedConnection[];
  storage.setItem(KEY, JSON.stringify([...saved.filter((c) => c.workspaceId !== connection.workspaceId), connection]));
  storage.setItem(marker, '1');
}

export type Workspace = { id: string; name: string; key: string };

/**
 * Makes `context`'s pages (those open and those opened later) see a service that names none of `names`: every
 * `GET /api/extensions` is sent to the real service and its answer passed on less those names. For the tests of the
 * console's path on a service without an extension (docs/decisions.md section 12: `contact-batch`, whose absence
 * makes imports and bulk tags jobs of one request per contact), run against our real service all the same.
 */
export async function hideExtensions(context: BrowserContext, names: string[]): Promise<void> {
  await context.route(/\/api\/extensions(\?|$)/, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { extensions: string[] };
    expect(body.extensions, 'the service names what the test hides').toEqual(expect.arrayContaining(names));
    await route.fulfill({ response, json: { ...body, extensions: body.extensions.filter((name) => !names.includes(name)) } });
  });
}

/** Waits for a connection made at /connect to open its workspace: the overview (a service naming `stats`) or Contacts. */
export async function expectWorkspaceOpened(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/w\/[^/?]+(\/contacts)?(\?.*)?$/);
}

let operator: ServiceDatabase | undefined;

/**
 * A new workspace of the demo organization, named `label` plus a unique suffix, with a key holding `scope`
 * (comma-separated scopes, default all eight): what the operator command line's `workspace create --key-scope` makes
 * (server/db/workspaces.ts `createWorkspaceWithKey`, the same function), written from this Playwright worker over the
 * tests' database, opened once a worker, instead of a command line process a call (0.4 s of CPU each, 75 calls).
 * Each test works in a workspace of its own, since the specs share one server and database.
 */
export async function makeWorkspace(label: string, scope = 'all'): Promise<Workspace> {
  const state = readState();
  operator ??= openDatabase(state.databaseUrl);
  // Read as the command line reads `--key-scope`: a misspelt scope fails here, not as a key that lacks it.
  const scopes = parseScopeList(scope);
  const made = await createWorkspaceWithKey(operator.db, { organizationId: state.demo.organization.id, name: `${label} ${randomUUID().slice(0, 8)}` }, scopes);
  return { id: made.id, name: made.name, key: made.key };
}

/**
 * Types `name` into the open workspace switcher's search and resolves with its list once it shows only workspaces
 * whose names contain it. The search waits 250 ms and the list is replaced when its answer comes: a click on an option
 * before that can land on whatever moved under the pointer (a CI run closed the switcher that way, switching nowhere).
 */
export async function searchWorkspaces(page: Page, name: string): Promise<Locator> {
  await page.getByRole('combobox', { name: 'Search workspaces' }).fill(name);
  const list = page.getByRole('listbox', { name: 'Workspaces' });
  await expect(list.getByRole('option', { name })).toBeVisible();
  await expect(list.getByRole('option').filter({ hasNotText: name })).toHaveCount(0);
  return list;
}

/** True when the point at the middle of `target` hits `target` itself (nothing lies over it). */
export async function isUncovered(target: Locator): Promise<boolean> {
  const box = await target.boundingBox();
  if (!box) return false;
  return target.evaluate((element, point) => {
    const hit = document.elementFromPoint(point.x, point.y);
    return hit !== null && element.contains(hit);
  }, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
}

/** `E2E_SCREENSHOTS=1` keeps a screenshot of every page the axe pass checks, for a review of how it looks. */
const SCREENSHOTS = process.env.E2E_SCREENSHOTS === '1';

/** The axe rules whose outcome depends on colors, run again in dark mode. */
const COLOR_RULES = ['color-contrast', 'link-in-text-block'];

type AxeRule = { id: string; enabled?: boolean; tags?: string[]; impact?: string; any: AxeCheckRef[]; all: AxeCheckRef[]; none: AxeCheckRef[] };
type AxeCheckRef = string | { id: string };

/**
 * The rules axe runs by default that can report a serious or critical violation, the only ones `checkAccessibility`
 * fails on: a violation's impact is the highest of its failing checks' (axe-core's own data, read here from the package
 * the page is given), and a rule's own `impact`, where it has one, is counted too. The other 23 of axe 4.13's 89
 * (`region`, the landmark and heading rules: moderate or minor at most) would run only for their results to be dropped.
 */
const SERIOUS_RULES: string[] = (() => {
  type Audit = { rules: AxeRule[]; data: { checks: Record<string, { impact?: string } | undefined> } };
  const { _audit: audit } = axe as unknown as { _audit: Audit };
  const serious = (impact: string | undefined) => impact === 'serious' || impact === 'critical';
  return audit.rules
    .filter((rule) => rule.enabled !== false && !rule.tags?.includes('experimental'))
    .filter((rule) => serious(rule.impact) || [...rule.any, ...rule.all, ...rule.none].some((check) => serious(audit.data.checks[typeof check === 'string' ? check : check.id]?.impact)))
    .map((rule) => rule.id);
})();
// Should axe's data move, the list would come out short and the checks weaker without a word: refuse to run instead.
if (!['color-contrast', 'button-name', 'label', 'aria-valid-attr-value'].every((rule) => SERIOUS_RULES.includes(rule))) {
  throw new Error(`axe-core's rule data was not read as expected (${SERIOUS_RULES.length} serious rules): see SERIOUS_RULES in e2e/fixtures.ts`);
}

/**
 * Runs axe on the page, or on `include` (a CSS selector) leaving out `exclude` (e.g. a sandboxed frame axe cannot
 * enter), in the light and then the dark color scheme (issue 14 point 10); fails on serious or critical violations
 * of either, naming the scheme. The dark pass emulates `prefers-color-scheme: dark` (the embed page follows it) and
 * sets Mantine's `data-mantine-color-scheme` (the console's remembered choice wins over the media query); both are
 * put back afterwards. The dark pass runs only the rules that depend on colors (`COLOR_RULES`). With
 * `E2E_SCREENSHOTS=1`, saves a screenshot of each scheme under test-results/screenshots/ (`<name>.png`, `<name>-dark.png`).
 * `colors: false` leaves the color rules and the dark pass out, for a screen in another language whose English twin is
 * checked in both schemes: colors do not change with the language, and `color-contrast` is most of axe's time.
 */
export async function checkAccessibility(page: Page, name: string, options: { include?: string; exclude?: string; colors?: boolean } = {}) {
  // The second (dark) pass gets time of its own, so a test with several checks keeps its own budget.
  test.info().setTimeout(test.info().timeout + 20_000);
  if (SCREENSHOTS) mkdirSync('test-results/screenshots', { recursive: true });
  const analyze = async (scheme: 'light' | 'dark') => {
    if (SCREENSHOTS) await page.screenshot({ path: `test-results/screenshots/${name}${scheme === 'dark' ? '-dark' : ''}.png`, fullPage: !options.include });
    // Only violations are read: axe then details one node of each passing or inapplicable rule instead of every
    // node (selectors and HTML of each), which was about a third of a check's time on the contacts page (docs/benchmarks.md).
    // Only colors change with the scheme: the dark pass runs the color rules alone, so it costs little.
    const rules = scheme === 'dark' ? COLOR_RULES : options.colors === false ? SERIOUS_RULES.filter((rule) => !COLOR_RULES.includes(rule)) : SERIOUS_RULES;
    const context: axe.ContextObject = { ...(options.include ? { include: [options.include] } : {}), exclude: options.exclude ? [options.exclude] : [] };
    const results = await runAxe(page, context, { runOnly: { type: 'rule', values: rules }, resultTypes: ['violations'] });
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${scheme}: ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`);
  };
  const before = await page.evaluate(() => ({ attribute: document.documentElement.getAttribute('data-mantine-color-scheme'), dark: matchMedia('(prefers-color-scheme: dark)').matches }));
  const failures: string[] = [];
  for (const scheme of options.colors === false ? (['light'] as const) : (['light', 'dark'] as const)) {
    await setScheme(page, scheme, before.attribute === null ? null : scheme);
    failures.push(...(await analyze(scheme)));
  }
  await setScheme(page, before.dark ? 'dark' : 'light', before.attribute);
  expect(failures).toEqual([]);
}

/**
 * axe-core's `run(context, options)` in the page's own frame, axe's source (0.6 MB) evaluated there once a page load
 * instead of four times a check (@axe-core/playwright, which this replaced, evaluated it twice a call). Frames are not
 * entered (`iframes: false`): the console's only frames are sandboxed previews without scripts, which axe cannot enter
 * (the checks that show one exclude it) and would wait on.
 */
async function runAxe(page: Page, context: axe.ContextObject, options: axe.RunOptions): Promise<axe.AxeResults> {
  type WithAxe = { axe?: typeof axe };
  if (!(await page.evaluate(() => typeof (window as WithAxe).axe?.run === 'function'))) await page.evaluate(axe.source);
  await settleColors(page);
  // Passed as plain data: Playwright's argument types recurse through axe's too deeply for the type checker.
  const argument: { context: unknown; options: unknown } = { context, options: { ...options, iframes: false } };
  return page.evaluate(({ context, options }) => (window as WithAxe).axe!.run(context as axe.ContextObject, options as axe.RunOptions), argument);
}

/**
 * Resolves once no color transition runs in the page: a transition's colors are read as its start's until the page's
 * next frame, however short it is, so axe reading colors in the frame a change was made (a color scheme set, a hover,
 * a re-render the scheme change caused) would judge the old ones. The console starts none under reduced motion, as
 * the tests run (src/app/global.css); this guards a page that still would. Waits two frames, then for the
 * transitions then running, again until none starts (at most 20 rounds).
 */
async function settleColors(page: Page) {
  await page.evaluate(async () => {
    for (let round = 0; round < 20; round += 1) {
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      document.body.getBoundingClientRect();
      const running = document.getAnimations().filter((animation) => animation instanceof CSSTransition && animation.playState === 'running');
      if (!running.length) return;
      await Promise.all(running.map((transition) => transition.finished.catch(() => undefined)));
    }
  });
}

/** Emulates `prefers-color-scheme: media` and sets Mantine's color-scheme attribute (left alone when null). */
async function setScheme(page: Page, media: 'light' | 'dark', attribute: string | null) {
  await page.emulateMedia({ colorScheme: media });
  await page.evaluate((value) => {
    if (value !== null) document.documentElement.setAttribute('data-mantine-color-scheme', value);
  }, attribute);
}
