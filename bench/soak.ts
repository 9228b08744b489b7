/**
 * Memory soak (issue 37, "Memory in the attack run's load phase"), `SOAK_MINUTES=M npm run bench:soak --
 * [--database sqlite|postgres|both] [--contacts N] [--postgres-url URL]`: for M minutes (default 20) the mixed
 * load of bench/mixed-load.ts (20 connections cycling contact pages, tag counts, creates, tag edits, posts and
 * products, with 3 loops downloading every contact as CSV and xlsx in turn) against the service started as
 * `npm start` starts it (compiled `dist-server/main.js`, the V8 flags of scripts/node-flags.mjs;
 * bench/server-process.ts), on a fresh database of N seeded contacts (default 200,000), on SQLite, then on
 * PostgreSQL (default `both`). The server's RSS is sampled every 5 s (and its peak every 50 ms, with the kernel's
 * peak mark, by bench/mixed-load.ts). Prints per database: the peak RSS, the RSS at each minute, and the
 * least-squares slope of RSS in MiB a minute over the last half of the run (the last 10 minutes of 20), and on
 * SQLite the largest size of the WAL file (issue 37: exports held it from starting over; server/db/spool.ts).
 * Goals (issue 37): peak RSS under 300 MiB and a slope under 1 MiB a minute over the last 10 minutes, on SQLite
 * and PostgreSQL. Progress goes to stderr, the tables to stdout (docs/benchmarks.md, "Memory soak").
 * Exits 1 on an error, 0 otherwise, even when a goal is missed (the table says so).
 */
import { existsSync, statSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type BenchDatabase, type DatabaseKind, DEFAULT_POSTGRES_URL, createBenchDatabase, loadAverage } from './bench-database';
import { type MixedLoadResult, measureMixedLoad } from './mixed-load';
import { type ServerProcess, readResidentAndFootprint, startServer } from './server-process';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MiB = 2 ** 20;
const GOAL_PEAK_MIB = 300;
const GOAL_SLOPE_MIB_PER_MINUTE = 1;
const SAMPLE_MS = 5000;
const CONNECTIONS = 20;
const EXPORT_LOOPS = 3;

/** RSS, and its anonymous part (the heaps: V8's and malloc's; the rest is mapped files, the code among them). */
type Sample = { minutes: number; rssBytes: number; anonBytes: number };

type SoakResult = {
  kind: DatabaseKind;
  engine: string;
  minutes: number;
  contacts: number;
  samples: Sample[];
  load: MixedLoadResult;
  /** RSS at 0, 1, 2, ... minutes (the sample nearest each mark). */
  perMinute: Sample[];
  /** Least-squares slope of RSS over the last half of the run, MiB a minute. */
  slopeMiBPerMinute: number;
  /** SQLite only: the largest size of the `-wal` file seen (sampled with RSS), and its size at the end, bytes. */
  wal: { peakBytes: number; endBytes: number } | null;
  loadAverageStart: string;
  loadAverageEnd: string;
};

/** The least-squares slope of `y` over `x` (0 with fewer than two points). */
function leastSquaresSlope(points: { x: number; y: number }[]): number {
  if (points.length < 2) return 0;
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / points.length;
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / points.length;
  let numerator = 0;
  let denominator = 0;
  for (const p of points) {
    numerator += (p.x - meanX) * (p.y - meanY);
    denominator += (p.x - meanX) ** 2;
  }
  return denominator === 0 ? 0 : numerator / denominator;
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const mib = (bytes: number) => (bytes / MiB).toFixed(0);
const int = (value: number) => Math.round(value).toLocaleString('en-US');

function positiveNumber(name: string, value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0) throw new Error(`${name} must be a positive number, got '${value}'`);
  return Number(value);
}

