/**
 * The real service as a separate process for the multi-process tests (issue 8): server/main.ts compiled once per
 * test process (started-service.ts `buildService`) and run by plain Node on a free loopback port, in its own process
 * group (signals go to the group). Ready once `/healthz` answers 200.
 * Everything the process prints is kept, line by line (its pino JSON log when `LOG_LEVEL` lets it log).
 */
import getPort from 'get-port';
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildService } from './started-service';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type ServiceProcess = {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `<origin>/api`, what harness.ts `call` takes. */
  baseUrl: string;
  child: ChildProcess;
  /** Lines printed so far on stdout and stderr. */
  lines(): string[];
  /** The parsed JSON log lines whose `msg` is `message`. */
  logged(message: string): Record<string, unknown>[];
  /** Sends `signal` to the process group; resolves when the process has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** SIGTERM (SIGKILL after 5 s); resolves on exit; safe to call twice. */
  stop(): Promise<void>;
};

/**
 * Starts the service over `databaseUrl` with `DEMO_SEED=off`, `LOG_LEVEL=error` and no rate limit unless `env`
 * says otherwise. Rejects, after killing it, when it exits early or is not healthy within `timeoutMs` (60 s).
 */
export async function startServiceProcess(databaseUrl: string, env: Record<string, string> = {}, timeoutMs = 60_000): Promise<ServiceProcess> {
  const port = await getPort({ host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${port}`;
  const { entry } = await buildService();
  const child = spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', DEMO_SEED: 'off', LOG_LEVEL: 'error', RATE_LIMIT_PER_MINUTE: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const lines: string[] = [];
  let partial = '';
  const collect = (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), signal);
    } catch {
      // already gone
    }
  };
  // A test runner that dies must not leave servers behind.
  const reap = () => signalGroup('SIGKILL');
  process.once('exit', reap);
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) signalGroup(signal);
    await exited;
    process.removeListener('exit', reap);
  };
  const stop = async () => {
    const timer = setTimeout(() => signalGroup('SIGKILL'), 5000);
    await kill('SIGTERM');
    clearTimeout(timer);
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the service on ${origin} exited (${child.exitCode ?? child.signalCode}) before it was healthy:\n${lines.join('\n')}`);
    }
    const status = await fetch(`${origin}/healthz`).then(
      (response) => response.body?.cancel().then(() => response.status) ?? response.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > deadline) {
      await kill('SIGKILL');
      throw new Error(`the service on ${origin} was not healthy within ${timeoutMs} ms (last status ${status}):\n${lines.join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    origin,
    baseUrl: `${origin}/api`,
    child,
    lines: () => [...lines, ...(partial ? [partial] : [])],
    logged: (message) =>
      lines.flatMap((line) => {
        try {
          const entry = JSON.parse(line) as Record<string, unknown>;
          return entry.msg === message ? [entry] : [];
        } catch {
          return [];
        }
      }),
    kill,
    stop,
  };
}

/**
 * A server in proxy mode (issue 15) forwarding `/api/*` to `upstreamApiUrl`. Its `DATABASE_URL` names a file in a
 * folder that does not exist, so a process that opened a database would fail to start. Ready once its
 * `/healthz` answers 200, which needs the upstream answering.
 */
export function startProxyProcess(upstreamApiUrl: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
  return startServiceProcess('/nonexistent/proxy-mode-opens-no-database.sqlite', { UPSTREAM_API_URL: upstreamApiUrl, ...env });
}
