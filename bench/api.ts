/**
 * API benchmark, `npm run bench:api -- [--database sqlite|postgres] [--postgres-url URL] [--contacts N]
 * [--duration S] [--connections C] [--skip-load] [--skip-exports] [--through-proxy] [--concurrent-exports N] [--export-rounds R]
 * [--mixed-duration S] [--mixed-connections C] [--export-loops L] [--skip-mixed]`: seeds N contacts (default 1,000,000) into a
 * fresh database (an SQLite file in a temp folder, or with `--database postgres` a new database
 * `wsa_bench_<hex>` on the PostgreSQL server of `--postgres-url`, default
 * postgres://postgres:postgres@127.0.0.1:5432/postgres; issue 8), starts the real server as a child process
 * (`tsx server/main.ts`), measures contact list pages under autocannon load (C connections, default 10; S
 * seconds per case, default 10; the last page among them, issue 13), first of all a mixed load (issue 21 point 3:
 * `--mixed-duration` seconds, default 60, of `--mixed-connections` connections, default 20, cycling reads and writes,
 * with `--export-loops` loops, default 3, downloading CSV and xlsx exports at the same time; bench/mixed-load.ts),
 * the server's peak RSS then, before them each of a set of fresh searches
 * once ("cold search", bench/cold-search.ts, issue 13), the CSV and xlsx exports of every contact in R rounds
 * (default 3) interleaved with the export floor's CSV (bench/export-compare.ts, issue 16: ours / floor, byte-identical
 * CSV, peak RSS of each), and N xlsx
 * exports of every contact requested at once (`--concurrent-exports N`, default 10: the server's peak RSS then,
 * with the exports beyond its `EXPORT_CONCURRENCY` answered 503; issue 12 point 10), and prints a markdown table with
 * the targets of the issue and pass/fail. On PostgreSQL it then starts a second server process on the same
 * database and loads both at once (C connections each) for two of the cases: the throughput of two processes
 * together. With `--through-proxy` (issue 15) the exports run again through a proxy-mode server
 * (`UPSTREAM_API_URL` pointing at the first), whose resident memory is sampled instead. Progress goes to stderr, the table to stdout. The servers are stopped and the temp folder (and
 * the PostgreSQL database) removed at the end, on error and on SIGINT/SIGTERM. Exits 1 on an error (a non-2xx
 * answer under load included), 0 otherwise, even when a target is missed (the table says so).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CSV_MEDIA_TYPE, XLSX_MEDIA_TYPE } from '../src/api/contacts';
import { SCOPES } from '../src/api/scopes';
import { openMigratedDatabase } from '../server/database';
import { createApiKey } from '../server/db/credentials';
import { createOrganization, createWorkspace } from '../server/db/workspaces';
import { DEFAULT_CONTACT_ORDER, ContactStore } from '../server/db/contacts';
import { EXPORT_SOURCE_COLUMNS } from '../server/export/contacts-export';
import { coldCases, coldSearchLines, measureColdSearches } from './cold-search';
import { type ExportComparison, type ExportFloor, compareExports, exportComparisonLines, startExportFloor } from './export-compare';
import { type ConcurrentExportsResult, type ExportResult, type LoadResult, measureConcurrentExports, measureExport, measureLoad, queryString } from './measure';
import { type FloorComparison, type FloorProcess, checkIdentical, compareWithFloor, floorLines, recordStatements, startFloor } from './floor';
import { type MixedLoadResult, measureMixedLoad } from './mixed-load';
import { type SeedResult, seedContacts, seedContactsPostgres } from './seed-contacts';
import { loadAverage, onPostgres } from './bench-database';
import { type ServerProcess, readCpuMs, startServer } from './server-process';

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

/** The last page of `contacts` (`$offset=999950` for 1,000,000): read from the other end since issue 13. */
const lastPage = (contacts: number): LoadCase => ({ name: `last page: offset ${contacts - PAGE}`, params: { $limit: PAGE, $offset: Math.max(0, contacts - PAGE) } });

/** The middle page of a workspace larger than 1,000,000 (`$offset=5000000` for 10,000,000; issue 39 point 1). */
const middlePages = (contacts: number): LoadCase[] =>
  contacts > 1_000_000 ? [{ name: `deep page: offset ${Math.floor(contacts / 2)}`, params: { $limit: PAGE, $offset: Math.floor(contacts / 2) } }] : [];

