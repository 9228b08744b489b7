/**
 * Test fixtures: the state from the global setup, `baseURL` pointing at the real server, and `connect`, which
 * goes through /connect as a person would (paste a key, Connect, Save and open).
 */
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { type Page, test as base, expect } from '@playwright/test';
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

/** Runs axe on the page; fails on serious or critical violations. Saves a screenshot under test-results/. */
export async function checkAccessibility(page: Page, name: string) {
  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`)).toEqual([]);
}
