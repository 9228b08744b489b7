/**
 * The floor comparison of the API benchmark (issue 16): how close the service comes to a bare `node:http` server
 * running the same SQL on the same database (bench/floor-server.mjs).
 *
 * 1. `recordStatements`: a second service process with `SQL_TRACE_FILE` set (and no scheduled-post job, whose
 *    statements would land in the trace at random) answers each case three times; the
 *    statements of the first request (the exact count included, or the readiness request's for a count the
 *    service had cached by then) become the floor's `setup`, those of the second
 *    its `perRequest`, and the third must repeat the second's statements, in any order (else the case is not steady and it throws).
 * 2. `startFloor`: the floor process over those statements, on the same database.
 * 3. `checkIdentical`: each case answered by the service and by the floor must be byte-identical, or it throws.
 * 4. `compareWithFloor`: per case, `rounds` runs of autocannon on each, interleaved (ours, floor, ours, floor...),
 *    with each process's CPU time per request; the means and the ratios ours/floor.
 */
import getPort from 'get-port';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LoadResult, measureLoad } from './measure';
import { type ServerProcess, startServer } from './server-process';

export type Statement = { sql: string; parameters: unknown[] };
export type FloorCase = { name: string; path: string; setup: Statement[]; perRequest: Statement[] };

const readTrace = (file: string, from: number): Statement[] =>
  readFileSync(file, 'utf8')
    .slice(from)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Statement);

/**
 * The statements the service runs for each of `cases` (`{ name, path }`, path from `/api/...` with its query),
 * recorded by a traced service process on `databaseUrl`, which is stopped before returning.
 * @throws when a case's second and third requests ran different statements, or a request failed.
 */
