/**
 * The header's search across workspaces and "everything about this person" (issue 24 points 6 and 7), against the
 * real server with several workspaces whose keys the console holds: a person created through the API in two of
 * three workspaces is found in those two and not in the third, a workspace whose key cannot read contacts says so,
 * a result opens that contact's record, and the person's JSON and CSV files hold both records, workspace named.
 */
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { checkAccessibility, expect, makeWorkspace, test, type Workspace } from './fixtures';

async function createContact(request: APIRequestContext, workspace: Workspace, body: Record<string, unknown>): Promise<string> {
  const response = await request.post('/api/contacts', { headers: { 'x-api-key': workspace.key }, data: body });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function openSearch(page: Page) {
  await page.getByRole('button', { name: 'Search people in every workspace' }).click();
  return page.getByRole('dialog', { name: 'Find a person in every workspace' });
}

test('a person made in two of three workspaces is found in those two, and their export holds both records', async ({ page, request, connect }) => {
  test.setTimeout(300_000); // four workspaces made through the operator command line, four keys connected
  const tag = randomUUID().slice(0, 8);
  const north = await makeWorkspace('Search North');
  const south = await makeWorkspace('Search South');
  const west = await makeWorkspace('Search West');
  const closed = await makeWorkspace('Search Closed', 'posts:read-only');
  const email = `ingrid.${tag}@example.com`;
  const name = `Ingrid Searchable ${tag}`;
  const northId = await createContact(request, north, { name, email, phone: '+4791234567', tags: ['donor'] });
  await createContact(request, south, { name, email, tags: ['=cmd|calc'], city: 'Faro' });
  await createContact(request, west, { name: `Someone Else ${tag}`, email: `else.${tag}@example.com` });
  for (const workspace of [closed, west, south, north]) await connect(workspace.key);

  const dialog = await openSearch(page);
  await dialog.getByLabel('Name, email or phone').fill(`Ingrid Searchable ${tag}`);
  await dialog.getByLabel('Name, email or phone').press('Enter');
  const results = dialog.getByRole('region', { name: 'Results by workspace' });
  const group = (workspace: Workspace) => results.getByRole('region', { name: workspace.name });
  await expect(group(north).getByRole('link', { name })).toBeVisible();
  await expect(group(south).getByRole('link', { name })).toBeVisible();
  await expect(group(west)).toContainText('No one found.');
  await expect(group(closed)).toContainText('This key cannot read contacts');
  await checkAccessibility(page, 'people-search', { include: '[role="dialog"]' });

  // Everything about this person: both records, the workspaces named, the deletion note.
  await group(north).getByRole('button', { name: `Everything about ${name}` }).click();
  await expect(dialog.getByRole('list', { name: 'Found in', exact: true })).toContainText(north.name);
  await expect(dialog.getByRole('list', { name: 'Found in', exact: true })).toContainText(south.name);
  await expect(dialog.getByRole('list', { name: 'Not found in', exact: true })).toContainText(west.name);
  await expect(dialog.getByText(/choose Erase/).first()).toBeVisible();
  const [json] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download JSON' }).click()]);
  const file = JSON.parse(readFileSync((await json.path())!, 'utf8')) as { records: { workspaceName: string; email: string; tags: string[]; notificationSettings: unknown }[]; foundIn: unknown[] };
  expect(file.records.map((record) => record.workspaceName).sort()).toEqual([north.name, south.name].sort());
  expect(file.records.every((record) => record.email === email && record.notificationSettings !== undefined)).toBe(true);
  expect(file.foundIn).toHaveLength(2);
  const [csv] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download CSV' }).click()]);
  const text = readFileSync((await csv.path())!, 'utf8');
  const lines = text.trim().split('\r\n');
  expect(lines).toHaveLength(3);
  expect(lines[0]!.startsWith('workspaceId,workspaceName,')).toBe(true);
  expect(text).toContain(north.name);
  expect(text).toContain(south.name);
  expect(text).not.toMatch(/(^|,)=cmd/m); // the tag cell is JSON (["=cmd|calc"]), and a leading = would be guarded

  // A result opens that contact's record in its workspace.
  await dialog.getByRole('button', { name: 'Back to the results' }).click();
  await group(north).getByRole('link', { name }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${north.id}/contacts/${northId}$`));
  await expect(page.getByRole('dialog').getByText(email).first()).toBeVisible();
});
