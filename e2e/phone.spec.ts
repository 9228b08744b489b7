/**
 * The console on a phone (issue 23 points 6 and 7): a 390 x 844 touch screen runs the main journeys (connect,
 * find and tag a contact through the menu, compose and schedule a post, switch workspace, import a CSV) with no sideways
 * scrolling, the navigation behind a burger menu, touch targets of at least 44 px (WCAG 2.5.5), and the axe pass on
 * each page. The desktop journeys are in their own specs (contacts, posts, shell).
 */
import type { Locator, Page } from '@playwright/test';
import { checkAccessibility, expect, makeWorkspace, searchWorkspaces, test } from './fixtures';
import { apiCall } from './server';

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

const api = apiCall;

/** The navigation menu, under the burger. */
const menu = (page: Page) => page.getByRole('navigation', { name: 'Sections' });
const burger = (page: Page) => page.getByRole('button', { name: 'Toggle navigation' });

/** Opens the burger menu and follows `section`; the menu closes on navigation. */
async function goTo(page: Page, section: string) {
  await burger(page).tap();
  await expect(burger(page)).toHaveAttribute('aria-expanded', 'true');
  await menu(page).getByRole('link', { name: section }).tap();
  await expect(menu(page)).toBeHidden();
  await expect(page.getByRole('heading', { name: section, level: 1 })).toBeVisible();
}

test('finds and tags a contact through the menu, on a phone', async ({ page, connect, baseURL }) => {
  const workspace = await makeWorkspace('Phone contacts');
  for (let i = 0; i < 12; i++) {
    const created = await api(baseURL!, workspace.key, 'POST', '/contacts', { name: `Phone Person ${String(i).padStart(2, '0')}`, email: `phone.person.${i}@a-rather-long-domain-name.example`, phone: `+4792${String(i).padStart(6, '0')}`, city: 'Oslo', tags: ['lead'], addDirectly: true });
    expect(created.status).toBe(201);
  }
  await connect(workspace.key);
  // A card a contact (issue 34 point 8), the first ones on the first screen.
  const table = page.getByRole('list', { name: 'Contacts' });
  const firstRow = table.getByRole('listitem').filter({ hasText: 'Phone Person 11' });
  await expect(firstRow).toBeVisible();
  await expect(page.getByRole('table', { name: 'Contacts' })).toBeHidden();
  await expect(firstRow).toContainText('phone.person.11@a-rather-long-domain-name.example');
  expect((await firstRow.boundingBox())!.y + 40).toBeLessThan(844);
  await expectNoSidewaysScroll(page);
  // The navigation is behind the burger; the header's secondary tools are in the menu.
  await expect(menu(page)).toBeHidden();
  await burger(page).tap();
  await expect(menu(page)).toBeVisible();
  await expect(menu(page).getByRole('group', { name: 'Language' })).toBeVisible();
  await expectTouchTargets(menu(page).getByRole('link'));
  await expectTouchTargets(page.getByRole('banner').getByRole('button'));
  await page.keyboard.press('Escape');
  await expect(menu(page)).toBeHidden();
  await burger(page).tap();
  await menu(page).getByRole('link', { name: 'Products' }).tap();
  await expect(menu(page)).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await goTo(page, 'Contacts');

  // Search in sight without opening the filters (issue 34 point 8), open the record (full screen), add a tag.
  await expectTouchTargets(page.getByRole('button', { name: /^(Filters|New contact|Next page|Previous page)/ }));
  await expectTouchTargets(table.getByRole('checkbox'));
  await page.getByLabel('Search', { exact: true }).fill('Phone Person 03');
  await expect(table.getByRole('listitem')).toHaveCount(1);
  await expectNoSidewaysScroll(page);
  await checkAccessibility(page, 'phone-contacts');
  await table.getByRole('link', { name: /Phone Person 03/ }).tap();
  const drawer = page.getByRole('dialog', { name: /Phone Person 03/ });
  await expect(drawer).toBeVisible();
  await expect.poll(async () => Math.round((await drawer.boundingBox())?.width ?? 0)).toBe(390);
  const tags = drawer.getByRole('combobox', { name: 'Tags' });
  await tags.tap();
  await tags.fill('mobile');
  await tags.press('Enter');
  await expect(table.getByRole('listitem').first()).toContainText('Phone Person 03');
  await expect
    .poll(async () => (await api(baseURL!, workspace.key, 'GET', `/contacts?%24filter=${encodeURIComponent("name eq 'Phone Person 03'")}`)).body.items[0].tags)
    .toContain('mobile');
  await expectTouchTargets(drawer.getByRole('button', { name: /^(Edit|Close contact)/ }));
  await checkAccessibility(page, 'phone-contact-drawer');
});

/**
 * The browser's local date and time at the first whole minute at least `seconds` from now (the picker works in
 * the browser's time zone, to the minute), as the posts spec picks it.
 */
