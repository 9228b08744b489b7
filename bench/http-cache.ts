/**
 * What the browser's HTTP cache costs the import's look-ups (`npx tsx bench/http-cache.ts [--requests N] [--rounds R]`,
 * issue 20 point 6; the reason src/api/client.ts sends every call with `cache: 'no-store'`). Against the service on
 * the 2,000 seeded contacts (bench/seeded-file.ts), a page driven over the bare DevTools pipe (bench/cdp-browser.ts)
 * sends N (default 1,500) `GET /contacts` with an `email in (...)` filter of 55 values, 6 at a time, once with fetch's
 * default cache mode and once with `no-store`, alternated R times (default 2). Prints, for each, the time and the CPU
 * time of the renderer, the network process, the browser process and the service meanwhile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cpuByProcess, launchCdp } from './cdp-browser';
import { pageLookups } from './page-lookups';
import { seededFile } from './seeded-file';
import { startServer } from './server-process';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { requests: { type: 'string', default: '1500' }, rounds: { type: 'string', default: '2' } } });
const requests = Number(values.requests);
const rounds = Number(values.rounds);


const dir = mkdtempSync(join(tmpdir(), 'wsa-bench-http-cache-'));
const seeded = await seededFile(dir, 2000, { cacheDir: join(tmpdir(), 'wsa-bench-seeded'), log: (line) => process.stderr.write(`${line}\n`) });
const server = await startServer({ cwd: ROOT, databaseUrl: seeded.file, apiKey: seeded.apiKey });
const page = await launchCdp();
const rows: string[] = [];
try {
  await page.send('Page.navigate', { url: `${server.origin}/app-config.json` });
  await page.waitFor(`document.readyState === 'complete' && location.pathname === '/app-config.json'`, 'the page');
  for (let round = 1; round <= rounds; round++) {
    for (const mode of [null, 'no-store'] as const) {
      const before = cpuByProcess(page.pid, server.servingPid);
      const ms = await page.evaluate<number>(pageLookups(seeded.apiKey, { requests, ...(mode ? { cache: mode } : {}) }));
      const after = cpuByProcess(page.pid, server.servingPid);
      const seconds = (key: keyof typeof after) => ((after[key] - before[key]) / 1000).toFixed(2);
      rows.push(`| ${round} | ${mode ?? 'default'} | ${(ms / 1000).toFixed(2)} s | ${seconds('renderer')} s | ${seconds('network')} s | ${seconds('browser')} s | ${seconds('service')} s |`);
    }
  }
} finally {
  await page.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`\n${requests.toLocaleString('en-US')} GET /contacts from a page, 6 at a time; 1-minute load average ${loadavg()[0]!.toFixed(1)} at the end\n`);
console.log('| round | cache mode | the requests took | renderer CPU | network CPU | browser CPU | service CPU |');
console.log('|---|---|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
