/**
 * Test fixtures: the state from the global setup, `baseURL` pointing at the real server, and `connect`, which
 * goes through /connect as a person would (paste a key, Connect: one click checks, saves and opens).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { type Locator, type Page, test as base, expect } from '@playwright/test';
import { cli } from './server';
import { type E2eState, readState } from './state';

type Fixtures = {
  state: E2eState;
  connect: (key: string, options?: { remember?: boolean }) => Promise<void>;
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
      // In either language the browser's locale picks (issue 23: an nb-NO context sees the page in bokmål).
      await page.goto('/connect');
      await page.getByLabel(/^(API key|API-nøkkel)$/).fill(key);
      if (options.remember) await page.getByLabel(/^(Remember on this device|Husk på denne enheten)$/).check();
      await page.getByRole('button', { name: /^(Connect|Koble til)$/ }).click();
      await expect(page).toHaveURL(/\/w\/[^/]+\/contacts/);
    });
  },
});
export { expect };

export type Workspace = { id: string; name: string; key: string };

/**
 * A new workspace of the demo organization, named `label` plus a unique suffix, with a key holding `scope`
 * (comma-separated scopes, default all eight), made through the operator command line in one call (`workspace create
 * --key-scope`): each test works in a workspace of its own, since the specs share one server and database.
 */
export function makeWorkspace(label: string, scope = 'all'): Workspace {
  const state = readState();
  const { id, name, key } = cli<Workspace>(state.databaseUrl, 'workspace', 'create', '--org', state.demo.organization.id, '--name', `${label} ${randomUUID().slice(0, 8)}`, '--key-scope', scope);
  return { id, name, key };
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
    // Legacy mode runs axe.run in the page itself: the default mode's aggregation opens a blank page per call and
    // loads axe into it again, which was about half of each check's time (measured: 4.2 to 7.3 s against 2.1 to 5.9 s
    // on the contacts page). What it gives up, frames of another origin, this console has none of.
    let axe = new AxeBuilder({ page }).setLegacyMode(true);
    if (options.include) axe = axe.include(options.include);
    if (options.exclude) axe = axe.exclude(options.exclude);
    // Only colors change with the scheme: the dark pass runs the color rules alone, so it costs little.
    if (scheme === 'dark') axe = axe.withRules(COLOR_RULES);
    else if (options.colors === false) axe = axe.disableRules(COLOR_RULES);
    const results = await axe.analyze();
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

/** Emulates `prefers-color-scheme: media` and sets Mantine's color-scheme attribute (left alone when null); waits a frame. */
async function setScheme(page: Page, media: 'light' | 'dark', attribute: string | null) {
  await page.emulateMedia({ colorScheme: media });
  await page.evaluate(async (value) => {
    if (value !== null) document.documentElement.setAttribute('data-mantine-color-scheme', value);
    await new Promise((resolve) => requestAnimationFrame(() => resolve(null)));
  }, attribute);
}