async function localTime(page: Page, seconds: number) {
  return page.evaluate((offset) => {
    const date = new Date(Math.ceil((Date.now() + offset * 1000) / 60_000) * 60_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    return { day: `${date.getDate()} ${date.toLocaleString('en-US', { month: 'long' })} ${date.getFullYear()}`, hours: pad(date.getHours()), minutes: pad(date.getMinutes()), sameDay: date.getDate() === new Date().getDate() };
  }, seconds);
}

test('composes and schedules a post, and switches workspace, on a phone', async ({ page, connect }) => {
  const other = await makeWorkspace('Phone other');
  const workspace = await makeWorkspace('Phone posts');
  await connect(other.key);
  await connect(workspace.key);
  await goTo(page, 'Posts');
  await page.getByRole('link', { name: 'New post' }).tap();
  await expect(page.getByRole('heading', { name: 'New post', level: 1 })).toBeVisible();
  await page.getByRole('radio', { name: 'Schedule' }).check();
  await page.getByLabel('Header', { exact: true }).fill('From a phone');
  const at = await localTime(page, 600);
  test.skip(!at.sameDay, 'too close to midnight to pick a time today');
  await page.getByLabel('Publish at').tap();
  await page.getByRole('button', { name: at.day, exact: true }).tap();
  await page.getByRole('spinbutton', { name: 'Hours' }).fill(at.hours);
  await page.getByRole('spinbutton', { name: 'Minutes' }).fill(at.minutes);
  await page.getByRole('button', { name: 'Confirm date and time' }).tap();
  await expectNoSidewaysScroll(page);
  await checkAccessibility(page, 'phone-composer');
  await page.getByRole('button', { name: 'Schedule post' }).tap();
  await page.getByRole('dialog', { name: 'Schedule for everyone?' }).getByRole('button', { name: 'Schedule for everyone' }).tap();
  await expect(page.getByRole('status').filter({ hasText: 'reference' })).toContainText('scheduled');
  await expectNoSidewaysScroll(page);

  await page.getByRole('button', { name: /Switch workspace/ }).tap();
  // The switcher lists the first 50 of the organization's workspaces (the suite makes more): found by its search.
  await (await searchWorkspaces(page, other.name)).getByRole('option', { name: other.name }).tap();
  await expect(page).toHaveURL(new RegExp(`/w/${other.id}/posts`));
  await expectNoSidewaysScroll(page);
});

test('the public page reads at 320 px wide', async ({ page, state }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto(`/embed/${state.demo.workspaces[0]!.id}`);
  await expect(page.getByRole('article').first()).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/phone-embed.png' });
});

/**
 * Every control in the page is the element found at its own centre once scrolled into view: none sits behind
 * another (a sticky header, a notification, a neighbour that overflows). Returns the covered ones, named.
 */
async function coveredControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = 'button, a[href], input:not([type=hidden]), select, textarea, [role=button], [role=checkbox], [role=combobox], [role=tab], [role=switch], [role=radio]';
    const covered: string[] = [];
    for (const control of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      if (!control.getClientRects().length || getComputedStyle(control).visibility === 'hidden' || control.closest('[aria-hidden=true]')) continue;
      control.scrollIntoView({ block: 'center', inline: 'center' });
      // The first line's box: a link that wraps has its bounding box's centre between its lines.
      const box = control.getClientRects()[0]!;
      if (box.width < 2 || box.height < 2) continue;
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (!hit || control.contains(hit) || Array.from((control as HTMLInputElement).labels ?? []).some((label) => label.contains(hit))) continue;
      covered.push(`${control.getAttribute('aria-label') ?? control.textContent?.trim().slice(0, 40)} (under ${hit.tagName.toLowerCase()} "${hit.textContent?.trim().slice(0, 40)}")`);
    }
    window.scrollTo(0, 0);
    return covered;
  });
}

