/**
 * The service as `npm start` runs it, for tests of what only the real process shows (its defaults, its start
 * output): server/main.ts compiled by esbuild with scripts/build-server.mjs's options (into a folder of its own
 * under node_modules/.cache, so test files and projects running at once never share one), started with plain
 * Node and the V8 flags scripts/start.mjs gives it (`START_NODE_FLAGS`), with only the environment a test gives
 * beyond `PATH`/`HOME` (so every other setting is the shipped default).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import getPort from 'get-port';
import { afterAll, beforeAll } from 'vitest';
import { buildServer } from '../../scripts/build-server.mjs';
import { START_NODE_FLAGS } from '../../scripts/node-flags.mjs';
import { isRunning } from './test-database';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export type StartedService = {
  /** `http://<host>:<port>` */
  origin: string;
  port: number;
  /** The process id (for reading its memory from /proc). */
  pid: number;
  /** Everything the process wrote to stdout and to stderr so far. */
  stdout(): string;
  stderr(): string;
  /** Stops the process (SIGTERM, SIGKILL after 5 s); safe to call twice. */
  stop(): Promise<void>;
  /** Resolves when the process has exited, with its exit code or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

let built: Promise<string> | undefined;

/** Where `buildService` puts each test process's build, in a folder named `<pid>-<hex>`. */
const BUILDS = join(ROOT, 'node_modules', '.cache', 'wsa-test-service');

/**
 * Compiles server/main.ts and server/cli.ts once per test process (a vitest worker runs file after file:
 * `isolate: false`) into a folder of its own, as `npm start` has them (scripts/build-server.mjs: Kysely inlined, which
 * takes a third off each start's CPU: `cli.js --help` 0.3 s against 0.5 s); returns the entry file. The folder is
 * removed when the process exits, and those of processes killed before that when the next build is made. Every test
 * starting the service as a process shares it: one esbuild run a worker instead of one a file, and plain Node starting
 * the service with about half the CPU that tsx compiling it on start costs (measured: 1.2 to 1.3 s against 2.6 to
 * 3.0 s to healthy). `cli` is the compiled operator command line.
 */
export async function buildService(): Promise<{ entry: string; cli: string }> {
  built ??= (async () => {
    mkdirSync(BUILDS, { recursive: true });
    for (const name of readdirSync(BUILDS)) {
      if (!isRunning(Number(name.split('-')[0]))) rmSync(join(BUILDS, name), { recursive: true, force: true });
    }
    const outdir = join(BUILDS, `${process.pid}-${randomBytes(4).toString('hex')}`);
    mkdirSync(outdir);
    process.once('exit', () => rmSync(outdir, { recursive: true, force: true }));
    await buildServer(outdir, { sourcemap: false });
    return outdir;
  })();
  const outdir = await built;
  return { entry: join(outdir, 'main.js'), cli: join(outdir, 'cli.js') };
}

/**
 * Starts `entry` (from `buildService`) on a free port with `env` (plus `PORT`, and `HOST` 127.0.0.1 unless
 * given), resolving once it printed that it is serving. Rejects with its output when it exits first or is not
 * serving within `timeoutMs` (60 s).
 */
export async function startService(entry: string, env: Record<string, string>, timeoutMs = 60_000): Promise<StartedService> {
  const port = await getPort({ host: '127.0.0.1' });
  const host = env.HOST ?? '127.0.0.1';
  const child: ChildProcess = spawn(process.execPath, [...(START_NODE_FLAGS as string[]), entry], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port), HOST: host, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let stopped: Promise<void> | null = null;
  const stop = () =>
    (stopped ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    })());
  const deadline = Date.now() + timeoutMs;
  while (!out.includes('is serving')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the service did not start (exit code ${child.exitCode}):\n${out}\n${err}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { origin: `http://127.0.0.1:${port}`, port, pid: child.pid!, stdout: () => out, stderr: () => err, stop, exited };
}

/**
 * For a `describe` block: builds the service and starts it on a fresh SQLite file in a temporary folder named
 * `wsa-<name>-...` (no demo seed, every other setting the shipped default) before its tests, and stops it and
 * removes the folder after them (the build is the worker's, `buildService`). Returns a getter of the started process
 * (valid inside the tests).
 */
export function useStartedService(name: string): () => StartedService {
  let service: Awaited<ReturnType<typeof buildService>> | undefined;
  let started: StartedService | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    service = await buildService();
    dir = mkdtempSync(join(tmpdir(), `wsa-${name}-`));
    started = await startService(service.entry, { DATABASE_URL: join(dir, 'app.sqlite'), DEMO_SEED: 'off' });
  }, 90_000);
  afterAll(async () => {
    await started?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (!started) throw new Error('the service is started in beforeAll: read it inside a test');
    return started;
  };
}
