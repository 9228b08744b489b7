/**
 * The console on a 360 px phone (issue 34 point 8): no screen is wider than the phone (every section of
 * src/app/sections.ts, the overview, the connect page, a contact's record with its tag field, the composer), the
 * contacts' search shows without opening "Filters", the contacts are a list of cards whose e-mails never break
 * inside a word, and keyboard hints (Shift+Enter) are left out on a touch screen.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, makeWorkspace, test } from './fixtures';
import { ROOT, apiCall } from './server';

test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

/** The section paths of src/app/sections.ts, read from its source (the module itself needs the bundler). */
const SECTION_PATHS = [...readFileSync(join(ROOT, 'src/app/sections.ts'), 'utf8').matchAll(/\{ path: '([a-z-]+)'/g)].map((match) => match[1]!);

/** The page's width and, when it is too wide, the deepest elements reaching past the screen (for the message). */
async function widthOf(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.scrollWidth;
    const past = width <= 360 ? [] : Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((element) => element.getBoundingClientRect().right > 361 && !Array.from(element.children).some((child) => child.getBoundingClientRect().right > 361))
      .slice(0, 8)
      .map((element) => `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 40)} "${element.textContent?.trim().slice(0, 30)}" right=${Math.round(element.getBoundingClientRect().right)}`);
    return { width, past };
  });
}

async function expectFits(page: Page, screen: string) {
  // Polled: a list may still be drawing its rows.
  await expect.poll(async () => { const { width, past } = await widthOf(page); return width <= 360 ? 'fits' : `${width} px: ${past.join('; ')}`; }, { message: `${screen} is wider than 360 px` }).toBe('fits');
}

const api = apiCall;

test('no screen is wider than a 360 px phone', async ({ page, connect, state }) => {
  test.setTimeout(240_000);
  expect(SECTION_PATHS).toContain('contacts');
  await page.goto('/connect');
  await expect(page.getByRole('button', { name: 'Connect', exact: true })).toBeVisible();
  await expectFits(page, 'the connect page');
  const demo = state.demo.workspaces[0]!;
  await connect(demo.key, { path: '' });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
  await expectFits(page, 'the overview');
  for (const path of SECTION_PATHS) {
    await page.goto(`/w/${demo.id}/${path}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
    await expectFits(page, path);
  }
  await page.goto(`/w/${demo.id}/posts/new`);
  await expect(page.getByRole('heading', { name: 'New post', level: 1 })).toBeVisible({ timeout: 30_000 });
  await expectFits(page, 'the composer');
  // A contact's record, with its tag field.
  await page.goto(`/w/${demo.id}/contacts`);
  await page.getByRole('list', { name: 'Contacts' }).getByRole('link').first().tap();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByRole('combobox', { name: 'Tags' })).toBeVisible();
  await expectFits(page, 'a contact');
  const right = await drawer.getByRole('combobox', { name: 'Tags' }).evaluate((input) => input.getBoundingClientRect().right);
  expect(right).toBeLessThanOrEqual(360);
});

test('the contacts on a phone: search in sight, a card each, e-mails whole, no keyboard hints', async ({ page, connect, baseURL }) => {
  test.setTimeout(120_000);
  const workspace = await makeWorkspace('Narrow phone');
  for (let i = 0; i < 3; i++) {
    const created = await api(baseURL!, workspace.key, 'POST', '/contacts', { name: `Narrow Person ${i}`, email: `narrow.person.number.${i}@a-rather-long-domain-name.example`, city: 'Oslo', tags: ['lead'], addDirectly: true });
    expect(created.status).toBe(201);
  }
  await connect(workspace.key);
  // The search is there without opening the filters.
  const search = page.getByLabel('Search', { exact: true });
  await expect(search).toBeVisible();
  await expect(page.getByRole('button', { name: 'Filters', exact: true })).toHaveAttribute('aria-expanded', 'false');
  // A card each: the list of contacts, each with its name as a link, its e-mail and its state.
  const cards = page.getByRole('list', { name: 'Contacts' });
  await expect(cards.getByRole('listitem')).toHaveCount(3);
  await expect(page.getByRole('table', { name: 'Contacts' })).toBeHidden();
  const card = cards.getByRole('listitem').filter({ hasText: 'Narrow Person 1' });
  await expect(card.getByRole('link', { name: 'Narrow Person 1' })).toBeVisible();
  await expect(card).toContainText(/active/i);
  // The e-mail breaks only at the @ (or is cut with an ellipsis): each line ends at a whole part.
  const email = card.getByText('narrow.person.number.1@a-rather-long-domain-name.example');
  await expect(email).toBeVisible();
  const lines = await email.evaluate((element) => {
    const range = document.createRange();
    const texts: string[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      let line = '';
      let top: number | undefined;
      for (let i = 0; i < text.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const y = range.getClientRects()[0]?.top;
        if (top !== undefined && y !== undefined && Math.abs(y - top) > 2) { texts.push(line); line = ''; }
        if (y !== undefined) top = y;
        line += text[i];
      }
      texts.push(line);
    }
    return texts;
  });
  for (const line of lines) expect(['narrow.person.number.1', '@a-rather-long-domain-name.example', 'narrow.person.number.1@a-rather-long-domain-name.example']).toContain(line);
  await expectFits(page, 'the contacts');
  // The Advanced box's rows (issue 34 point 9) fit too, with a second condition added.
  await page.getByRole('button', { name: 'Filters', exact: true }).click();
  await page.getByRole('button', { name: 'Advanced' }).click();
  await expect(page.getByRole('group', { name: 'Condition 1' })).toBeVisible();
  await page.getByRole('button', { name: 'Add a condition' }).click();
  await expect(page.getByRole('group', { name: 'Condition 2' })).toBeVisible();
  await expectFits(page, 'the open Advanced box');
  await page.keyboard.press('Escape');
  // Search finds a contact.
  await search.fill('Narrow Person 2');
  await expect(cards.getByRole('listitem')).toHaveCount(1);
  await expect(cards).toContainText('Narrow Person 2');
  // The waiting notice never lies over the search field: the service answers the next search 429, and the search
  // field, scrolled to just under the header, is still the element at its own centre.
  await page.route('**/api/contacts?**', (route) => route.fulfill({ status: 429, headers: { 'retry-after': '20', 'content-type': 'application/json' }, body: JSON.stringify({ statusCode: 429, message: 'ThrottlerException: Too Many Requests' }) }), { times: 1 });
  await search.fill('Narrow Person 0');
  const notice = page.getByRole('status').filter({ hasText: /throttling|Waiting/ });
  await expect(notice).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  await search.evaluate((input) => window.scrollBy(0, input.getBoundingClientRect().top - 60));
  const box = await search.boundingBox();
  const hit = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.tagName, { x: box!.x + box!.width / 2, y: box!.y + box!.height / 2 });
  expect(hit).toBe('INPUT');
  await expectFits(page, 'the contacts while throttled');
  await expect(cards.getByRole('listitem')).toHaveCount(1, { timeout: 40_000 });
  // No "Shift+Enter" hint on a touch screen (the composer's and the tables' keyboard hints).
  await expect(page.getByText(/Shift\+Enter|Shift-click/)).toHaveCount(0);
  // The products' table keeps its caption's order, without the keyboard's part.
  await page.goto(`/w/${workspace.id}/products`);
  await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/Shift\+Enter/)).toBeHidden();
});