test('every list page on a phone: records first, as compact rows or cards, filters in a sheet, nothing wider than the screen or behind another control', async ({ page, connect, state }) => {
  test.setTimeout(120_000);
  const demo = state.demo.workspaces[0]!;
  await connect(demo.key);
  const pages = [
    { section: 'Contacts', table: 'Contacts' },
    { section: 'Products', table: 'Products' },
    { section: 'Collections', table: 'Collections' },
    { section: 'Posts', table: 'Published posts' },
    { section: 'Workspaces', table: 'Workspaces of the organization' },
  ];
  for (const { section, table: name } of pages) {
    // The connect fixture has just opened Contacts through this same menu; the other sections are opened here.
    if (section === 'Contacts') await expect(page.getByRole('heading', { name: section, level: 1 })).toBeVisible();
    else await goTo(page, section);
    // The contacts are a list of cards (issue 34 point 8), the other lists tables shown as cards or compact rows.
    const table = section === 'Contacts' ? page.getByRole('list', { name }) : page.getByRole('table', { name });
    const first = section === 'Contacts' ? table.getByRole('listitem').first() : table.locator('tbody tr').first();
    await expect(first).toBeVisible();
    // The first record is on the first screen, below the filters folded behind their button.
    // Polled: the list may render again (a refresh) between finding the row and measuring it.
    await expect.poll(async () => ((await first.boundingBox())?.y ?? Infinity) + 40, { message: `${section}: the first record is below the first screen` }).toBeLessThan(844);
    await expect(page.getByRole('button', { name: 'Filters', exact: true })).toBeVisible();
    await expectNoSidewaysScroll(page);
    // Every cell of the first record is within the screen: no column waits off to the right.
    // Polled as above: a row rendered again between finding and measuring it showed no cells (CI, stop 60).
    let rightEdges: number[] = [];
    await expect
      .poll(async () => (rightEdges = await first.evaluate((row) => Array.from(row.querySelectorAll('th, td, li > *')).filter((cell) => cell.getClientRects().length).map((cell) => cell.getBoundingClientRect().right))).length, {
        message: `${section}: the first record's cells`,
      })
      .toBeGreaterThan(0);
    for (const right of rightEdges) expect(right, `${section}: a cell reaches past the screen`).toBeLessThanOrEqual(390 + 1);
    expect(await coveredControls(page), `${section}: controls behind another`).toEqual([]);
  }
  // The workspaces' cards keep Switch, Add key, the public page and the snippet's copy, as touch targets.
  await expectTouchTargets(page.getByRole('table', { name: 'Workspaces of the organization' }).getByRole('button'));
  await goTo(page, 'Posts');
  // The posts' cards keep each post's controls, as touch targets.
  const posts = page.getByRole('table', { name: 'Published posts' });
  await expectTouchTargets(posts.getByRole('link', { name: /^Open / }));
  await page.getByRole('button', { name: 'Filters', exact: true }).tap();
  await expect(page.getByRole('search', { name: /filter/i })).toBeVisible();
  await checkAccessibility(page, 'phone-posts');
});

test('imports a CSV on a phone: the dialog, its mapping and its plan fit the screen, and the job creates the contact, reported on the jobs page', async ({ page, connect, baseURL }) => {
  const workspace = await makeWorkspace('Phone import');
  await connect(workspace.key);
  await page.getByRole('button', { name: 'Import', exact: true }).tap();
  const dialog = page.getByRole('dialog', { name: 'Import contacts' });
  const csv = [
    'Email Address,First Name,Last Name,Phone Number,TAGS,Address,City,Notes about this person that run long',
    'kari.nordmann@a-rather-long-domain-name.example,Kari,Nordmann,912 34 567,"vip, runner",Storgata 1,Oslo,Met at the spring fair',
    'not-an-email,Bad,Row,,,,,',
  ].join('\r\n');
  await dialog.getByLabel('CSV or Excel file').setInputFiles({ name: 'phone-export.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  const check = dialog.getByRole('button', { name: 'Check 2 rows' });
  await expect(check).toBeVisible();
  expect((await dialog.boundingBox())!.width).toBeLessThanOrEqual(390);
  await expectNoSidewaysScroll(page);
  await dialog.getByRole('combobox', { name: 'Default country for phone numbers' }).selectOption('NO');
  await expectTouchTargets(check);
  await check.tap();

  // The plan, in the singular where it counts one.
  const start = dialog.getByRole('button', { name: 'Start import (1 request)' });
  await expect(start).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toContainText('The import will send 1 request.');
  await expect(dialog.getByRole('table')).toContainText("email 'not-an-email' is not a valid email address");
  await expectNoSidewaysScroll(page);
  await expectTouchTargets(dialog.getByRole('button', { name: /^(Download refused rows|Back to mapping|Start import)/ }));
  await checkAccessibility(page, 'phone-import-plan');
  await start.tap();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect
    .poll(async () => (await api(baseURL!, workspace.key, 'GET', `/contacts?%24filter=${encodeURIComponent("email eq 'kari.nordmann@a-rather-long-domain-name.example'")}`)).body.items[0], { timeout: 30_000 })
    .toMatchObject({ name: 'Kari Nordmann', phone: '+4791234567', source: 'phone-export.csv' });

  // The jobs page: the job's entry and its report fit the screen too.
  await goTo(page, 'Jobs');
  const entry = page.getByRole('article').filter({ has: page.getByRole('heading', { name: 'Import phone-export.csv', exact: true }) });
  await expect(entry.getByTestId('job-state')).toHaveText('Finished', { timeout: 30_000 });
  await expect(entry.getByRole('button', { name: /: 1 created \(CSV\)$/ })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectTouchTargets(entry.getByRole('button'));
  await checkAccessibility(page, 'phone-jobs');
});
