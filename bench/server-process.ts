/**
 * The service under test as a separate process (the compiled `dist-server/main.js`, as `npm start` runs it), for
 * the API benchmark: starting it on a free loopback port, waiting until it answers, finding the node process that
 * serves the port and sampling that process's resident memory.
 */
import getPort from 'get-port';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { START_NODE_FLAGS } from '../scripts/node-flags.mjs';

export type ServerProcess = {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The pid of the spawned tsx process. */
  pid: number;
  /** The pid of the node process listening on the port (the one to measure). */
  servingPid: number;
  /** Everything the server wrote to stdout and stderr so far (for error messages). */
  output(): string;
  /** Stops the server (SIGTERM to its process group, SIGKILL after 5 s); safe to call twice. */
  stop(): Promise<void>;
};

/**
 * Compiles the service (scripts/build-server.mjs) and spawns it as `npm start` runs it, `node <the V8 flags of
 * scripts/node-flags.mjs> dist-server/main.js`,
 * in `cwd` with `DATABASE_URL=databaseUrl` (an SQLite file or a `postgres://` URL), no demo seed and no rate
 * limit, and resolves once `GET /api/contacts?$limit=1` with `apiKey` answers 200. Rejects (after
 * stopping it) when the process exits early or does not answer within `timeoutMs` (60 s).
 */
export async function startServer(options: {
  cwd: string;
  databaseUrl: string;
  apiKey: string;
  /** More environment for the server (overriding the defaults above). */
  env?: Record<string, string>;
  /** More flags for node, after the start flags (`--cpu-prof`, which NODE_OPTIONS does not allow). */
  nodeArgs?: string[];
  timeoutMs?: number;
  /** Called with the server's last output when it exits without being stopped. */
  onUnexpectedExit?: (message: string) => void;
}): Promise<ServerProcess> {
  const port = await getPort({ host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${port}`;
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: options.cwd, stdio: 'inherit' });
  const child = spawn(process.execPath, [...(START_NODE_FLAGS as string[]), ...(options.nodeArgs ?? []), 'dist-server/main.js'], {
    cwd: options.cwd,
    env: { ...process.env, DATABASE_URL: options.databaseUrl, DEMO_SEED: 'off', RATE_LIMIT_PER_MINUTE: '0', PORT: String(port), HOST: '127.0.0.1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let running = true;
  let stopping = false;
  child.once('exit', (code, signal) => {
    running = false;
    if (!stopping) options.onUnexpectedExit?.(`the server process exited unexpectedly (code ${code}, signal ${signal}):\n${output}`);
  });
  const stop = () => {
    stopping = true;
    return stopChild(child, exited, () => running);
  };

  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  try {
    for (;;) {
      if (!running) throw new Error(`the server exited before answering:\n${output}`);
      if (Date.now() > deadline) throw new Error(`the server did not answer on ${origin} in time:\n${output}`);
      const status = await fetch(`${origin}/api/contacts?%24limit=1`, { headers: { 'x-api-key': options.apiKey } }).then(
        (response) => response.body?.cancel().then(() => response.status) ?? response.status,
        () => 0,
      );
      if (status === 200) break;
      if (status !== 0) throw new Error(`the server answered ${status} to the readiness request:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const pid = child.pid as number;
  return { origin, pid, servingPid: listeningPid(port, pid) ?? deepestNodeDescendant(pid), output: () => output, stop };
}

async function stopChild(child: ChildProcess, exited: Promise<void>, running: () => boolean): Promise<void> {
  if (!running() || child.pid === undefined) return;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), signal);
    } catch {
      // already gone
    }
  };
  signalGroup('SIGTERM');
  const timer = setTimeout(() => signalGroup('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** Direct children of `pid`, from /proc/<pid>/task/<tid>/children. */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** `pid` and all its descendants. */
function descendants(pid: number): number[] {
  return [pid, ...childrenOf(pid).flatMap(descendants)];
}

/** The pid among `root` and its descendants holding the socket that listens on `port` (from /proc/net/tcp). */
function listeningPid(port: number, root: number): number | null {
  const portHex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is HEXIP:HEXPORT, state 0A is LISTEN, inode is field 9
      if (fields[1]?.endsWith(`:${portHex}`) && fields[3] === '0A' && fields[9]) inodes.add(fields[9]);
    }
  }
  for (const pid of descendants(root)) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: 'utf8' });
        const match = /^socket:\[(\d+)\]$/.exec(target);
        if (match?.[1] && inodes.has(match[1])) return pid;
      }
    } catch {
      // process gone or not ours
    }
  }
  return null;
}

