/**
 * What a request leaves behind in a Chromium tab (`npx tsx bench/request-garbage.ts [--requests N] [--rounds R]`,
 * issue 20 point 6; the reason src/features/contacts/import/lookup-workers.ts ends its look-up workers as it goes).
 * Against the service on the 2,000 seeded contacts (bench/seeded-file.ts), a page driven over the bare DevTools pipe
 * (bench/cdp-browser.ts) sends R rounds (default 4) of N (default 1,100) look-ups (bench/page-lookups.ts: `GET
 * /contacts` with an `email in (...)` filter of 55 values, 6 at a time, as the import's look-ups are sent). After each round it prints the renderer's
 * private footprint (bench/server-process.ts `readResidentAndFootprint`); then it forces a full garbage collection
 * (CDP `HeapProfiler.collectGarbage`) and prints it again: what the collection gives back is what the requests left
 * for it. The same is seen from a dedicated worker, and with XMLHttpRequest instead of fetch (measured 2026-11-26,
 * docs/benchmarks.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { launchCdp, pageRenderer } from './cdp-browser';
import { pageLookups } from './page-lookups';
import { seededFile } from './seeded-file';
import { startServer } from './server-process';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { requests: { type: 'string', default: '1100' }, rounds: { type: 'string', default: '4' } } });
const requests = Number(values.requests);
const rounds = Number(values.rounds);
if (!Number.isInteger(requests) || requests < 1 || !Number.isInteger(rounds) || rounds < 1) throw new Error('--requests and --rounds must be positive integers');

const dir = mkdtempSync(join(tmpdir(), 'wsa-bench-request-garbage-'));
const seeded = await seededFile(dir, 2000, { cacheDir: join(tmpdir(), 'wsa-bench-seeded'), log: (line) => process.stderr.write(`${line}\n`) });
const server = await startServer({ cwd: ROOT, databaseUrl: seeded.file, apiKey: seeded.apiKey });
const page = await launchCdp();
/** The page's renderer's footprint in MB (`pageRenderer`). */
const footprint = () => pageRenderer(page.pid).footprint / 1024 / 1024;
const rows: string[] = [];
try {
  await page.send('Page.navigate', { url: `${server.origin}/app-config.json` });
  await page.waitFor(`document.readyState === 'complete' && location.pathname === '/app-config.json'`, 'the page');
  await new Promise((settle) => setTimeout(settle, 1000));
  let last = footprint();
  rows.push(`| before | ${last.toFixed(0)} MB | — |`);
  for (let round = 1; round <= rounds; round++) {
    await page.evaluate(pageLookups(seeded.apiKey, { requests, first: (round - 1) * requests, cache: 'no-store' }));
    const now = footprint();
    rows.push(`| after round ${round} (${(round * requests).toLocaleString('en-US')} requests) | ${now.toFixed(0)} MB | ${(((now - last) * 1024) / requests).toFixed(1)} KB |`);
    last = now;
  }
  await page.send('HeapProfiler.collectGarbage');
  await new Promise((settle) => setTimeout(settle, 1000));
  rows.push(`| after a forced full collection | ${footprint().toFixed(0)} MB | — |`);
} finally {
  await page.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`\n${requests.toLocaleString('en-US')} GET /contacts a round from a page, 6 at a time; 1-minute load average ${loadavg()[0]!.toFixed(1)} at the end\n`);
console.log("| when | renderer footprint | growth a request, this round |");
console.log('|---|---:|---:|');
for (const row of rows) console.log(row);
