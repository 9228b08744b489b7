/**
 * What driving a page through Playwright costs the page (`npx tsx bench/devtools-cost.ts [--requests N] [--rounds R]`),
 * the reason bench/import.ts drives Chromium over a bare DevTools pipe (bench/cdp-browser.ts). Over the 1,000,000
 * seeded contacts (bench/seeded-file.ts), a page of the service sends N (default 1,000) `GET /contacts` with an
 * `email in (...)` filter, 4 at a time, from a script evaluated in the page; once in a Chromium launched by
 * Playwright, once in one driven over the bare pipe, alternated R times (default 2). Prints a markdown table: the
 * time the requests took, and the CPU time of the renderer, the network process, the browser process and the
 * service meanwhile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { cpuByProcess, launchCdp } from './cdp-browser';
import { seededFile } from './seeded-file';
import { startServer } from './server-process';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { requests: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '2' } } });
const requests = Number(values.requests);
const rounds = Number(values.rounds);

/** The page's script: `requests` look-ups, 4 at a time; resolves to the milliseconds they took. */
const lookups = (apiKey: string) => `(async () => {
  const started = performance.now();
  let next = 0;
  const one = async () => {
    while (next < ${requests}) {
      const i = next++;
      const filter = encodeURIComponent("email in ('a" + i + "@example.org','b" + i + "@example.org')");
      await (await fetch('/api/contacts?$limit=100&$filter=' + filter, { headers: { authorization: 'Bearer ${apiKey}' } })).json();
    }
  };
  await Promise.all([one(), one(), one(), one()]);
  return performance.now() - started;
})()`;

const dir = mkdtempSync(join(tmpdir(), 'wsa-bench-devtools-'));
const seeded = await seededFile(dir, 1_000_000, { cacheDir: join(tmpdir(), 'wsa-bench-seeded'), log: (line) => process.stderr.write(`${line}\n`) });
const server = await startServer({ cwd: ROOT, databaseUrl: seeded.file, apiKey: seeded.apiKey });
const rows: string[] = [];
try {
  for (let round = 1; round <= rounds; round++) {
    for (const driver of ['Playwright', 'bare pipe'] as const) {
      let pid: number;
      let evaluate: (expression: string) => Promise<number>;
      let close: () => Promise<void>;
      if (driver === 'Playwright') {
        // A browser server, for its process id; the page is driven over Playwright's connection as `launch` does.
        const launched = await chromium.launchServer({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
        const browser = await chromium.connect(launched.wsEndpoint());
        const page = await browser.newPage();
        await page.goto(`${server.origin}/app-config.json`);
        pid = launched.process().pid!;
        evaluate = (expression) => page.evaluate(expression) as Promise<number>;
        close = async () => {
          await browser.close();
          await launched.close();
        };
      } else {
        const page = await launchCdp();
        await page.send('Page.navigate', { url: `${server.origin}/app-config.json` });
        await page.waitFor(`document.readyState === 'complete' && location.pathname === '/app-config.json'`, 'the page');
        pid = page.pid;
        evaluate = (expression) => page.evaluate<number>(expression);
        close = () => page.close();
      }
      const before = cpuByProcess(pid, server.servingPid);
      const ms = await evaluate(lookups(seeded.apiKey));
      const after = cpuByProcess(pid, server.servingPid);
      const seconds = (key: keyof typeof after) => ((after[key] - before[key]) / 1000).toFixed(1);
      rows.push(`| ${round} | ${driver} | ${(ms / 1000).toFixed(1)} s | ${seconds('renderer')} s | ${seconds('network')} s | ${seconds('browser')} s | ${seconds('service')} s |`);
      await close();
    }
  }
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`\n${requests.toLocaleString('en-US')} GET /contacts from a page, 4 at a time, 1,000,000 contacts; 1-minute load average ${loadavg()[0]!.toFixed(1)} at the end\n`);
console.log('| round | driver | the requests took | renderer CPU | network CPU | browser CPU | service CPU |');
console.log('|---|---|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
