/**
 * API benchmark, `npm run bench:api -- [--contacts N] [--duration S] [--connections C] [--skip-load]
 * [--skip-exports]`: seeds N contacts (default 1,000,000) into a fresh SQLite database in a temp folder, starts
 * the real server as a child process (`tsx server/main.ts`), measures contact list pages under autocannon load
 * (C connections, default 10; S seconds per case, default 10) and the CSV and xlsx exports of every contact,
 * and prints a markdown table with the targets of the issue and pass/fail. Progress goes to stderr, the table
 * to stdout. The server is stopped and the temp folder removed at the end, on error and on SIGINT/SIGTERM.
 * Exits 1 on an error (a non-2xx answer under load included), 0 otherwise, even when a target is missed (the
 * table says so).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CSV_MEDIA_TYPE, XLSX_MEDIA_TYPE } from '../src/api/contacts';
import { SCOPES } from '../src/api/scopes';
import { openMigratedDatabase } from '../server/database';
import { createApiKey } from '../server/db/credentials';
import { createOrganization, createWorkspace } from '../server/db/workspaces';
import { type ExportResult, type LoadResult, measureExport, measureLoad, queryString } from './measure';
import { seedContacts } from './seed-contacts';
import { type ServerProcess, startServer } from './server-process';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PAGE = 50;

type LoadCase = { name: string; params: Record<string, string | number>; target?: { p50Ms: number; minRps?: number } };

const FAST = { p50Ms: 15, minRps: 1000 };
const LOAD_CASES: LoadCase[] = [
  { name: 'no filter', params: { $limit: PAGE }, target: FAST },
  { name: 'state eq (indexed)', params: { $limit: PAGE, $filter: "state eq 'active'" }, target: FAST },
  { name: 'tags eq (indexed)', params: { $limit: PAGE, $filter: "tags eq 'vip'" }, target: FAST },
  { name: 'name like (contains)', params: { $limit: PAGE, $filter: "name like 'ann'" }, target: { p50Ms: 150 } },
  { name: 'sorted: name asc', params: { $limit: PAGE, $orderBy: 'name asc' }, target: FAST },
  { name: 'deep page: offset 500000', params: { $limit: PAGE, $offset: 500_000 } },
];

type ExportCase = { name: string; accept: string; maxSeconds: number; maxRssBytes: number };
const EXPORT_CASES: ExportCase[] = [
  { name: 'CSV export (all)', accept: CSV_MEDIA_TYPE, maxSeconds: 20, maxRssBytes: 300e6 },
  { name: 'xlsx export (all)', accept: XLSX_MEDIA_TYPE, maxSeconds: 90, maxRssBytes: 300e6 },
];

function positiveInteger(name: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new Error(`--${name} must be a positive integer, got '${value}'`);
  return Number(value);
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
const int = (value: number) => Math.round(value).toLocaleString('en-US');
const cpu = (result: LoadResult) =>
  result.serverCpuMsPerRequest === null || result.serverCpuShare === null
    ? 'n/a'
    : `${result.serverCpuMsPerRequest.toFixed(2)} ms/req, ${(100 * result.serverCpuShare).toFixed(0)}% of a core`;
/** The 1-minute load average (other work on the machine skews every figure). */
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?';

/** Stops the server and removes the temp folder; safe to call more than once. */
function makeCleanup(dir: string, server: () => ServerProcess | null) {
  let done: Promise<void> | null = null;
  return () =>
    (done ??= (async () => {
      await server()?.stop();
      rmSync(dir, { recursive: true, force: true });
    })());
}

/** The pass/fail word and the target text for a load case. */
function judgeLoad(test: LoadCase, result: LoadResult): { target: string; verdict: string } {
  if (!test.target) return { target: 'none (reported only)', verdict: '—' };
  const { p50Ms, minRps } = test.target;
  const ok = result.p50Ms <= p50Ms && (minRps === undefined || result.requestsPerSecond >= minRps);
  return { target: `p50 <= ${p50Ms} ms${minRps ? `, >= ${int(minRps)} req/s` : ''}`, verdict: ok ? 'pass' : '**FAIL**' };
}

function judgeExport(test: ExportCase, result: ExportResult, contacts: number): { target: string; verdict: string } {
  const ok = result.seconds < test.maxSeconds && result.peakRssBytes < test.maxRssBytes && result.rows === contacts;
  return { target: `< ${test.maxSeconds} s, peak RSS < ${mb(test.maxRssBytes)} MB, all rows`, verdict: ok ? 'pass' : '**FAIL**' };
}

