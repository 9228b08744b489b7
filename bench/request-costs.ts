/**
 * What each part of the service costs a list request (issue 39 point 3: "profile what Fastify, the hooks, the key
 * check and the rate limiter cost a request"), `npm run bench:request-costs -- [--database sqlite|postgres]
 * [--contacts N] [--duration S] [--rounds R]` (defaults: SQLite, 1,000,000 contacts, 5 s, 3 rounds).
 *
 * On a seeded database (bench/bench-database.ts), the compiled service answers `GET /contacts?$filter=state eq
 * 'active'` (a cheap indexed page, where the service's constant cost shows most) under autocannon, 10 connections:
 *
 * 1. **The rate limiter, switched:** two services on the same database, one with `RATE_LIMIT_PER_MINUTE=0` (off, as
 *    every other benchmark runs) and one with a limit no run reaches (on, as production runs: the in-memory store on
 *    SQLite, the `rate_limits` upsert on PostgreSQL), and, where redis-server is installed, a third counting in
 *    Redis (`REDIS_URL`), measured in turns, off on Redis off on Redis...; printed: req/s and the serving process's
 *    CPU a request (utime + stime, every thread), medians, and on minus off.
 * 2. **Every part, profiled:** the service with the limiter on, under `node --cpu-prof` (a sample every 100 µs) for one run; each sample in
 *    the run's time window goes to a part by `partOf` (the innermost frame of the service's code or of a library,
 *    by original source file through the compiled files' source maps: the SQL, the key check of
 *    server/plugins/auth.ts, the limiter, the other hooks, the route, Fastify, zod, pino; Node's internals count
 *    for their caller; the reply's socket write, the garbage collector and Node's own callbacks apart). Printed: µs of
 *    profiled CPU a request per part and its share. The profiler inflates every figure (1.4 to 2.2x): the shares
 *    are what count, part 1 says what the service costs unprofiled.
 *
 * On PostgreSQL the statements run in PostgreSQL's backends: the CPU figures are the Node process's alone.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type DatabaseKind, createBenchDatabase, loadAverage } from './bench-database';
import { type LoadResult, measureLoad, queryString } from './measure';
import { type ServerProcess, startServer } from './server-process';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'sqlite' },
    contacts: { type: 'string', default: '1000000' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
  },
});
const kind = values.database as DatabaseKind;
if (kind !== 'sqlite' && kind !== 'postgres') throw new Error('--database is sqlite or postgres');
const contacts = Number(values.contacts);
const duration = Number(values.duration);
const rounds = Number(values.rounds);
if (![contacts, duration, rounds].every((n) => Number.isInteger(n) && n > 0)) throw new Error('--contacts, --duration and --rounds are positive integers');

const log = (line: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const PATH = `/api/contacts${queryString({ $filter: "state eq 'active'", $limit: 50 })}`;
const CONNECTIONS = 10;
/** A limit no run reaches: the limiter counts every request and refuses none. */
const LIMIT_ON = '1000000000';

type Profile = {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
};

