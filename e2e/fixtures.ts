/**
 * Test fixtures: the state from the global setup, `baseURL` pointing at the real server, and `connect`, which
 * goes through /connect as a person would (paste a key, Connect, Save and open).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { type Page, test as base, expect } from '@playwright/test';
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
      await page.goto('/connect');
      await page.getByLabel('API key', { exact: true }).fill(key);
      if (options.remember) await page.getByLabel('Remember on this device').check();
      await page.getByRole('button', { name: 'Connect', exact: true }).click();
      await page.getByRole('button', { name: 'Save and open' }).click();
      await expect(page).toHaveURL(/\/w\/[^/]+\/contacts/);
    });
  },
});
export { expect };

export type Workspace = { id: string; name: string; key: string };

/**
 * A new workspace of the demo organization, named `label` plus a unique suffix, with a key holding `scope`
 * (comma-separated scopes, default all eight), made through the operator command line: each test works in a
 * workspace of its own, since the specs share one server and database.
 */
export function makeWorkspace(label: string, scope = 'all'): Workspace {
  const state = readState();
  const workspace = cli<{ id: string; name: string }>(state.databaseUrl, 'workspace', 'create', '--org', state.demo.organization.id, '--name', `${label} ${randomUUID().slice(0, 8)}`);
  const { key } = cli<{ key: string }>(state.databaseUrl, 'key', 'create', '--workspace', workspace.id, '--scope', scope);
  return { ...workspace, key };
}

/**
 * Runs axe on the page, or on `include` (a CSS selector) leaving out `exclude` (e.g. a sandboxed frame axe cannot
 * enter); fails on serious or critical violations. Saves a screenshot under test-results/screenshots/.
 */
export async function checkAccessibility(page: Page, name: string, options: { include?: string; exclude?: string } = {}) {
  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: !options.include });
  let axe = new AxeBuilder({ page });
  if (options.include) axe = axe.include(options.include);
  if (options.exclude) axe = axe.exclude(options.exclude);
  const results = await axe.analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`)).toEqual([]);
}