/** The cases compared with the floor (issue 16): goal ours/floor >= 0.85 in req/s. */
const FLOOR_CASES = ['no filter', 'state eq (indexed)', 'tags eq (indexed)', 'sorted: name asc', 'name like (contains)'];
const FLOOR_GOAL = 0.85;

/** The cases run again with two server processes loaded at once (PostgreSQL only). */
const TWO_PROCESS_CASES = ['no filter', 'state eq (indexed)'];
const DEFAULT_POSTGRES_URL = 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

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

/** Stops the servers, removes the temp folder and runs `dropDatabase`; safe to call more than once. */
function makeCleanup(dir: string, servers: () => ({ stop(): Promise<void> } | null)[], dropDatabase: () => Promise<void>) {
  let done: Promise<void> | null = null;
  return () =>
    (done ??= (async () => {
      await Promise.all(servers().map((server) => server?.stop()));
      rmSync(dir, { recursive: true, force: true });
      await dropDatabase();
    })());
}


/** CPU time (ms) used so far by every process named `postgres` (the server and its backends); null without /proc. */
function postgresCpuMs(): number | null {
  let total = 0;
  let found = false;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
    } catch {
      continue;
    }
    const ms = readCpuMs(Number(entry));
    if (ms !== null) {
      total += ms;
      found = true;
    }
  }
  return found ? total : null;
}

/** Runs `measure` and reports PostgreSQL's CPU time meanwhile as a share of one core (null when unknown). */
async function withDatabaseCpu<T>(postgres: boolean, measure: () => Promise<T>): Promise<{ result: T; databaseCores: number | null }> {
  const before = postgres ? postgresCpuMs() : null;
  const started = performance.now();
  const result = await measure();
  const after = postgres ? postgresCpuMs() : null;
  return { result, databaseCores: before === null || after === null ? null : (after - before) / (performance.now() - started) };
}

const cores = (share: number | null) => (share === null ? 'n/a' : `${(100 * share).toFixed(0)}% of a core`);

/** The pass/fail word and the target text for a load case. */
function judgeLoad(test: LoadCase, result: LoadResult): { target: string; verdict: string } {
  if (!test.target) return { target: 'none (reported only)', verdict: '—' };
  const { p50Ms, minRps } = test.target;
  const ok = result.p50Ms <= p50Ms && (minRps === undefined || result.requestsPerSecond >= minRps);
  return { target: `p50 <= ${p50Ms} ms${minRps ? `, >= ${int(minRps)} req/s` : ''}`, verdict: ok ? 'pass' : '**FAIL**' };
}

/**
 * The pass/fail word and the target text for an export; `contacts` is the workspace's contact count when the
 * export started (`meta.maxResults`), not the seeded count: the mixed load creates contacts before the exports
 * (issue 39 "Also": 122 of them made both exports FAIL though they met their targets).
 */
function judgeExport(test: ExportCase, result: ExportResult, contacts: number): { target: string; verdict: string } {
  const ok = result.seconds < test.maxSeconds && result.peakRssBytes < test.maxRssBytes && result.rows === contacts;
  return { target: `< ${test.maxSeconds} s, peak RSS < ${mb(test.maxRssBytes)} MB, all rows`, verdict: ok ? 'pass' : '**FAIL**' };
}

/** The markdown of the mixed-load run (issue 21 point 3): peak RSS under 300 MB, no 5xx, idle sockets closed. */
function mixedLines(result: MixedLoadResult, options: { durationSeconds: number; connections: number; exportLoops: number }): string[] {
  const refused = Object.entries(result.exports.refused).map(([status, n]) => `${n} × ${status}`).join(', ') || 'none';
  const idle = result.idleSocketSeconds.map((s) => (s === null ? 'never' : s.toFixed(1))).join(', ');
  // autocannon's errors are its 10 s timeouts on a machine the exports keep busy: reported, not judged; a 5xx is.
  const ok = result.peakRssBytes < 300e6 && result.serverErrors === 0 && result.exports.failed === 0 && result.idleSocketSeconds.every((s) => s !== null && s < 15);
  return [
    `Mixed load (issue 21 point 3): ${options.durationSeconds} s of ${options.connections} connections cycling contact pages (filters, sort, a deep page), tag counts, contact creations, tag edits, posts and products, ` +
      `with ${options.exportLoops} loops downloading every contact as CSV and xlsx in turn at the same time; 5 silent sockets and one with half its headers opened at the start:`,
    '',
    '| req/s | p50 ms | p99 ms | non-2xx (5xx) | timeouts/errors | exports read (CSV + xlsx) | exports refused | server RSS before (MB) | peak RSS (MB) | after (MB) | idle sockets closed after (s) | target | result |',
    '|---:|---:|---:|---:|---:|---|---|---:|---:|---:|---|---|---|',
    `| ${int(result.requestsPerSecond)} | ${ms(result.p50Ms)} | ${ms(result.p99Ms)} | ${result.non2xx} (${result.serverErrors}) | ${result.errors} | ${result.exports.csv} + ${result.exports.xlsx} | ${refused} | ` +
      `${mb(result.rssBeforeBytes)} | ${mb(result.peakRssBytes)} | ${mb(result.rssAfterBytes)} | ${idle} | peak RSS < 300 MB, no 5xx, idle sockets closed by 15 s | ${ok ? 'pass' : '**FAIL**'} |`,
    '',
  ];
}

