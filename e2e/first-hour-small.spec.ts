/**
 * Issue 34 point 10, the smaller things, at the keyboard: the composer's time-zone search finds a zone by its city
 * as people write it ("New York"), and in the contacts’ Tags filter Enter picks the highlighted tag, also one typed while the list was loading.
 */
import { expect, makeWorkspace, test } from './fixtures';
import { fetchApi } from './server';

test('the time-zone search finds "New York" and "Eastern"', async ({ page, connect }) => {
  const workspace = await makeWorkspace('Zone search');
  await connect(workspace.key, { path: 'posts/new' });
  await page.getByRole('radio', { name: 'Schedule' }).check();
  const zone = page.getByRole('combobox', { name: 'Time zone' });
  await zone.click();
  await zone.fill('New York');
  await expect(page.getByRole('option', { name: 'America/New_York' })).toBeVisible();
  await page.getByRole('option', { name: 'America/New_York' }).click();
  await expect(zone).toHaveValue('America/New_York');
  await zone.click();
  await zone.fill('Eastern Standard');
  await expect(page.getByRole('option', { name: 'America/New_York' })).toBeVisible();
});

/** A new workspace `name` with two contacts, one tagged `lead` and one `customer`. */
async function leadAndCustomer(baseURL: string, name: string) {
  const workspace = await makeWorkspace(name);
  for (const [person, tags] of [['Tagged One', ['lead']], ['Tagged Two', ['customer']]] as const) {
    const body = JSON.stringify({ name: person, email: `${person.replace(' ', '.').toLowerCase()}@example.com`, tags, addDirectly: true });
    const response = await fetchApi(`${baseURL}/api/contacts`, { method: 'POST', headers: { 'x-api-key': workspace.key, 'content-type': 'application/json' }, body });
    expect(response.status).toBe(201);
  }
  return workspace;
}

test('in the Tags filter, Enter picks the highlighted tag', async ({ page, connect, baseURL }) => {
  const workspace = await leadAndCustomer(baseURL!, 'Tag enter');
  await connect(workspace.key);
  const tags = page.getByRole('combobox', { name: 'Tags' });
  await tags.click();
  // The list loads when the field opens (typed before it arrives: the test below).
  await expect(page.getByRole('option', { name: /^customer \(/ })).toBeVisible();
  // Typing highlights the first tag it matches; Enter takes it.
  await tags.pressSequentially('lea');
  await expect(page.getByRole('option', { name: /^lead \(/ })).toBeVisible();
  await expect(page.locator('[role=option][data-combobox-selected]')).toHaveText(/^lead \(/);
  await tags.press('Enter');
  await expect(page).toHaveURL(/tags=lead/);
  await expect(page.getByRole('table', { name: 'Contacts' }).locator('tbody tr')).toHaveCount(1);
  // The arrow keys move the highlight; Enter takes the highlighted one.
  await tags.press('ArrowDown');
  await expect(page.getByRole('option', { name: /^customer \(/ })).toBeVisible();
  await tags.press('ArrowDown');
  const highlighted = page.locator('[role=option][data-combobox-selected]');
  await expect(highlighted).toHaveCount(1);
  const name = (await highlighted.innerText()).split(' (')[0]!;
  await tags.press('Enter');
  await expect(page).toHaveURL(new RegExp(`tags=[^&]*${name}`));
});

test('in the Tags filter, a tag typed while the list is still loading is taken by Enter once it shows', async ({ page, connect, baseURL }) => {
  const workspace = await leadAndCustomer(baseURL!, 'Tag race');
  await connect(workspace.key);
  // The real service's answer, held back in the browser: the person types before the list arrives.
  await page.route('**/api/contacts/contacts-tags*', async (route) => {
    await new Promise((done) => setTimeout(done, 3000));
    await route.continue();
  });
  const tags = page.getByRole('combobox', { name: 'Tags' });
  await tags.click();
  // Typed into the field itself, not into its read-only stand-in, which the first click replaces once the field's code
  // has loaded (CI once typed into the stand-in); the list is asked for when the field opens and held 3 s.
  await expect(tags).toBeEditable();
  await tags.pressSequentially('lea');
  await expect(page.getByRole('option', { name: /^lead \(/ })).toBeVisible();
  await tags.press('Enter');
  await expect(page).toHaveURL(/tags=lead/);
  await expect(page.getByRole('table', { name: 'Contacts' }).locator('tbody tr')).toHaveCount(1);
});

test('letters typed into the Tags filter before its code has loaded are in the field once it has', async ({ page, connect, baseURL }) => {
  const workspace = await leadAndCustomer(baseURL!, 'Tag stand-in');
  await connect(workspace.key);
  await expect(page.getByRole('table', { name: 'Contacts' }).locator('tbody tr')).toHaveCount(2);
  // The code loaded at the first interaction arrives 2 s late, so the keys reach the read-only stand-in first.
  await page.route('**/assets/*.js', async (route) => {
    await new Promise((done) => setTimeout(done, 2000));
    await route.continue();
  });
  const tags = page.getByRole('combobox', { name: 'Tags' });
  await tags.click();
  await expect(tags).not.toBeEditable();
  await tags.pressSequentially('leax');
  await tags.press('Backspace');
  await expect(tags).toBeEditable();
  await expect(tags).toHaveValue('lea');
  await expect(page.getByRole('option', { name: /^lead \(/ })).toBeVisible();
  await tags.press('Enter');
  await expect(page).toHaveURL(/tags=lead/);
});

