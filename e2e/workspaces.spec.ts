/**
 * The workspaces page (issue 7): an organization of this spec's own (so totals are its own), listed with name
 * search, sorting and pages in the URL; each workspace's key status, Switch or Add key, public page link and a
 * copyable iframe snippet; and accessibility.
 */
import { randomUUID } from 'node:crypto';
import { cli } from './server';
import { readState } from './state';
import { checkAccessibility, expect, test } from './fixtures';

type Made = { id: string; name: string };
const tag = randomUUID().slice(0, 6);
let alpha: Made & { key: string };
let beta: Made & { key: string };
let gamma: Made;

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test.beforeAll(() => {
  test.setTimeout(120_000);
  const { databaseUrl } = readState();
  const org = cli<{ id: string }>(databaseUrl, 'org', 'create', '--name', `Org ${tag}`);
  const make = (name: string) => cli<Made>(databaseUrl, 'workspace', 'create', '--org', org.id, '--name', name);
  const a = make(`Alpha ${tag}`);
  alpha = { ...a, key: cli<{ key: string }>(databaseUrl, 'key', 'create', '--workspace', a.id, '--scope', 'all').key };
  const b = make(`Beta ${tag}`);
  beta = { ...b, key: cli<{ key: string }>(databaseUrl, 'key', 'create', '--workspace', b.id, '--scope', 'feeds:read-only,posts:read-only').key };
  gamma = make(`Gamma ${tag}`);
  // Eight more, so the organization has 11 workspaces: two pages at 10 a page.
  for (let i = 1; i <= 8; i += 1) make(`Delta ${tag} ${i}`);
});

test('lists the organization with key status, Switch, Add key, the public page and a copyable iframe snippet', async ({ page, connect, baseURL }) => {
  await connect(beta.key);
  await connect(alpha.key);
  await page.getByRole('link', { name: 'Workspaces' }).click();
  await expect(page.getByText('11 workspaces')).toBeVisible();
  const table = page.getByRole('table', { name: 'Workspaces of the organization' });
  const row = (name: string) => table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${name}`) }) });

  await expect(row(alpha.name)).toContainText('current workspace');
  await expect(row(alpha.name)).toContainText('Key saved');
  // What each key allows, in words (issue 34 point 9), never the scope names.
  await expect(row(alpha.name)).toContainText('see and change contacts, see and change products, see and publish posts, and add contacts and list the workspaces');
  await expect(row(beta.name)).toContainText('Key saved');
  await expect(row(beta.name)).toContainText('see posts and list the workspaces');
  await expect(table).not.toContainText(/read-write|read-only/);
  await expect(row(gamma.name)).toContainText('No key');
  await expect(row(gamma.name).getByRole('link', { name: `Add a key for ${gamma.name}` })).toHaveAttribute(
    'href',
    `/connect?workspace=${gamma.id}&reason=missing&return=${encodeURIComponent(`/w/${gamma.id}/workspaces`)}`,
  );
  await expect(row(gamma.name).getByRole('link', { name: `Public page of ${gamma.name}` })).toHaveAttribute('href', `/embed/${gamma.id}`);

  await row(gamma.name).getByRole('button', { name: `Copy the iframe snippet for ${gamma.name}` }).click();
  await expect(row(gamma.name).getByRole('button', { name: `Copied the iframe snippet for ${gamma.name}` })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(`<iframe src="${baseURL}/embed/${gamma.id}" title="Posts from ${gamma.name}" width="100%" height="640" style="border:0;max-width:680px" loading="lazy"></iframe>`);

  await row(beta.name).getByRole('link', { name: `Switch to ${beta.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${beta.id}/workspaces$`));
  await expect(row(beta.name)).toContainText('current workspace');
});

test('searches by name, sorts by name or creation, and pages, all kept in the URL', async ({ page, connect }) => {
  await connect(alpha.key, { path: 'workspaces?size=10' });
  const table = page.getByRole('table', { name: 'Workspaces of the organization' });
  await expect(table.getByRole('rowheader')).toHaveCount(10);
  await page.getByRole('navigation', { name: 'Pages of workspaces' }).getByRole('button', { name: 'Page 2' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(table.getByRole('rowheader')).toHaveCount(1);
  await expect(table.getByRole('rowheader')).toHaveAccessibleName(new RegExp(`^Gamma ${tag}`));

  await page.getByLabel('Sort by').selectOption({ label: 'Name Z to A' });
  await expect(page).toHaveURL(/sort=name-desc/);
  await expect(page).not.toHaveURL(/page=2/);
  await expect(table.getByRole('rowheader').first()).toHaveAccessibleName(new RegExp(`^Gamma ${tag}`));
  await page.getByLabel('Sort by').selectOption({ label: 'Oldest first' });
  await expect(table.getByRole('rowheader').first()).toHaveAccessibleName(new RegExp(`^Alpha ${tag}`));

  await page.getByLabel('Search by name').fill(`Delta ${tag} 7`);
  await expect(page.getByText('1 workspace match')).toBeVisible();
  await expect(page).toHaveURL(/q=Delta/);
  await page.goBack();
  await expect(page.getByText('11 workspaces')).toBeVisible();

  // A bad URL falls back to the defaults.
  await page.goto(`/w/${alpha.id}/workspaces?sort=upside-down&page=-4&size=3`);
  await expect(table.getByRole('rowheader').first()).toHaveAccessibleName(new RegExp(`^Alpha ${tag}`));
  await expect(page.getByLabel('Workspaces per page')).toHaveValue('20');
});

test('workspaces page accessibility', async ({ page, connect }) => {
  await connect(alpha.key, { path: 'workspaces' });
  await expect(page.getByText('11 workspaces')).toBeVisible();
  await checkAccessibility(page, 'workspaces');
});
