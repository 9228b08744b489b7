/**
 * How fast one tab's job runner erases contacts (issue 22 point 7: a bulk erasure of a whole filter), in Debian's
 * Chromium against the real service:
 *
 *   npm run build && npx tsx bench/bulk-erase.ts [--rows N]
 *
 * Starts the service (e2e/server.ts, no rate limit) on a fresh SQLite file, makes a workspace and a key through the
 * operator command line, creates N contacts tagged `leaving` (default 2,000) and 10 others, then, as a person would,
 * selects "all N matching" on the contacts page, types the count and starts the erasure; reads the finished job's
 * record from IndexedDB: the time to find the contacts (dialog), the time from its run's start to its end, erasures
 * a second. The service's own cost per erasure (secure_delete, WAL checkpoint) is bench/erasure.ts's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { cli, startService } from '../e2e/server';
import { waitForFinishedJob } from './stored-jobs';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '2000' } } });

async function main() {
  const rows = Number(values.rows);
  const dir = mkdtempSync(join(tmpdir(), 'wsa-erase-'));
  const databaseUrl = join(dir, 'bench.sqlite');
  const demo = cli<{ organization: { id: string } }>(databaseUrl, 'demo', 'seed');
  const workspace = cli<{ id: string }>(databaseUrl, 'workspace', 'create', '--org', demo.organization.id, '--name', 'Erasure');
  const { key } = cli<{ key: string }>(databaseUrl, 'key', 'create', '--workspace', workspace.id, '--scope', 'all');
  const server = await startService(databaseUrl, { RATE_LIMIT_PER_MINUTE: '0', DEMO_SEED: 'off' });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const create = (body: Record<string, unknown>) =>
      fetch(`${server.baseURL}/api/contacts`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((response) => {
        if (response.status !== 201) throw new Error(`POST /contacts answered ${response.status}`);
      });
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < rows) {
          const i = next++;
          await create({ name: `Leaving ${i}`, email: `leaving${i}@erasure.test`, city: 'Tromsø', tags: ['leaving'] });
        }
      }),
    );
    for (let i = 0; i < 10; i++) await create({ name: `Staying ${i}`, tags: ['staying'] });

    const page = await browser.newPage();
    await page.goto(`${server.baseURL}/connect`);
    await page.getByLabel('API key', { exact: true }).fill(key);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.waitForURL(/\/contacts/);
    await page.goto(`${server.baseURL}/w/${workspace.id}/contacts?tags=leaving&size=10`);
    const count = rows.toLocaleString('en');
    await page.getByText(`${count} matching contacts`).waitFor();
    await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
    const bar = page.getByRole('region', { name: 'Selection' });
    await bar.getByRole('button', { name: `Select all ${count} matching` }).click();
    await bar.getByRole('button', { name: `Erase all ${count} matching…` }).click();
    const dialog = page.getByRole('dialog', { name: `Erase ${count} contacts?` });
    await dialog.getByLabel(`Type ${count} to confirm`).fill(String(rows));
    const clicked = Date.now();
    await dialog.getByRole('button', { name: `Erase ${count} contacts` }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 600_000 });
    const found = (Date.now() - clicked) / 1000;
    const load = loadavg()[0]!;
    const job = await waitForFinishedJob(page);
    const seconds = (job.finishedAt - job.runStartedAt) / 1000;
    const left = await fetch(`${server.baseURL}/api/contacts?%24limit=1`, { headers: { 'x-api-key': key } }).then((response) => response.json() as Promise<{ meta: { maxResults: number } }>);
    console.log(`One tab, ${count} erasures of a whole filter, RATE_LIMIT_PER_MINUTE=0, SQLite, load average ${load.toFixed(1)}:`);
    console.log(`found in the dialog in ${found.toFixed(1)} s; ${job.counts.erased?.toLocaleString('en')} erased, ${job.counts.alreadyErased ?? 0} already erased, ${job.counts.failed} failed in ${seconds.toFixed(1)} s: ${Math.round(job.total / seconds).toLocaleString('en')} erasures a second; ${left.meta.maxResults} contacts left`);
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
