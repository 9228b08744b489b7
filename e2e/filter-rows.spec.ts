/**
 * The contacts list's Advanced box as rows (issue 34 point 9): a filter built from field/operator/value rows is the
 * `$filter` text beside them, applies as the text does, and finds the right contacts; text the rows cannot say is
 * said so. Against the real server, in a workspace of its own.
 */
import { fetchApi } from './server';
import { readState } from './state';
import { type Workspace, checkAccessibility, expect, makeWorkspace, test } from './fixtures';

let ws: Workspace;

test.beforeAll(async () => {
  ws = await makeWorkspace('Filter rows');
  const people = [
    { name: 'Ann Active Oslo', city: 'Oslo', addDirectly: true },
    { name: 'Bob Pending Oslo', city: 'Oslo' },
    { name: 'Cid Active Bergen', city: 'Bergen', addDirectly: true },
    { name: 'Dee Active Rosendal', city: 'Rosendal', addDirectly: true },
  ];
  const response = await fetchApi(`${readState().baseURL}/api/contacts/batch`, {
    method: 'POST',
    headers: { 'x-api-key': ws.key, 'content-type': 'application/json' },
    body: JSON.stringify({ items: people.map((person, i) => ({ ...person, email: `rows${i}@spec.test` })) }),
  });
  expect(response.status).toBe(200);
});

test.beforeEach(async ({ connect }) => {
  await connect(ws.key);
});

test('a filter built from rows is the $filter beside them, applies, and finds the right contacts', async ({ page }) => {
  const table = page.getByRole('table', { name: 'Contacts' });
  await expect(table.locator('tbody tr')).toHaveCount(4);
  await page.getByRole('button', { name: 'Advanced' }).click();

  const first = page.getByRole('group', { name: 'Condition 1' });
  await expect(first.getByLabel('Field')).toHaveValue('state');
  await first.getByLabel('Value').selectOption({ label: 'Active' });
  const text = page.getByLabel('Filter expression ($filter)');
  await expect(text).toHaveValue("state eq 'active'");

  await page.getByRole('button', { name: 'Add a condition' }).click();
  const second = page.getByRole('group', { name: 'Condition 2' });
  await second.getByLabel('Field').selectOption({ label: 'City' });
  await second.getByLabel('Comparison').selectOption({ label: 'contains' });
  await second.getByLabel('Value').fill('Os');
  await expect(text).toHaveValue("state eq 'active' and city like 'Os'");
  await expect(page.getByLabel('Show contacts that match')).toHaveValue('and');

  await checkAccessibility(page, 'advanced-filter-rows', { include: '[role="search"]' });

  await page.getByRole('button', { name: 'Apply filter' }).click();
  await expect(page).toHaveURL(/filter=/);
  // `like` ignores case and matches inside the word (docs/decisions.md section 6): Oslo and Rosendal, active ones only.
  await expect(table.locator('tbody tr')).toHaveCount(2);
  await expect(table.getByText('Ann Active Oslo')).toBeVisible();
  await expect(table.getByText('Dee Active Rosendal')).toBeVisible();
  // The box, started again from the applied filter, shows the same text and the same rows.
  await expect(text).toHaveValue("state eq 'active' and city like 'Os'");
  await expect(page.getByRole('group', { name: 'Condition 2' }).getByLabel('Value')).toHaveValue('Os');

  // "Any of" joins with or; the text is written again.
  await page.getByLabel('Show contacts that match').selectOption({ label: 'any of the conditions' });
  await expect(text).toHaveValue("state eq 'active' or city like 'Os'");
});

test('text the rows cannot say is edited as text, and text they can say fills them', async ({ page }) => {
  await page.getByRole('button', { name: 'Advanced' }).click();
  const text = page.getByLabel('Filter expression ($filter)');
  await text.fill("not state eq 'active'");
  await expect(page.getByText('This filter can only be edited as text', { exact: false })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Condition 1' })).toHaveCount(0);
  await text.fill("tags eq 'vip' or created gt '2024-05-01'");
  await expect(page.getByRole('group', { name: 'Condition 1' }).getByLabel('Comparison')).toHaveValue('eq');
  await expect(page.getByRole('group', { name: 'Condition 1' }).getByLabel('Tag')).toHaveValue('vip');
  await expect(page.getByRole('group', { name: 'Condition 2' }).getByLabel('Date')).toHaveValue('2024-05-01');
  await expect(page.getByLabel('Show contacts that match')).toHaveValue('or');
});