/** The last node process down the first-child chain from `pid` (fallback when the socket cannot be matched). */
function deepestNodeDescendant(pid: number): number {
  let current = pid;
  for (;;) {
    const next = childrenOf(current)[0];
    if (next === undefined) return current;
    current = next;
  }
}

/** CPU time (user + system) `pid` has used so far, in milliseconds, from /proc/<pid>/stat; null when unreadable. */
export function readCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the command name (which may contain spaces) start at index 2; utime and stime are fields 14 and 15
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS : null;
  } catch {
    return null;
  }
}

/** Kernel clock ticks a second (USER_HZ), 100 on every Linux platform Node supports. */
const CLOCK_TICKS = 100;

/** The fields of /proc/PID/status counted in kB (`VmRSS`, `VmHWM`, `RssAnon`, `VmSwap`, ...), in bytes, from one read; null when it cannot be read. */
function readStatusMemory(pid: number): Map<string, number> | null {
  try {
    const fields = new Map<string, number>();
    for (const [, name, kb] of readFileSync(`/proc/${pid}/status`, 'utf8').matchAll(/^(\w+):\s+(\d+) kB$/gm)) fields.set(name!, Number(kb) * 1024);
    return fields;
  } catch {
    return null;
  }
}

/** `VmRSS` (or another field of /proc/PID/status counted in kB) of `pid` in bytes, or null when it cannot be read. */
export function readMemory(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number | null {
  return readStatusMemory(pid)?.get(field) ?? null;
}

/**
 * `pid`'s resident memory (`VmRSS`) and its private memory footprint, in bytes, from one read; null when unreadable.
 * The footprint is what Chromium computes on Linux and its task manager shows as a tab's "Memory footprint":
 * anonymous resident memory plus swap (`RssAnon` + `VmSwap`; Chromium's services/resource_coordinator
 * memory_instrumentation `CalculatePrivateFootprintKb`). Unlike RSS it leaves out pages mapped from files
 * (Chromium's code, fonts, ICU data), which every Chromium process shares.
 */
export function readResidentAndFootprint(pid: number): { rss: number; footprint: number } | null {
  const fields = readStatusMemory(pid);
  return fields && { rss: fields.get('VmRSS') ?? 0, footprint: (fields.get('RssAnon') ?? 0) + (fields.get('VmSwap') ?? 0) };
}

/** Resets the kernel's peak-RSS mark (`VmHWM`) of `pid`; false when not allowed. */
export function resetPeakMemory(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

export type MemorySampler = {
  /** Stops sampling; returns the highest RSS seen, in bytes (also counting the kernel's VmHWM when it was reset). */
  stop(): number;
};

/**
 * Samples the RSS of `pid` every `intervalMs` (50) until stopped. The kernel's peak mark is reset at the start
 * and read at the end as well, so a spike between two samples is not missed.
 */
export function sampleMemory(pid: number, intervalMs = 50): MemorySampler {
  const hwmReset = resetPeakMemory(pid);
  let peak = readMemory(pid) ?? 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, readMemory(pid) ?? 0);
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, readMemory(pid) ?? 0);
      if (hwmReset) peak = Math.max(peak, readMemory(pid, 'VmHWM') ?? 0);
      return peak;
    },
  };
}
