/**
 * Starting the real service for browser tests: a free loopback port, the compiled service (`dist-server/main.js`,
 * built by scripts/build-server.mjs in the global setup, as `npm start` runs it) over a given SQLite file, ready once
 * `/app-config.json` answers. Also runs the compiled operator command line (`dist-server/cli.js`): plain Node starts
 * each command with a third of the CPU that compiling TypeScript on start costs.
 */
import getPort from 'get-port';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { START_NODE_FLAGS } from '../scripts/node-flags.mjs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const COMPILED = `${ROOT}dist-server/`;

/** Compiles the service and the command line into dist-server/ (scripts/build-server.mjs); the global setup runs it once. */
export function compileService(): void {
  execFileSync(process.execPath, [`${ROOT}scripts/build-server.mjs`], { cwd: ROOT, stdio: 'inherit' });
}

/** Runs the operator command line (`npm run cli -- <args>`, compiled) on `databaseUrl`; returns its one JSON object. */
export function cli<T = Record<string, unknown>>(databaseUrl: string, ...args: string[]): T {
  const stdout = execFileSync(process.execPath, [`${COMPILED}cli.js`, ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: 'utf8' });
  return JSON.parse(stdout) as T;
}

export type StartedServer = { baseURL: string; process: ChildProcess; stop(): Promise<void> };

/** Starts the service on a free port with `env` added; resolves when it answers. */
export async function startService(databaseUrl: string, env: Record<string, string> = {}): Promise<StartedServer> {
  const port = await getPort({ host: '127.0.0.1' });
  const child = spawn(process.execPath, [...START_NODE_FLAGS, `${COMPILED}main.js`], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', DEMO_SEED: 'auto', RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseURL = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${baseURL}/app-config.json`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('the service did not answer within 60 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    baseURL,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

/**
 * `fetch` for a test's own calls to a test server, sent again once when the connection closed before any answer
 * (undici's `UND_ERR_SOCKET`, "other side closed"): Node's fetch may pick a kept-alive connection in the instant the
 * server closes it as idle, and such a request never reached the service, so sending it again cannot write twice.
 */
export async function fetchApi(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code !== 'UND_ERR_SOCKET') throw error;
    return fetch(url, init);
  }
}

/**
 * One call of a test to `baseURL`'s API with `key` (`x-api-key`), `body` sent as JSON: the status and the parsed JSON
 * answer (null when empty). Through `fetchApi`, so a connection closed before any answer is tried again once.
 */
export async function apiCall(baseURL: string, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetchApi(`${baseURL}/api${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}