export async function recordStatements(options: { root: string; dir: string; databaseUrl: string; apiKey: string; cases: { name: string; path: string }[] }): Promise<FloorCase[]> {
  const trace = join(options.dir, 'sql-trace.jsonl');
  writeFileSync(trace, '');
  const traced = await startServer({ cwd: options.root, databaseUrl: options.databaseUrl, apiKey: options.apiKey, env: { SQL_TRACE_FILE: trace, SCHEDULER_INTERVAL_MS: '0' } });
  try {
    const request = async (path: string): Promise<Statement[]> => {
      const from = statSync(trace).size;
      const response = await fetch(`${traced.origin}${path}`, { headers: { 'x-api-key': options.apiKey } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`recording ${path}: answered ${response.status}`);
      return readTrace(trace, from);
    };
    // What the readiness request ran (startServer's `$limit=1`): it counted the unfiltered contacts already (a count, or
    // a read of the kept counts, migration 0010).
    const initial = readTrace(trace, 0).filter((statement) => /count\(\*\)|from "contact_counts"/i.test(statement.sql));
    const recorded: FloorCase[] = [];
    for (const { name, path } of options.cases) {
      const setup = [...initial, ...(await request(path))];
      const perRequest = await request(path);
      const again = await request(path);
      // As a set: on PostgreSQL the page and the count run at once on two connections and finish in either order.
      const same = (a: Statement[], b: Statement[]) => JSON.stringify(a.map((x) => JSON.stringify(x)).sort()) === JSON.stringify(b.map((x) => JSON.stringify(x)).sort());
      if (!same(again, perRequest)) throw new Error(`${name}: the service ran different statements on two warm requests`);
      recorded.push({ name, path, setup, perRequest });
      if (process.env.FLOOR_DEBUG) console.error(JSON.stringify({ name, setup, perRequest }, null, 1));
    }
    return recorded;
  } finally {
    await traced.stop();
  }
}

export type FloorProcess = { origin: string; pid: number; stop(): Promise<void> };

/** Starts bench/floor-server.mjs on a free port over `cases`; resolves when it listens. */
export async function startFloor(options: { root: string; dir: string; databaseUrl: string; cases: FloorCase[] }): Promise<FloorProcess> {
  const casesFile = join(options.dir, 'floor-cases.json');
  writeFileSync(casesFile, JSON.stringify(options.cases.map(({ path, setup, perRequest }) => ({ path, setup, perRequest }))));
  const port = await getPort({ host: '127.0.0.1' });
  const child: ChildProcess = spawn(process.execPath, ['bench/floor-server.mjs'], {
    cwd: options.root,
    env: { ...process.env, FLOOR_DATABASE_URL: options.databaseUrl, FLOOR_CASES: casesFile, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the floor server exited with code ${code}`)));
    child.stdout?.once('data', () => resolve());
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid as number,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** @throws when a case's body from the service differs from the floor's by one byte or more. */
export async function checkIdentical(service: ServerProcess, floor: FloorProcess, apiKey: string, cases: FloorCase[]): Promise<void> {
  for (const { name, path } of cases) {
    const [ours, bare] = await Promise.all(
      [service.origin, floor.origin].map(async (origin) => Buffer.from(await (await fetch(`${origin}${path}`, { headers: { 'x-api-key': apiKey } })).arrayBuffer())),
    );
    if (!ours || !bare || !ours.equals(bare)) throw new Error(`${name}: the floor's body differs from the service's (${ours?.length} and ${bare?.length} bytes)`);
  }
}

export type FloorComparison = { name: string; path: string; ours: LoadResult[]; floor: LoadResult[] };

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * `rounds` autocannon runs of each case on the service and on the floor, interleaved (A B A B...), `connections`
 * connections for `durationSeconds` each. Calls `onRun` after every run (progress). Throws on any non-2xx answer.
 */
export async function compareWithFloor(
  service: ServerProcess,
  floor: FloorProcess,
  apiKey: string,
  cases: FloorCase[],
  options: { rounds: number; connections: number; durationSeconds: number; onRun?: (name: string, which: 'ours' | 'floor', result: LoadResult) => void },
): Promise<FloorComparison[]> {
  const comparisons: FloorComparison[] = [];
  for (const { name, path } of cases) {
    const comparison: FloorComparison = { name, path, ours: [], floor: [] };
    for (let round = 0; round < options.rounds; round++) {
      for (const which of ['ours', 'floor'] as const) {
        const target = which === 'ours' ? { origin: service.origin, pid: service.servingPid } : { origin: floor.origin, pid: floor.pid };
        const result = await measureLoad(`${target.origin}${path}`, apiKey, { connections: options.connections, durationSeconds: options.durationSeconds, serverPid: target.pid });
        if (result.non2xx !== 0 || result.errors !== 0) throw new Error(`${name} (${which}): ${result.non2xx} non-2xx answers and ${result.errors} errors`);
        comparison[which].push(result);
        options.onRun?.(name, which, result);
      }
    }
    comparisons.push(comparison);
  }
  return comparisons;
}

/** The markdown table of `comparisons`: mean req/s and CPU per request of each, and ours/floor for both. */
export function floorLines(comparisons: FloorComparison[], goal: number): string[] {
  const fixed = (value: number, digits: number) => value.toFixed(digits);
  const rows = comparisons.map(({ name, ours, floor }) => {
    const rps = [mean(ours.map((r) => r.requestsPerSecond)), mean(floor.map((r) => r.requestsPerSecond))] as const;
    const cpu = [mean(ours.map((r) => r.serverCpuMsPerRequest ?? Number.NaN)), mean(floor.map((r) => r.serverCpuMsPerRequest ?? Number.NaN))] as const;
    const ratio = rps[0] / rps[1];
    return (
      `| ${name} | ${Math.round(rps[0]).toLocaleString('en-US')} | ${Math.round(rps[1]).toLocaleString('en-US')} | **${fixed(ratio, 2)}** | ` +
      `${fixed(cpu[0], 3)} | ${fixed(cpu[1], 3)} | ${fixed(cpu[1] / cpu[0], 2)} | ${ours.map((r) => Math.round(r.requestsPerSecond)).join(' / ')} | ` +
      `${floor.map((r) => Math.round(r.requestsPerSecond)).join(' / ')} | ${ratio >= goal ? 'pass' : '**FAIL**'} |`
    );
  });
  return [
    `Ours against the floor (a bare node:http server running the statements the service ran, on the same database, byte-identical answers), interleaved runs; goal ours/floor >= ${goal}:`,
    '',
    '| case | ours req/s | floor req/s | ours/floor req/s | ours CPU ms/req | floor CPU ms/req | floor/ours CPU | ours runs | floor runs | result |',
    '|---|---:|---:|---:|---:|---:|---:|---|---|---|',
    ...rows,
    '',
  ];
}