/** The part a frame of the service's code or of a library belongs to, by its original source file. */
function partOfSource(source: string): string {
  if (/kysely|better-sqlite3|node_modules\/pg(-[a-z]+)?\//.test(source)) return 'SQL (Kysely and the driver: the key\'s look-up, the data version, the page; on PostgreSQL the limiter\'s upsert too)';
  if (source.includes('server/plugins/auth.ts') || source.includes('server/routes/authorization.ts')) return 'key check and scope (server/plugins/auth.ts: the SHA-256 of the key; its look-up is in the SQL)';
  if (source.includes('rate-limit')) return 'rate limiter (@fastify/rate-limit and its store)';
  if (source.includes('server/plugins/') || source.includes('server/app.ts')) return 'other service-wide hooks (trace id, security headers, transport limits)';
  if (source.includes('server/') || source.includes('src/api/')) return 'route (list parameters, the contact store, the page text)';
  if (/\/(fastify|find-my-way|fast-json-stringify|fast-querystring|fast-decode-uri-component|avvio|light-my-request|fastify-plugin|@fastify\/[^/]+)\//.test(source)) return 'Fastify (router, query string, hook chain, request and reply)';
  if (source.includes('pino')) return 'logging (pino)';
  if (source.includes('/zod/')) return 'validation (zod)';
  return `other libraries (${source.match(/node_modules\/((@[^/]+\/)?[^/]+)/)?.[1] ?? source})`;
}

/**
 * The part one sample goes to: the garbage collector's and the socket write's own lines; else the innermost frame
 * on its stack that is the service's code or a library's (Node's internals and native code count for the code that
 * called them); what runs with neither on its stack (the HTTP parser, socket and timer callbacks) is Node's. An
 * `await` cuts a stack: code resumed after one is counted where it runs, not under the hook or route that awaited.
 */
function partOf(stack: string[]): string | null {
  const leaf = stack.at(-1) ?? '';
  if (leaf === '(idle)') return null;
  if (leaf === '(garbage collector)') return 'garbage collection';
  if (leaf === '(program)') return 'V8 and native code outside JavaScript ((program))';
  const caller = stack.findLast((source) => !source.startsWith('node:') && !source.startsWith('('));
  const part = caller === undefined ? 'Node (HTTP parser, socket and timer callbacks)' : partOfSource(caller);
  // The reply's write to the client's socket; a statement's write to PostgreSQL's socket stays the SQL's.
  if (!part.startsWith('SQL') && stack.includes('node:internal/stream_base_commons')) return 'the socket write (writev)';
  return part;
}

/** Maps a profile frame to its original source file: node_modules paths as they are, dist-server/ through its source map. */
function sourceResolver(): (frame: Profile['nodes'][number]['callFrame']) => string {
  const maps = new Map<string, SourceMap | null>();
  return (frame) => {
    const { url } = frame;
    if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
    if (!url.includes('/dist-server/')) return url;
    let map = maps.get(url);
    if (map === undefined) {
      try {
        map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')));
      } catch {
        map = null;
      }
      maps.set(url, map);
    }
    const entry = map?.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string } | undefined;
    return entry?.originalSource ?? url;
  };
}

/**
 * µs of profiled CPU per part, over the samples whose time (CLOCK_MONOTONIC µs, V8's clock and `process.hrtime`'s)
 * falls in [from, to]; `covered`: the µs those samples span, idle included.
 */
function attribute(profile: Profile, from: number, to: number): { parts: Map<string, number>; covered: number; inWindow: number } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const source = sourceResolver();
  const stacks = new Map<number, string[]>();
  const stackOf = (id: number): string[] => {
    let stack = stacks.get(id);
    if (!stack) {
      const up = parent.get(id);
      stack = [...(up === undefined ? [] : stackOf(up)), source(byId.get(id)!.callFrame)];
      stacks.set(id, stack);
    }
    return stack;
  };
  const parts = new Map<string, number>();
  let time = profile.startTime;
  let inWindow = 0;
  let covered = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    time += delta;
    if (time < from || time > to) continue;
    inWindow++;
    covered += delta;
    const part = partOf(stackOf(profile.samples[i]!));
    if (part) parts.set(part, (parts.get(part) ?? 0) + delta);
  }
  return { parts, covered, inWindow };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/** A TCP port free on 127.0.0.1 now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as AddressInfo;
  await new Promise((done) => probe.close(done));
  return port;
}

let stopRedis = () => {};
const database = await createBenchDatabase({ kind, contacts, log });
const servers: ServerProcess[] = [];
const profileDir = mkdtempSync(join(tmpdir(), 'wsa-bench-profile-'));
try {
  const apiKey = database.apiKeys[0]!;
  log(`${database.engine}; ${contacts.toLocaleString('en-US')} contacts; starting two services (limiter off, on)...`);
  const off = await startServer({ cwd: ROOT, databaseUrl: database.databaseUrl, apiKey, onUnexpectedExit: log });
  servers.push(off);
  const on = await startServer({ cwd: ROOT, databaseUrl: database.databaseUrl, apiKey, env: { RATE_LIMIT_PER_MINUTE: LIMIT_ON }, onUnexpectedExit: log });
  servers.push(on);
  // The limiter counting in Redis (`REDIS_URL`, docs/deploy.md), where redis-server is installed.
  let redis: { server: ServerProcess; process: ChildProcess } | null = null;
  const redisServer = (() => {
    try {
      return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || null;
    } catch {
      return null;
    }
  })();
  if (redisServer) {
    const port = await freePort();
    const child = spawn(redisServer, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    stopRedis = () => child.kill();
    const server = await startServer({ cwd: ROOT, databaseUrl: database.databaseUrl, apiKey, env: { RATE_LIMIT_PER_MINUTE: LIMIT_ON, REDIS_URL: `redis://127.0.0.1:${port}` }, onUnexpectedExit: log });
    servers.push(server);
    redis = { server, process: child };
  }
  const run = async (server: ServerProcess) => {
    const result = await measureLoad(`${server.origin}${PATH}`, apiKey, { connections: CONNECTIONS, durationSeconds: duration, serverPid: server.servingPid });
    if (result.non2xx || result.errors) throw new Error(`${result.non2xx} non-2xx answers and ${result.errors} errors: the limiter refused, or the service failed`);
    return result;
  };
  await run(off);
  await run(on); // warm-up of each, not counted
  if (redis) await run(redis.server);
  const offRuns: LoadResult[] = [];
  const onRuns: LoadResult[] = [];
  const redisRuns: LoadResult[] = [];
  for (let round = 1; round <= rounds; round++) {
    offRuns.push(await run(off));
    onRuns.push(await run(on));
    if (redis) redisRuns.push(await run(redis.server));
    log(`round ${round}: off ${offRuns.at(-1)!.requestsPerSecond.toFixed(0)} req/s, on ${onRuns.at(-1)!.requestsPerSecond.toFixed(0)} req/s${redis ? `, on in Redis ${redisRuns.at(-1)!.requestsPerSecond.toFixed(0)} req/s` : ''}`);
  }
  await off.stop();
  await on.stop();
  await redis?.server.stop();

  log('the service with the limiter on under --cpu-prof...');
  const profiled = await startServer({ cwd: ROOT, databaseUrl: database.databaseUrl, apiKey, env: { RATE_LIMIT_PER_MINUTE: LIMIT_ON }, nodeArgs: ['--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${profileDir}`], onUnexpectedExit: log });
  servers.push(profiled);
  await run(profiled); // warm-up
  const from = monotonicMicros();
  const load = await run(profiled);
  const to = monotonicMicros();
  await profiled.stop();
  const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no .cpuprofile in ${profileDir}: the service did not exit cleanly`);
  const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as Profile;
  const { parts, covered, inWindow } = attribute(profile, from, to);
  // V8 samples idle time too, so the samples in the window cover it when the clocks agree.
  if (covered < 0.5 * (to - from)) throw new Error(`the samples in the run's window cover ${(covered / 1000).toFixed(0)} of its ${((to - from) / 1000).toFixed(0)} ms: the profile's clock is not the bench's`);

  const cpu = (runs: LoadResult[]) => median(runs.map((r) => r.serverCpuMsPerRequest ?? Number.NaN));
  const rps = (runs: LoadResult[]) => median(runs.map((r) => r.requestsPerSecond));
  const fmt = (n: number, digits = 3) => n.toFixed(digits);
  console.log(`\nWhat a list request costs, by part (\`GET /contacts?$filter=state eq 'active'&$limit=50\`), ${database.engine}, ${contacts.toLocaleString('en-US')} contacts, ${CONNECTIONS} connections, ${duration} s runs; 1-minute load average ${loadAverage()}\n`);
  console.log(`The rate limiter switched (medians of ${rounds} rounds, in turns):\n`);
  console.log('| service | req/s | CPU ms a request |');
  console.log('|---|---:|---:|');
  console.log(`| limiter off | ${rps(offRuns).toFixed(0)} | ${fmt(cpu(offRuns))} |`);
  console.log(`| limiter on (limit ${LIMIT_ON}/min, never reached) | ${rps(onRuns).toFixed(0)} | ${fmt(cpu(onRuns))} |`);
  console.log(`| the limiter's cost | ${(rps(onRuns) / rps(offRuns)).toFixed(2)}x | ${fmt(cpu(onRuns) - cpu(offRuns))} |`);
  if (redisRuns.length) {
    console.log(`| limiter on, counted in Redis (\`REDIS_URL\`) | ${rps(redisRuns).toFixed(0)} | ${fmt(cpu(redisRuns))} |`);
    console.log(`| the limiter's cost in Redis | ${(rps(redisRuns) / rps(offRuns)).toFixed(2)}x | ${fmt(cpu(redisRuns) - cpu(offRuns))} |`);
  }
  const total = [...parts.values()].reduce((a, b) => a + b, 0);
  console.log(`\nProfiled, limiter on (one ${duration} s run, ${load.requests.toLocaleString('en-US')} requests, ${load.requestsPerSecond.toFixed(0)} req/s under the profiler; ${inWindow.toLocaleString('en-US')} samples):\n`);
  console.log('| part | µs a request (profiled) | share |');
  console.log('|---|---:|---:|');
  for (const [part, micros] of [...parts].sort((a, b) => b[1] - a[1])) console.log(`| ${part} | ${fmt(micros / load.requests, 1)} | ${((100 * micros) / total).toFixed(1)}% |`);
  console.log(`| busy total | ${fmt(total / load.requests, 1)} | 100% |`);
} finally {
  for (const server of servers) await server.stop();
  stopRedis();
  rmSync(profileDir, { recursive: true, force: true });
  await database.drop();
}
