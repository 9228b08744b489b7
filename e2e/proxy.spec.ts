/**
 * Proxy mode in the browser (issue 15): a second server with `UPSTREAM_API_URL` in front of the test server
 * (and a `DATABASE_URL` it could not open): connect, the contacts list, a tag edit and an export, all through
 * the proxy; and a proxy in front of the hosted-service stand-in (server/test/hosted-stand-in.ts), whose
 * 403 for a wrong key and whose wording of an unsupported API version the connect page shows, and whose 429s
 * without Retry-After the console waits out with its own backoff, saying so.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { HOSTED_KEY, HOSTED_WORKSPACE, type HostedStandIn, startHostedStandIn } from '../server/test/hosted-stand-in';
import { type Workspace, expect, makeWorkspace, test } from './fixtures';
import { type StartedServer, startService, fetchApi } from './server';
import { readState } from './state';

const NO_DATABASE = '/nonexistent/proxy-mode-opens-no-database.sqlite';
let proxy: StartedServer;
let hosted: HostedStandIn;
let hostedProxy: StartedServer;
let ws: Workspace;

test.beforeAll(async () => {
  const state = readState();
  [proxy, hosted] = await Promise.all([startService(NO_DATABASE, { UPSTREAM_API_URL: `${state.baseURL}/api` }), startHostedStandIn()]);
  hostedProxy = await startService(NO_DATABASE, { UPSTREAM_API_URL: hosted.baseUrl });
  ws = await makeWorkspace('Proxy Spec');
  for (let i = 0; i < 5; i++) {
    const response = await fetchApi(`${state.baseURL}/api/contacts`, {
      method: 'POST',
      headers: { 'x-api-key': ws.key, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Proxied Person ${i}`, email: `proxied${i}@proxy.test`, tags: ['spec'] }),
    });
    expect(response.status).toBe(201);
  }
});
test.afterAll(async () => {
  await Promise.all([proxy?.stop(), hostedProxy?.stop()]);
  await hosted?.close();
});

test('connects, lists contacts, edits a tag and exports a CSV, all through the proxy', async ({ page, state }) => {
  await page.goto(`${proxy.baseURL}/connect`);
  await expect(page.getByRole('heading', { name: 'Connect to a workspace' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Demo workspaces' })).toHaveCount(0);
  await page.getByLabel('API key', { exact: true }).fill(ws.key);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  // The proxy passes our service's extensions on: connecting lands on the overview (issue 35 point 5).
  await expect(page).toHaveURL(`${proxy.baseURL}/w/${ws.id}`);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Contacts' }).click();
  await expect(page).toHaveURL(`${proxy.baseURL}/w/${ws.id}/contacts`);
  await expect(page.getByText('5 contacts')).toBeVisible();

  const rows = page.getByRole('table', { name: 'Contacts' }).locator('tbody tr');
  await rows.filter({ hasText: 'Proxied Person 3' }).click();
  const tags = page.getByRole('dialog', { name: /Proxied Person 3/ }).getByRole('combobox', { name: 'Tags' });
  await tags.fill('via-proxy');
  await tags.press('Enter');
  await expect(rows.filter({ hasText: 'Proxied Person 3' })).toContainText('via-proxy');
  await expect
    .poll(async () => {
      const filter = encodeURIComponent("email eq 'proxied3@proxy.test'");
      const response = await fetchApi(`${state.baseURL}/api/contacts?%24filter=${filter}`, { headers: { 'x-api-key': ws.key } });
      return ((await response.json()) as { items: { tags: string[] }[] }).items[0]?.tags;
    })
    .toEqual(['spec', 'via-proxy']);
  await page.getByRole('button', { name: /^Close/ }).first().click();

  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'CSV (.csv)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^contacts-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = parse(readFileSync(await file.path(), 'utf8').replace(/^\uFEFF/, '')) as string[][];
  expect(csv.slice(1).map((row) => row[1]).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `Proxied Person ${i}`));
  expect(csv.find((row) => row[1] === 'Proxied Person 3')?.[5]).toBe('spec, via-proxy');
});

test('says a hosted service refused a wrong key (403), shows its version message as worded, and connects with a good key', async ({ page }) => {
  await page.goto(`${hostedProxy.baseURL}/connect`);
  const key = page.getByLabel('API key', { exact: true });
  const alert = page.getByRole('alert').filter({ hasText: 'Could not connect' });

  await key.fill('wsk_revoked_or_wrong');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(alert).toContainText('The service refused this key.');
  await expect(alert).toContainText('HTTP 403 · GET /authorization');
  await expect(alert).toContainText('Forbidden resource');
  await expect(alert).not.toContainText('[object Object]');

  hosted.acceptedVersions = ['2025-01'];
  try {
    await key.fill(HOSTED_KEY);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(alert).toContainText('API version 2026-07 is not supported.');
  } finally {
    hosted.acceptedVersions = ['2026-07'];
  }

  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page).toHaveURL(`${hostedProxy.baseURL}/w/${HOSTED_WORKSPACE.id}/contacts`);
  await expect(page.getByRole('status').filter({ hasText: `Connected to ${HOSTED_WORKSPACE.name}` })).toBeVisible();
  await expect(alert).toHaveCount(0);
});

test('waits out a hosted 429 without Retry-After with its own backoff, says so, and shows the contacts', async ({ page }) => {
  await page.goto(`${hostedProxy.baseURL}/connect`);
  await page.getByLabel('API key', { exact: true }).fill(HOSTED_KEY);
  // The stand-in never throttles GET /authorization, so connecting (one click) checks the key and the lists wait.
  // Three 429s: the waits of 1, 2 and 4 s keep the notice up long enough to be read on a busy machine (with two,
  // it could come and go between two looks of the test).
  hosted.throttleNext = 3;
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  const notice = page.getByRole('status').filter({ hasText: 'The service is throttling requests' });
  await expect(notice).toContainText('The service did not say how long to wait, so each wait doubles, up to 60 s.');
  await expect(notice).toBeHidden({ timeout: 30_000 });
  await expect(page.getByText('1 contact', { exact: true })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Contacts' })).toContainText('Hosted Person');
  expect(hosted.throttleNext).toBe(0);
});

test('against the hosted stand-in, which has no extensions, offers none of them and keeps working (issue 22 point 10)', async ({ page }) => {
  await page.goto(`${hostedProxy.baseURL}/connect`);
  await page.getByLabel('API key', { exact: true }).fill(HOSTED_KEY);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page).toHaveURL(`${hostedProxy.baseURL}/w/${HOSTED_WORKSPACE.id}/contacts`);
  await page.getByRole('table', { name: 'Contacts' }).locator('tbody tr').filter({ hasText: 'Hosted Person' }).click();
  const drawer = page.getByRole('dialog', { name: /Hosted Person/ });
  await expect(drawer.getByText('This service does not allow erasing a contact.')).toBeVisible();
  await expect(drawer.getByText('This service does not allow correcting a contact.')).toBeVisible();
  await expect(drawer.getByRole('button', { name: /^Edit/ })).toHaveCount(0);
  await expect(drawer.getByRole('button', { name: /^Erase/ })).toHaveCount(0);
  await expect(drawer.getByRole('combobox', { name: 'Tags' })).toBeVisible();
  await page.getByRole('button', { name: /^Close/ }).first().click();
  // The selection bar offers no bulk erasure, and says so in one line.
  await page.getByRole('table', { name: 'Contacts' }).getByRole('checkbox', { name: 'Select Hosted Person' }).check();
  const bar = page.getByRole('region', { name: 'Selection' });
  await expect(bar.getByText('This service does not allow erasing contacts.')).toBeVisible();
  await expect(bar.getByRole('button', { name: /^Erase/ })).toHaveCount(0);
  await expect(bar.getByRole('button', { name: /^Tag/ })).toBeVisible();
  await page.goto(`${hostedProxy.baseURL}/w/${HOSTED_WORKSPACE.id}/posts`);
  await expect(page.getByRole('tab', { name: 'Published posts' })).toBeVisible();
  await expect(page.getByText('This service does not list scheduled or suggested posts.')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Scheduled and suggested' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Withdraw/ })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Calendar of scheduled posts' })).toHaveCount(0);
});