async function soak(kind: DatabaseKind, options: { minutes: number; contacts: number; postgresUrl: string }, track: (server: ServerProcess | null, database: BenchDatabase | null) => void): Promise<SoakResult> {
  const database = await createBenchDatabase({ kind, contacts: options.contacts, postgresUrl: options.postgresUrl, log });
  track(null, database);
  const apiKey = database.apiKeys[0] as string;
  let server: ServerProcess | null = null;
  try {
    log(`starting the service (compiled, npm start's flags) on ${database.engine}...`);
    server = await startServer({ cwd: ROOT, databaseUrl: database.databaseUrl, apiKey, onUnexpectedExit: log });
    track(server, database);
    const pid = server.servingPid;
    log(`service on ${server.origin} (pid ${pid}); ${options.minutes} min of ${CONNECTIONS} connections with ${EXPORT_LOOPS} export loops (load average ${loadAverage()})`);
    const loadAverageStart = loadAverage();
    const samples: Sample[] = [];
    const started = performance.now();
    let nextReport = 1;
    const walFile = kind === 'sqlite' ? `${database.databaseUrl}-wal` : null;
    const wal = walFile ? { peakBytes: 0, endBytes: 0 } : null;
    const sample = () => {
      const minutes = (performance.now() - started) / 60_000;
      if (wal && walFile) {
        wal.endBytes = existsSync(walFile) ? statSync(walFile).size : 0;
        wal.peakBytes = Math.max(wal.peakBytes, wal.endBytes);
      }
      const memory = readResidentAndFootprint(pid);
      if (memory === null) return;
      const rssBytes = memory.rss;
      samples.push({ minutes, rssBytes, anonBytes: memory.footprint });
      if (minutes >= nextReport) {
        log(`  ${minutes.toFixed(1)} min: RSS ${mib(rssBytes)} MiB (load average ${loadAverage()})`);
        nextReport = Math.floor(minutes) + 1;
      }
    };
    sample();
    const timer = setInterval(sample, SAMPLE_MS);
    let load: MixedLoadResult;
    try {
      load = await measureMixedLoad(server.origin, apiKey, { durationSeconds: Math.round(options.minutes * 60), connections: CONNECTIONS, exportLoops: EXPORT_LOOPS, serverPid: pid });
    } finally {
      clearInterval(timer);
    }
    sample();
    const perMinute: Sample[] = [];
    for (let mark = 0; mark <= Math.floor(options.minutes + 1e-9); mark++) {
      const nearest = samples.reduce((best, s) => (Math.abs(s.minutes - mark) < Math.abs(best.minutes - mark) ? s : best));
      perMinute.push(nearest);
    }
    // The last half of the load phase: the samples after it (exports still finishing) are left out.
    const lastHalf = samples.filter((s) => s.minutes >= options.minutes / 2 && s.minutes <= options.minutes).map((s) => ({ x: s.minutes, y: s.rssBytes / MiB }));
    return {
      kind,
      engine: database.engine,
      minutes: options.minutes,
      contacts: options.contacts,
      samples,
      load,
      perMinute,
      slopeMiBPerMinute: leastSquaresSlope(lastHalf),
      wal,
      loadAverageStart,
      loadAverageEnd: loadAverage(),
    };
  } finally {
    await server?.stop();
    await database.drop();
    track(null, null);
  }
}

function resultLines(result: SoakResult): string[] {
  const peakMiB = result.load.peakRssBytes / MiB;
  const ok = peakMiB < GOAL_PEAK_MIB && result.slopeMiBPerMinute < GOAL_SLOPE_MIB_PER_MINUTE;
  const refused = Object.entries(result.load.exports.refused).map(([status, n]) => `${n} × ${status}`).join(', ') || 'none';
  return [
    `### ${result.kind === 'postgres' ? 'PostgreSQL' : 'SQLite'}: ${result.minutes} min, ${int(result.contacts)} contacts`,
    '',
    `${new Date().toISOString()}; ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, ${result.engine}; ` +
      `1-min load average ${result.loadAverageStart} at the start, ${result.loadAverageEnd} at the end.`,
    '',
    `${int(result.load.requests)} requests (${result.load.requestsPerSecond.toFixed(0)} req/s, p50 ${result.load.p50Ms.toFixed(0)} ms, p99 ${result.load.p99Ms.toFixed(0)} ms, ` +
      `non-2xx ${result.load.non2xx} of which 5xx ${result.load.serverErrors}, autocannon timeouts/errors ${result.load.errors}); ` +
      `exports read ${result.load.exports.csv} CSV + ${result.load.exports.xlsx} xlsx, refused ${refused}, failed ${result.load.exports.failed}.` +
      (result.wal ? ` The WAL file: largest ${mib(result.wal.peakBytes)} MiB, ${mib(result.wal.endBytes)} MiB at the end (sampled every ${SAMPLE_MS / 1000} s).` : ''),
    '',
    '| peak RSS (MiB) | slope over the last half (MiB/min) | goal | result |',
    '|---:|---:|---|---|',
    `| ${peakMiB.toFixed(0)} | ${result.slopeMiBPerMinute.toFixed(2)} | peak < ${GOAL_PEAK_MIB} MiB, slope < ${GOAL_SLOPE_MIB_PER_MINUTE} MiB/min | ${ok ? 'pass' : '**FAIL**'} |`,
    '',
    `RSS at each minute, MiB (of which anonymous): ${result.perMinute.map((sample, minute) => `${minute}: ${mib(sample.rssBytes)} (${mib(sample.anonBytes)})`).join(', ')}`,
    '',
  ];
}

async function main() {
  const { values } = parseArgs({
    options: {
      database: { type: 'string', default: 'both' },
      contacts: { type: 'string', default: '200000' },
      'postgres-url': { type: 'string', default: DEFAULT_POSTGRES_URL },
    },
  });
  const minutes = positiveNumber('SOAK_MINUTES', process.env.SOAK_MINUTES ?? '20');
  const contacts = positiveNumber('--contacts', values.contacts);
  const kinds: DatabaseKind[] = values.database === 'both' ? ['sqlite', 'postgres'] : values.database === 'sqlite' || values.database === 'postgres' ? [values.database] : [];
  if (kinds.length === 0) throw new Error(`--database must be sqlite, postgres or both, got '${values.database}'`);

  let running: { server: ServerProcess | null; database: BenchDatabase | null } = { server: null, database: null };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`\n${signal}: stopping the service and removing the database`);
      void Promise.all([running.server?.stop(), running.database?.drop()]).finally(() => process.exit(130));
    });
  }
  const lines = [`## Memory soak (issue 37): ${minutes} min of the mixed load a database`, ''];
  for (const kind of kinds) {
    const result = await soak(kind, { minutes, contacts, postgresUrl: values['postgres-url'] }, (server, database) => (running = { server, database }));
    const block = resultLines(result);
    log(block.join('\n'));
    lines.push(...block);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench:soak failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
