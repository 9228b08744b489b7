/**
 * A busy export service (issue 16, console; issue 12 point 10): against a real server of its own running
 * `EXPORT_CONCURRENCY=1`, with one export held open by a slow reader from the test (a CSV of 20,000 contacts it
 * never reads, far more than the sockets buffer), the console's Export waits out the 503 and its `Retry-After`
 * with a countdown and its place in the service's export queue (issue 21 point 2), can be cancelled while
 * waiting, and downloads the file by itself once its turn comes.
 */
import { type ClientRequest, request as httpRequest } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedContacts } from '../bench/seed-contacts';
import { checkAccessibility, expect, test } from './fixtures';
import { type StartedServer, cli, startService } from './server';

const CONTACTS = 60_000; // a CSV of about 13 MB: more than a loopback socket's buffers hold (about 4.5 MB for 20,000 let a held export finish on CI)
let busy: StartedServer;
let dir: string;
let workspace: { id: string; key: string };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = mkdtempSync(join(tmpdir(), 'wsa-e2e-busy-'));
  const databaseUrl = join(dir, 'busy.sqlite');
  const organization = cli<{ id: string }>(databaseUrl, 'org', 'create', '--name', 'Busy Exports');
  const created = cli<{ id: string }>(databaseUrl, 'workspace', 'create', '--org', organization.id, '--name', 'Busy Exports');
  const { key } = cli<{ key: string }>(databaseUrl, 'key', 'create', '--workspace', created.id, '--scope', 'all');
  seedContacts(databaseUrl, created.id, CONTACTS);
  workspace = { id: created.id, key };
  busy = await startService(databaseUrl, { EXPORT_CONCURRENCY: '1', DEMO_SEED: 'off' });
});
test.afterAll(async () => {
  await busy?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Starts a CSV export on `busy` and never reads past its first bytes: it holds the server's one export slot. */
async function holdExport(): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${busy.baseURL}/api/contacts`, { headers: { 'x-api-key': workspace.key, accept: 'text/csv' } }, (response) => {
      response.pause();
      if (response.statusCode === 200) resolve(request);
      else reject(new Error(`the held export answered ${response.statusCode}`));
    });
    request.on('error', () => {});
    request.end();
  });
}

test('waits out a busy export service with a countdown and its place in the queue, can cancel, and downloads once its turn comes', async ({ page }) => {
  test.setTimeout(120_000);
  const held = await holdExport();

  await page.goto(`${busy.baseURL}/connect`);
  await page.getByLabel('API key', { exact: true }).fill(workspace.key);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  // Connecting lands on the overview where the service names `stats` (issue 35 point 5).
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.id}$`));
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Contacts' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${workspace.id}/contacts`));
  await expect(page.getByText(`${CONTACTS.toLocaleString('en-US')} contacts`)).toBeVisible();

  const exportCsv = async () => {
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByRole('menuitem', { name: 'CSV (.csv)' }).click();
  };
  const dialog = page.getByRole('dialog', { name: /Exporting/ });

  // First in the queue; cancelled while waiting: no error, no download.
  await exportCsv();
  await expect(dialog.getByText(/^Your export is next in line; trying again in \d+ s$/)).toBeVisible();
  await checkAccessibility(page, 'export-queued', { include: '[role="dialog"]' });
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByText('Export cancelled.')).toBeVisible();
  await expect(dialog).toBeHidden();

  // Asked again: behind the cancelled export's place (kept until its ticket lapses), counting down.
  await exportCsv();
  const countdown = dialog.getByText(/^Your export is number 2 in line; trying again in \d+ s$/);
  await expect(countdown).toBeVisible();
  const first = await countdown.textContent();
  await expect(countdown).not.toHaveText(first ?? '', { timeout: 3_000 });
  // The held export goes; the cancelled place lapses; this one's turn comes and it downloads by itself.
  const download = page.waitForEvent('download', { timeout: 90_000 });
  held.destroy();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^contacts-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = readFileSync(await file.path(), 'utf8');
  expect(text.split('\r\n').length - 2).toBe(CONTACTS); // header, then one line per contact, then the final CRLF
  await expect(page.getByText(`Exported ${CONTACTS.toLocaleString('en-US')} contacts`)).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});
