/** Connecting (issue 4): a pasted key, a wrong key, the demo in one click, remembering, removing. */
import { checkAccessibility, expect, test } from './fixtures';

test('connects with a pasted key in one click: checks it, opens the workspace and shows what the key allows', async ({ page, state }) => {
  const workspace = state.demo.workspaces[1]!;
  const checks: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/authorization') checks.push(request.headers()['x-api-key'] ?? '');
  });
  await page.goto('/connect');
  await page.getByLabel('API key', { exact: true }).fill(workspace.key);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  // Our service names `stats`: connecting lands on the overview (issue 35 point 5).
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.id}$`));
  expect(checks[0]).toBe(workspace.key);
  const connected = page.getByRole('status').filter({ hasText: `Connected to ${workspace.name}` });
  // In words (issue 34 point 9), not the scope names; the key menu says the same per resource.
  await expect(connected).toContainText('With this key you can see and change contacts, see and change products, see and publish posts, and add contacts and list the workspaces.');
  await expect(connected).not.toContainText(/read-write|contacts:/);
  await page.getByRole('button', { name: 'Key and permissions' }).click();
  const permissions = page.getByRole('dialog', { name: 'Key and permissions' }).getByRole('table', { name: 'Permissions of this key' });
  await expect(permissions.getByRole('row', { name: 'Contacts see and change contacts' })).toBeVisible();
  await expect(permissions.getByRole('row', { name: 'Workspaces and sign-ups add contacts and list the workspaces' })).toBeVisible();
  await expect(permissions).not.toContainText(/read-write|read-only/);
  await page.getByRole('button', { name: 'Key and permissions' }).click();
  await connected.getByRole('button', { name: 'Dismiss' }).click();
  await expect(connected).toHaveCount(0);
  expect(await page.evaluate(() => sessionStorage.getItem('workspace-admin.connections'))).toContain(workspace.key);
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await expect(page.getByRole('group', { name: 'All contacts', exact: true })).toContainText('300');
});

test('refuses a wrong key with a clear error and saves nothing', async ({ page }) => {
  await page.goto('/connect');
  await page.getByLabel('API key', { exact: true }).fill('wsk_0000000000000000000000000000000000000000');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Could not connect' });
  await expect(alert).toContainText('The service refused this key. Check that it is complete and not revoked.');
  await expect(alert).toContainText('Nothing was saved.');
  await expect(page).toHaveURL(/\/connect$/);
  expect(await page.evaluate(() => [sessionStorage.getItem('workspace-admin.connections'), localStorage.getItem('workspace-admin.connections')])).toEqual([null, null]);
});

test('asks for a key before sending anything', async ({ page }) => {
  await page.goto('/connect');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByText('Enter an API key')).toBeVisible();
});

test('connects to a demo workspace in one click', async ({ page, state }) => {
  const workspace = state.demo.workspaces[2]!;
  await page.goto('/connect');
  await page.getByRole('button', { name: `Connect to ${workspace.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.id}$`));
  await expect(page.getByRole('group', { name: 'All contacts', exact: true })).toContainText('200');
});

test('remembers a key on this device only when asked, and removes it', async ({ page, state, connect, context }) => {
  const workspace = state.demo.workspaces[0]!;
  await connect(workspace.key, { remember: true, through: 'connect-page' });
  expect(await page.evaluate(() => localStorage.getItem('workspace-admin.connections'))).toContain(workspace.id);
  const second = await context.newPage();
  await second.goto(`/w/${workspace.id}/contacts`);
  await expect(second.getByRole('heading', { name: 'Contacts', level: 1 })).toBeVisible();
  await page.goto('/connect');
  await page.getByRole('button', { name: `Remove the key for ${workspace.name}` }).click();
  await expect(page.getByRole('table', { name: 'Saved keys' })).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('workspace-admin.connections'))).toBe('[]');
});

test('the connect page has no serious accessibility violations', async ({ page }) => {
  await page.goto('/connect');
  await expect(page.getByRole('heading', { name: 'Connect to a workspace' })).toBeVisible();
  await checkAccessibility(page, 'connect');
});
