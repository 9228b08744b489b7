/**
 * How fast one tab's job runner creates contacts (issue 20 point 6: at least 500 a second with
 * `RATE_LIMIT_PER_MINUTE=0`), in Debian's Chromium against the real service:
 *
 *   npm run build && npx tsx bench/jobs-throughput.ts [--rows N]
 *
 * Starts the service (e2e/server.ts, no rate limit) on a fresh SQLite file, makes a workspace and a key through the
 * operator command line, imports a CSV of N new contacts (default 5,000) through the contacts page's import, and
 * reads the finished job's record from IndexedDB: steps, the time from its run's start to its end, creates a
 * second. Beside it, the service's own POST /contacts throughput is bench/contact-create.ts's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { cli, startService } from '../e2e/server';
import { waitForFinishedJob } from './stored-jobs';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '5000' } } });

async function main() {
  const rows = Number(values.rows);
  const dir = mkdtempSync(join(tmpdir(), 'wsa-jobs-'));
  const databaseUrl = join(dir, 'bench.sqlite');
  const demo = cli<{ organization: { id: string } }>(databaseUrl, 'demo', 'seed');
  const workspace = cli<{ id: string }>(databaseUrl, 'workspace', 'create', '--org', demo.organization.id, '--name', 'Throughput');
  const { key } = cli<{ key: string }>(databaseUrl, 'key', 'create', '--workspace', workspace.id, '--scope', 'all');
  const server = await startService(databaseUrl, { RATE_LIMIT_PER_MINUTE: '0', DEMO_SEED: 'off' });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    await page.goto(`${server.baseURL}/connect`);
    await page.getByLabel('API key', { exact: true }).fill(key);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.waitForURL(/\/contacts/);
    const csv = ['email,name', ...Array.from({ length: rows }, (_, i) => `bench${i}@throughput.test,Bench ${i}`)].join('\n');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Import contacts' });
    await dialog.getByLabel('CSV or Excel file').setInputFiles({ name: 'bench.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByRole('button', { name: `Check ${rows.toLocaleString('en')} rows` }).click();
    await dialog.getByRole('button', { name: /^Start import/ }).click({ timeout: 120_000 });
    const load = loadavg()[0]!;
    const job = await waitForFinishedJob(page);
    const seconds = (job.finishedAt - job.runStartedAt) / 1000;
    console.log(`One tab, ${job.total.toLocaleString('en')} creates, RATE_LIMIT_PER_MINUTE=0, SQLite, load average ${load.toFixed(1)}:`);
    console.log(`${job.counts.created?.toLocaleString('en')} created in ${seconds.toFixed(1)} s: ${Math.round(job.total / seconds).toLocaleString('en')} creates a second`);
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