async function main() {
  const { values } = parseArgs({
    options: {
      contacts: { type: 'string', default: '1000000' },
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '10' },
      'skip-load': { type: 'boolean', default: false },
      'skip-exports': { type: 'boolean', default: false },
    },
  });
  const contacts = positiveInteger('contacts', values.contacts);
  const durationSeconds = positiveInteger('duration', values.duration);
  const connections = positiveInteger('connections', values.connections);

  const dir = mkdtempSync(join(tmpdir(), 'wsa-bench-'));
  const databaseFile = join(dir, 'bench.sqlite');
  let server: ServerProcess | null = null;
  const cleanup = makeCleanup(dir, () => server);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`\n${signal}: stopping the server and removing ${dir}`);
      void cleanup().finally(() => process.exit(130));
    });
  }

  try {
    log(`temp folder ${dir}`);
    const database = await openMigratedDatabase(databaseFile);
    const organization = await createOrganization(database.db, 'Benchmark Organization');
    const workspace = await createWorkspace(database.db, { organizationId: organization.id, name: 'Benchmark Workspace' });
    const apiKey = await createApiKey(database.db, workspace.id, SCOPES);
    await database.close();

    log(`seeding ${int(contacts)} contacts...`);
    const seedStarted = performance.now();
    const seeded = seedContacts(databaseFile, workspace.id, contacts, {
      onProgress: (done) => log(`  ${int(done)} contacts (${((performance.now() - seedStarted) / 1000).toFixed(1)} s)`),
    });
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const percent = (n: number) => `${((100 * n) / seeded.contacts).toFixed(1)}%`;
    log(
      `seeded ${int(seeded.contacts)} contacts and ${int(seeded.tagRows)} tag rows in ${seedSeconds.toFixed(1)} s ` +
        `(vip ${percent(seeded.vip)}, active ${percent(seeded.active)}, name contains 'ann' ${percent(seeded.nameAnn)})`,
    );

    log('starting the server...');
    server = await startServer({ cwd: ROOT, databaseFile, apiKey, onUnexpectedExit: log });
    log(`server on ${server.origin} (tsx pid ${server.pid}, serving node pid ${server.servingPid})`);

    const loadBefore = loadAverage();
    const loads: { test: LoadCase; query: string; result: LoadResult }[] = [];
    for (const test of values['skip-load'] ? [] : LOAD_CASES) {
      const query = queryString(test.params);
      log(`load: ${test.name} (${query}), ${durationSeconds} s x ${connections} connections...`);
      const result = await measureLoad(`${server.origin}/api/contacts${query}`, apiKey, { connections, durationSeconds, serverPid: server.servingPid });
      if (result.non2xx !== 0 || result.errors !== 0) {
        throw new Error(`${test.name}: ${result.non2xx} non-2xx answers and ${result.errors} errors/timeouts out of ${result.requests} requests; server output:\n${server.output()}`);
      }
      log(
        `  ${int(result.requestsPerSecond)} req/s, p50 ${ms(result.p50Ms)} ms, p99 ${ms(result.p99Ms)} ms, cold ${ms(result.coldMs)} ms, ` +
          `server CPU ${cpu(result)} (load average ${loadAverage()})`,
      );
      loads.push({ test, query, result });
    }

    const exports: { test: ExportCase; result: ExportResult }[] = [];
    for (const test of values['skip-exports'] ? [] : EXPORT_CASES) {
      log(`export: ${test.name}...`);
      const xlsxFile = test.accept === XLSX_MEDIA_TYPE ? join(dir, 'export.xlsx') : undefined;
      const result = await measureExport(`${server.origin}/api/contacts`, apiKey, test.accept, server.servingPid, xlsxFile);
      if (xlsxFile) rmSync(xlsxFile, { force: true });
      log(`  ${result.seconds.toFixed(1)} s, ${int(result.bytes)} bytes, ${int(result.rows)} rows, RSS ${mb(result.rssBeforeBytes)} -> peak ${mb(result.peakRssBytes)} MB`);
      exports.push({ test, result });
    }

    const lines = [
      `## API benchmark: ${int(contacts)} contacts`,
      '',
      `${new Date().toISOString()}; ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}; ` +
        `1-min load average ${loadBefore} after seeding, ${loadAverage()} at the end.`,
      '',
      `Seeded ${int(seeded.contacts)} contacts (${int(seeded.tagRows)} tag rows; vip ${percent(seeded.vip)}, active ${percent(seeded.active)}, ` +
        `name contains 'ann' ${percent(seeded.nameAnn)}) in ${seedSeconds.toFixed(1)} s. ` +
        `Load: autocannon, ${connections} connections, ${durationSeconds} s per case, pages of ${PAGE}, loopback.`,
      '',
      ...(loads.length
        ? [
            '| case | query | req/s (mean) | p50 ms | p99 ms | first (cold) ms | non-2xx | maxResults | server CPU | target | result |',
            '|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|',
            ...loads.map(({ test, query, result }) => {
              const { target, verdict } = judgeLoad(test, result);
              return `| ${test.name} | \`${query}\` | ${int(result.requestsPerSecond)} | ${ms(result.p50Ms)} | ${ms(result.p99Ms)} | ${ms(result.coldMs)} | ${result.non2xx} | ${int(result.maxResults)} | ${cpu(result)} | ${target} | ${verdict} |`;
            }),
            '',
          ]
        : []),
      ...(exports.length
        ? [
            '| export | seconds | bytes | rows | server RSS before (MB) | peak RSS (MB) | target | result |',
            '|---|---:|---:|---:|---:|---:|---|---|',
            ...exports.map(({ test, result }) => {
              const { target, verdict } = judgeExport(test, result, seeded.contacts);
              return `| ${test.name} | ${result.seconds.toFixed(1)} | ${int(result.bytes)} | ${int(result.rows)} | ${mb(result.rssBeforeBytes)} | ${mb(result.peakRssBytes)} | ${target} | ${verdict} |`;
            }),
          ]
        : []),
    ];
    if (contacts !== 1_000_000) lines.push('', `Targets are set for 1,000,000 contacts; this run used ${int(contacts)}.`);
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench:api failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