async function main() {
  const { values } = parseArgs({
    options: {
      database: { type: 'string', default: 'sqlite' },
      'postgres-url': { type: 'string', default: DEFAULT_POSTGRES_URL },
      contacts: { type: 'string', default: '1000000' },
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '10' },
      'skip-load': { type: 'boolean', default: false },
      'skip-exports': { type: 'boolean', default: false },
      'through-proxy': { type: 'boolean', default: false },
      'concurrent-exports': { type: 'string', default: '10' },
      'floor-rounds': { type: 'string', default: '3' },
      'skip-floor': { type: 'boolean', default: false },
      'export-rounds': { type: 'string', default: '3' },
      'mixed-duration': { type: 'string', default: '60' },
      'mixed-connections': { type: 'string', default: '20' },
      'export-loops': { type: 'string', default: '3' },
      'skip-mixed': { type: 'boolean', default: false },
    },
  });
  const contacts = positiveInteger('contacts', values.contacts);
  const durationSeconds = positiveInteger('duration', values.duration);
  const connections = positiveInteger('connections', values.connections);
  const concurrentExports = positiveInteger('concurrent-exports', values['concurrent-exports']);
  const floorRounds = positiveInteger('floor-rounds', values['floor-rounds']);
  const exportRounds = positiveInteger('export-rounds', values['export-rounds']);
  const mixedDuration = positiveInteger('mixed-duration', values['mixed-duration']);
  const mixedConnections = positiveInteger('mixed-connections', values['mixed-connections']);
  const exportLoops = positiveInteger('export-loops', values['export-loops']);
  if (values.database !== 'sqlite' && values.database !== 'postgres') throw new Error(`--database must be sqlite or postgres, got '${values.database}'`);
  const postgres = values.database === 'postgres';
  const serverUrl = values['postgres-url'];
  if (postgres && !/^postgres(ql)?:\/\/./.test(serverUrl)) throw new Error('--postgres-url must be a postgres:// URL');

  const dir = mkdtempSync(join(tmpdir(), 'wsa-bench-'));
  const databaseName = `wsa_bench_${randomBytes(6).toString('hex')}`;
  let databaseUrl = join(dir, 'bench.sqlite');
  if (postgres) {
    const url = new URL(serverUrl);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
  }
  let databaseCreated = false;
  let server: ServerProcess | null = null;
  let second: ServerProcess | null = null;
  let proxy: ServerProcess | null = null;
  let floor: FloorProcess | null = null;
  let exportFloor: ExportFloor | null = null;
  const cleanup = makeCleanup(dir, () => [server, second, proxy, floor, exportFloor], async () => {
    if (databaseCreated) await onPostgres(serverUrl, `drop database if exists ${databaseName} with (force)`);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`\n${signal}: stopping the servers and removing ${dir}${postgres ? ` and database ${databaseName}` : ''}`);
      void cleanup().finally(() => process.exit(130));
    });
  }

  try {
    log(`temp folder ${dir}`);
    let engine = 'SQLite (better-sqlite3)';
    if (postgres) {
      const [settings] = await onPostgres<{ version: string; shared_buffers: string; work_mem: string }>(
        serverUrl,
        "select current_setting('server_version') as version, current_setting('shared_buffers') as shared_buffers, current_setting('work_mem') as work_mem",
      );
      await onPostgres(serverUrl, `create database ${databaseName}`);
      databaseCreated = true;
      engine = `PostgreSQL ${settings?.version} (shared_buffers ${settings?.shared_buffers}, work_mem ${settings?.work_mem}; pool of 10 connections a process)`;
      log(`database ${databaseName} on ${engine}`);
    }
    const database = await openMigratedDatabase(databaseUrl);
    const organization = await createOrganization(database.db, 'Benchmark Organization');
    const workspace = await createWorkspace(database.db, { organizationId: organization.id, name: 'Benchmark Workspace' });
    const apiKey = await createApiKey(database.db, workspace.id, SCOPES);
    // The SQL and parameters of an export of every contact, as the route runs it: what the export floor runs too.
    const exportQuery = new ContactStore(database.db, database.dialect).selectColumns(workspace.id, { orderBy: DEFAULT_CONTACT_ORDER }, EXPORT_SOURCE_COLUMNS);
    await database.close();

    log(`seeding ${int(contacts)} contacts...`);
    const seedStarted = performance.now();
    const onProgress = (done: number) => {
      if (done % 50_000 === 0 || done === contacts) log(`  ${int(done)} contacts (${((performance.now() - seedStarted) / 1000).toFixed(1)} s)`);
    };
    const seeded: SeedResult = postgres
      ? await seedContactsPostgres(databaseUrl, workspace.id, contacts, { onProgress })
      : seedContacts(databaseUrl, workspace.id, contacts, { onProgress });
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const percent = (n: number) => `${((100 * n) / seeded.contacts).toFixed(1)}%`;
    log(
      `seeded ${int(seeded.contacts)} contacts and ${int(seeded.tagRows)} tag rows in ${seedSeconds.toFixed(1)} s ` +
        `(vip ${percent(seeded.vip)}, active ${percent(seeded.active)}, name contains 'ann' ${percent(seeded.nameAnn)})`,
    );

    log('starting the server...');
    server = await startServer({ cwd: ROOT, databaseUrl, apiKey, onUnexpectedExit: log });
    log(`server on ${server.origin} (tsx pid ${server.pid}, serving node pid ${server.servingPid})`);

    // Issue 21 point 3: peak RSS under a mixed load with export loops, first (the process at its start).
    let mixed: MixedLoadResult | null = null;
    if (!values['skip-mixed']) {
      log(`mixed load: ${mixedDuration} s, ${mixedConnections} connections of mixed reads and writes, ${exportLoops} export loops (CSV and xlsx in turn)...`);
      mixed = await measureMixedLoad(server.origin, apiKey, { durationSeconds: mixedDuration, connections: mixedConnections, exportLoops, serverPid: server.servingPid });
      log(
        `  ${int(mixed.requestsPerSecond)} req/s, p50 ${ms(mixed.p50Ms)} ms, p99 ${ms(mixed.p99Ms)} ms, non-2xx ${mixed.non2xx}, errors ${mixed.errors}; ` +
          `exports ${mixed.exports.csv} CSV + ${mixed.exports.xlsx} xlsx, refused ${JSON.stringify(mixed.exports.refused)}, failed ${mixed.exports.failed}; ` +
          `RSS ${mb(mixed.rssBeforeBytes)} -> peak ${mb(mixed.peakRssBytes)} -> ${mb(mixed.rssAfterBytes)} MB; idle sockets closed after ${mixed.idleSocketSeconds.map((s) => (s === null ? 'never' : `${s.toFixed(1)} s`)).join(', ')} (load average ${loadAverage()})`,
      );
    }

    const loadBefore = loadAverage();
    // Before any load case, so none of these filters has been counted yet (issue 13).
    const colds = [];
    if (!values['skip-load']) {
      log(`cold search: ${coldCases(PAGE).length} fresh filters, one request each...`);
      const serving = server;
      // On PostgreSQL the queries run in the backends connected to the benchmark's database: their CPU counts too.
      const servingPids = async () => [
        serving.servingPid,
        ...(postgres ? (await onPostgres<{ pid: number }>(serverUrl, `select pid from pg_stat_activity where datname = '${databaseName}'`)).map((row) => row.pid) : []),
      ];
      colds.push(...(await measureColdSearches(server.origin, apiKey, coldCases(PAGE), servingPids)));
      for (const cold of colds) log(`  ${cold.group} ${cold.label}: ${ms(cold.ms)} ms (CPU ${cold.cpuMs === null ? 'n/a' : ms(cold.cpuMs)} ms), maxResults ${int(cold.maxResults)}`);
    }
    const loads: { test: LoadCase; query: string; result: LoadResult; databaseCores: number | null }[] = [];
    for (const test of values['skip-load'] ? [] : [...LOAD_CASES, ...middlePages(contacts), lastPage(contacts)]) {
      const query = queryString(test.params);
      log(`load: ${test.name} (${query}), ${durationSeconds} s x ${connections} connections...`);
      const running = server;
      const { result, databaseCores } = await withDatabaseCpu(postgres, () =>
        measureLoad(`${running.origin}/api/contacts${query}`, apiKey, { connections, durationSeconds, serverPid: running.servingPid }),
      );
      if (result.non2xx !== 0 || result.errors !== 0) {
        throw new Error(`${test.name}: ${result.non2xx} non-2xx answers and ${result.errors} errors/timeouts out of ${result.requests} requests; server output:\n${server.output()}`);
      }
      log(
        `  ${int(result.requestsPerSecond)} req/s, p50 ${ms(result.p50Ms)} ms, p99 ${ms(result.p99Ms)} ms, cold ${ms(result.coldMs)} ms, ` +
          `server CPU ${cpu(result)}${postgres ? `, PostgreSQL CPU ${cores(databaseCores)}` : ''} (load average ${loadAverage()})`,
      );
      loads.push({ test, query, result, databaseCores });
    }

    // The floor (issue 16): the same statements in a bare node:http server, interleaved with ours.
    let floorRuns: FloorComparison[] = [];
    if (!values['skip-load'] && !values['skip-floor']) {
      const cases = LOAD_CASES.filter((test) => FLOOR_CASES.includes(test.name)).map((test) => ({ name: test.name, path: `/api/contacts${queryString(test.params)}` }));
      log('floor: recording the statements the service runs for each case (a traced service process)...');
      const recorded = await recordStatements({ root: ROOT, dir, databaseUrl, apiKey, cases });
      for (const item of recorded) log(`  ${item.name}: ${item.perRequest.length} statements a request (${item.setup.length} the first time)`);
      floor = await startFloor({ root: ROOT, dir, databaseUrl, cases: recorded });
      await checkIdentical(server, floor, apiKey, recorded);
      log(`floor on ${floor.origin} (pid ${floor.pid}); every answer byte-identical to the service's. ${floorRounds} interleaved runs a case...`);
      floorRuns = await compareWithFloor(server, floor, apiKey, recorded, {
        rounds: floorRounds,
        connections,
        durationSeconds,
        onRun: (name, which, result) => log(`  ${name} ${which}: ${int(result.requestsPerSecond)} req/s, server CPU ${cpu(result)} (load average ${loadAverage()})`),
      });
      await floor.stop();
      floor = null;
    }

    const exports: { test: ExportCase; result: ExportResult; via: string; contacts: number }[] = [];
    // The workspace's contacts now, as the API counts them: what an export of every contact must hold.
    const contactsNow = async (target: ServerProcess) => {
      const response = await fetch(`${target.origin}/api/contacts?$limit=1`, { headers: { 'x-api-key': apiKey } });
      if (!response.ok) throw new Error(`counting contacts: ${response.status}`);
      return ((await response.json()) as { meta: { maxResults: number } }).meta.maxResults;
    };
    const runExports = async (target: ServerProcess, via: string) => {
      for (const test of values['skip-exports'] ? [] : EXPORT_CASES) {
        log(`export: ${test.name}${via}...`);
        const xlsxFile = test.accept === XLSX_MEDIA_TYPE ? join(dir, 'export.xlsx') : undefined;
        const contactsThen = await contactsNow(target);
        const result = await measureExport(`${target.origin}/api/contacts`, apiKey, test.accept, target.servingPid, xlsxFile);
        if (xlsxFile) rmSync(xlsxFile, { force: true });
        log(`  ${result.seconds.toFixed(1)} s, ${int(result.bytes)} bytes, ${int(result.rows)} rows, RSS ${mb(result.rssBeforeBytes)} -> peak ${mb(result.peakRssBytes)} MB`);
        exports.push({ test, result, via, contacts: contactsThen });
      }
    };
    // Issue 16: our CSV and xlsx against the floor, interleaved; the single-export table takes each case's first round.
    let comparison: ExportComparison | null = null;
    if (!values['skip-exports']) {
      const floorOfExports = await startExportFloor({ cwd: ROOT, databaseUrl, query: exportQuery });
      exportFloor = floorOfExports;
      log(`export floor on ${floorOfExports.origin} (pid ${floorOfExports.pid}); a warm-up download first...`);
      await measureExport(`${floorOfExports.origin}/`, '', CSV_MEDIA_TYPE, floorOfExports.pid);
      const serving = server;
      const contactsThen = await contactsNow(serving);
      comparison = await compareExports({ floor: floorOfExports, serviceUrl: `${serving.origin}/api/contacts`, apiKey, servicePid: serving.servingPid, runs: exportRounds, xlsxFile: join(dir, 'export.xlsx'), log });
      await floorOfExports.stop();
      exportFloor = null;
      const [first] = comparison.rounds;
      if (first) for (const test of EXPORT_CASES) exports.push({ test, result: test.accept === CSV_MEDIA_TYPE ? first.csv : first.xlsx, via: '', contacts: contactsThen });
    }
    if (values['through-proxy']) {
      log('starting a proxy-mode server in front of the first...');
      const upstream = `${server.origin}/api`;
      proxy = await startServer({ cwd: ROOT, databaseUrl: join(dir, 'missing', 'never-opened.sqlite'), apiKey, env: { UPSTREAM_API_URL: upstream }, onUnexpectedExit: log });
      await runExports(proxy, ' through the proxy (proxy RSS)');
    }

    let burst: ConcurrentExportsResult | null = null;
    if (!values['skip-exports']) {
      log(`export: ${concurrentExports} xlsx exports at once...`);
      burst = await measureConcurrentExports(`${server.origin}/api/contacts`, apiKey, XLSX_MEDIA_TYPE, concurrentExports, server.servingPid);
      const answered = Object.entries(burst.statuses).map(([status, n]) => `${n} × ${status}`).join(', ');
      log(`  ${answered}; ${burst.seconds.toFixed(1)} s, ${int(burst.bytes)} bytes, RSS ${mb(burst.rssBeforeBytes)} -> peak ${mb(burst.peakRssBytes)} MB`);
    }

    // Two processes over one PostgreSQL database, loaded at once: one autocannon per process.
    const pairs: { test: LoadCase; query: string; results: [LoadResult, LoadResult]; alone: LoadResult | undefined; databaseCores: number | null }[] = [];
    if (postgres && !values['skip-load']) {
      log('starting a second server process on the same database...');
      second = await startServer({ cwd: ROOT, databaseUrl, apiKey, onUnexpectedExit: log });
      const both = [server, second] as const;
      for (const test of LOAD_CASES.filter((item) => TWO_PROCESS_CASES.includes(item.name))) {
        const query = queryString(test.params);
        log(`two processes: ${test.name} (${query}), ${durationSeconds} s x ${connections} connections on each...`);
        const { result: results, databaseCores } = await withDatabaseCpu(postgres, () =>
          Promise.all(both.map((one) => measureLoad(`${one.origin}/api/contacts${query}`, apiKey, { connections, durationSeconds, serverPid: one.servingPid }))),
        );
        for (const result of results) {
          if (result.non2xx !== 0 || result.errors !== 0) throw new Error(`two processes, ${test.name}: ${result.non2xx} non-2xx answers and ${result.errors} errors/timeouts`);
        }
        const [a, b] = results as [LoadResult, LoadResult];
        log(
          `  ${int(a.requestsPerSecond)} + ${int(b.requestsPerSecond)} = ${int(a.requestsPerSecond + b.requestsPerSecond)} req/s, p50 ${ms(a.p50Ms)} / ${ms(b.p50Ms)} ms, ` +
            `server CPU ${cpu(a)} / ${cpu(b)}, PostgreSQL CPU ${cores(databaseCores)} (load average ${loadAverage()})`,
        );
        pairs.push({ test, query, results: [a, b], alone: loads.find((load) => load.test === test)?.result, databaseCores });
      }
    }

    const lines = [
      `## API benchmark: ${int(contacts)} contacts on ${postgres ? 'PostgreSQL' : 'SQLite'}`,
      '',
      `${new Date().toISOString()}; ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, ${engine}; ` +
        `1-min load average ${loadBefore} after seeding, ${loadAverage()} at the end.`,
      '',
      `Seeded ${int(seeded.contacts)} contacts (${int(seeded.tagRows)} tag rows; vip ${percent(seeded.vip)}, active ${percent(seeded.active)}, ` +
        `name contains 'ann' ${percent(seeded.nameAnn)}) in ${seedSeconds.toFixed(1)} s. ` +
        `Load: autocannon, ${connections} connections, ${durationSeconds} s per case, pages of ${PAGE}, loopback.`,
      '',
      ...(loads.length
        ? [
            `| case | query | req/s (mean) | p50 ms | p99 ms | first (cold) ms | non-2xx | maxResults | server CPU |${postgres ? ' PostgreSQL CPU |' : ''} target | result |`,
            `|---|---|---:|---:|---:|---:|---:|---:|---:|${postgres ? '---:|' : ''}---|---|`,
            ...loads.map(({ test, query, result, databaseCores }) => {
              const { target, verdict } = judgeLoad(test, result);
              return `| ${test.name} | \`${query}\` | ${int(result.requestsPerSecond)} | ${ms(result.p50Ms)} | ${ms(result.p99Ms)} | ${ms(result.coldMs)} | ${result.non2xx} | ${int(result.maxResults)} | ${cpu(result)} |${postgres ? ` ${cores(databaseCores)} |` : ''} ${target} | ${verdict} |`;
            }),
            '',
          ]
        : []),
      ...(mixed ? mixedLines(mixed, { durationSeconds: mixedDuration, connections: mixedConnections, exportLoops }) : []),
      ...(floorRuns.length ? floorLines(floorRuns, FLOOR_GOAL) : []),
      ...(colds.length ? coldSearchLines(colds, ms, int) : []),
      ...(exports.length
        ? [
            '| export | seconds | bytes | rows | server RSS before (MB) | peak RSS (MB) | target | result |',
            '|---|---:|---:|---:|---:|---:|---|---|',
            ...exports.map(({ test, result, via, contacts: expected }) => {
              const { target, verdict } = judgeExport(test, result, expected);
              return `| ${test.name}${via} | ${result.seconds.toFixed(1)} | ${int(result.bytes)} | ${int(result.rows)} | ${mb(result.rssBeforeBytes)} | ${mb(result.peakRssBytes)} | ${target} | ${verdict} |`;
            }),
            '',
          ]
        : []),
      ...(comparison ? exportComparisonLines(comparison) : []),
      ...(burst
        ? [
            `${concurrentExports} xlsx exports of every contact requested at once (the server runs EXPORT_CONCURRENCY of them, default 3, and answers the rest 503 with their queue place):`,
            '',
            '| answers | seconds to the last byte | bytes (200s) | server RSS before (MB) | peak RSS (MB) | target | result |',
            '|---|---:|---:|---:|---:|---|---|',
            `| ${Object.entries(burst.statuses).map(([status, n]) => `${n} × ${status}`).join(', ')} | ${burst.seconds.toFixed(1)} | ${int(burst.bytes)} | ${mb(burst.rssBeforeBytes)} | ${mb(burst.peakRssBytes)} | ` +
              `peak RSS < 300 MB, no answer but 200 or 503 | ${burst.peakRssBytes < 300e6 && Object.keys(burst.statuses).every((status) => status === '200' || status === '503') ? 'pass' : '**FAIL**'} |`,
            '',
          ]
        : []),
      ...(pairs.length
        ? [
            `Two server processes on the same database, each loaded by its own autocannon (${connections} connections each, ${durationSeconds} s, at once):`,
            '',
            '| case | req/s process 1 | req/s process 2 | req/s together | one process alone (above) | p50 ms (1 / 2) | p99 ms (1 / 2) | server CPU (1 / 2) | PostgreSQL CPU |',
            '|---|---:|---:|---:|---:|---:|---:|---|---:|',
            ...pairs.map(({ test, results: [a, b], alone, databaseCores }) =>
              `| ${test.name} | ${int(a.requestsPerSecond)} | ${int(b.requestsPerSecond)} | ${int(a.requestsPerSecond + b.requestsPerSecond)} | ${alone ? int(alone.requestsPerSecond) : 'n/a'} | ` +
              `${ms(a.p50Ms)} / ${ms(b.p50Ms)} | ${ms(a.p99Ms)} / ${ms(b.p99Ms)} | ${cpu(a)} / ${cpu(b)} | ${cores(databaseCores)} |`,
            ),
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
