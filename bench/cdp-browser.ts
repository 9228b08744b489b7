/**
 * Debian's Chromium driven over a bare DevTools pipe (`--remote-debugging-pipe`), for benchmarks of what a person's
 * tab costs. Playwright enables the Network domain on every page it drives, and that instrumentation is not free:
 * measured on this machine (bench/devtools-cost.ts, 2026-11-26), 1,000 `GET /contacts` from a page, 4 at a time,
 * took 5.7 and 5.3 s with Playwright attached against 3.4 s without, with 3.8 and 3.7 s of renderer CPU against 2.6
 * and 2.8 s, and 2.5 and 2.4 s of the browser process's against 1.0 s. This
 * driver enables nothing it does not ask for: `Page` for the start scripts, `Runtime.evaluate` for the page's own
 * DOM, `Performance` for the heap, `Profiler` on request.
 *
 * Messages on the pipe are JSON, each ended by a NUL byte (fd 3 to Chromium, fd 4 from it). Rejects a call with the
 * protocol's error message.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { readCpuMs, readResidentAndFootprint } from './server-process';

/** One page target of a launched Chromium. */
export type CdpPage = {
  /** The browser process (its descendants are the renderers, the GPU and network processes). */
  pid: number;
  /** A DevTools command on the page's session; resolves with its `result`. */
  send<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** Evaluates `expression` in the page (awaiting a promise), returning its value by JSON. Rejects with a thrown error's text. */
  evaluate<T>(expression: string): Promise<T>;
  /** Evaluates `expression` every `intervalMs` (default 100) until it is truthy; rejects after `timeoutMs` naming `what`. */
  waitFor(expression: string, what: string, timeoutMs?: number, intervalMs?: number): Promise<void>;
  /** Sets the files of the `<input type=file>` `expression` evaluates to, as choosing them does (input and change events). */
  setInputFiles(expression: string, paths: string[]): Promise<void>;
  /**
   * The page's dedicated workers running now (attached automatically from launch on) and each one's JavaScript heap
   * in bytes: `used` and `total` (allocated) of CDP `Runtime.getHeapUsage`; a worker that ends meanwhile is left out.
   */
  workerHeaps(): Promise<{ name: string; used: number; total: number }[]>;
  /** A DevTools command on the session of the running worker named `name`; rejects when there is none. */
  sendToWorker<T = Record<string, unknown>>(name: string, method: string, params?: Record<string, unknown>): Promise<T>;
  /** A DevTools command on the browser's own session (`Tracing.*`, `Target.*`). */
  sendToBrowser<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** Calls `listener` with the params of every event named `method`, from any session, until the returned function is called. */
  on(method: string, listener: (params: Record<string, unknown>) => void): () => void;
  /** Closes Chromium and removes its profile folder. */
  close(): Promise<void>;
};

export type LaunchOptions = { executablePath?: string; initScripts?: string[]; width?: number; height?: number };

/**
 * Launches Chromium headless with a fresh profile and one page at about:blank, with `initScripts` evaluated before
 * each document's own scripts and `window.__bench` (`BENCH_HELPERS`) installed. Navigate with
 * `send('Page.navigate', { url })`.
 */
export async function launchCdp(options: LaunchOptions = {}): Promise<CdpPage> {
  const profile = mkdtempSync(join(tmpdir(), 'wsa-bench-chromium-'));
  const child: ChildProcess = spawn(
    options.executablePath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--remote-debugging-pipe', `--user-data-dir=${profile}`, `--window-size=${options.width ?? 1440},${options.height ?? 900}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] },
  );
  const toChromium = child.stdio[3] as Writable;
  const fromChromium = child.stdio[4] as Readable;
  const pending = new Map<number, { resolve: (value: Record<string, unknown>) => void; reject: (error: Error) => void; method: string }>();
  let nextId = 0;
  let buffered = '';
  // Dedicated workers' sessions (CDP `Target.setAutoAttach` on the page, below): session id to the worker's name.
  const workers = new Map<string, string>();
  const listeners = new Set<{ method: string; listener: (params: Record<string, unknown>) => void }>();
  const onEvent = (method: string, params: Record<string, unknown>) => {
    for (const entry of listeners) if (entry.method === method) entry.listener(params);
    const info = params.targetInfo as { type?: string; title?: string; url?: string } | undefined;
    if (method === 'Target.attachedToTarget' && info?.type === 'worker') {
      workers.set(params.sessionId as string, info.title || info.url || 'worker');
      // A worker's own workers (the import's look-up workers, started by its plan worker) are attached too.
      void call('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }, params.sessionId as string).catch(() => undefined);
    }
    if (method === 'Target.detachedFromTarget') workers.delete(params.sessionId as string);
  };
  fromChromium.setEncoding('utf8');
  fromChromium.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\0'); end >= 0; end = buffered.indexOf('\0')) {
      const message = JSON.parse(buffered.slice(0, end)) as { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { message: string } };
      buffered = buffered.slice(end + 1);
      if (message.method) onEvent(message.method, message.params ?? {});
      const waiter = message.id === undefined ? undefined : pending.get(message.id);
      if (!waiter) continue;
      pending.delete(message.id!);
      if (message.error) waiter.reject(new Error(`${waiter.method}: ${message.error.message}`));
      else waiter.resolve(message.result ?? {});
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => {
    for (const waiter of pending.values()) waiter.reject(new Error(`${waiter.method}: Chromium exited`));
    pending.clear();
  });
  const call = <T>(method: string, params: Record<string, unknown> = {}, sessionId?: string) =>
    new Promise<T>((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, { resolve: resolve as (value: Record<string, unknown>) => void, reject, method });
      toChromium.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });

  const { targetInfos } = await call<{ targetInfos: { targetId: string; type: string }[] }>('Target.getTargets');
  const target = targetInfos.find((info) => info.type === 'page');
  const targetId = target ? target.targetId : (await call<{ targetId: string }>('Target.createTarget', { url: 'about:blank' })).targetId;
  const { sessionId } = await call<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
  const send = <T>(method: string, params: Record<string, unknown> = {}) => call<T>(method, params, sessionId);
  await send('Page.enable');
  await send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true });
  for (const source of [BENCH_HELPERS, ...(options.initScripts ?? [])]) await send('Page.addScriptToEvaluateOnNewDocument', { source });

  const evaluate = async <T>(expression: string): Promise<T> => {
    const answer = await send<{ result: { value?: T }; exceptionDetails?: { text: string; exception?: { description?: string } } }>('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (answer.exceptionDetails) throw new Error(answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text);
    return answer.result.value as T;
  };

  return {
    pid: child.pid!,
    send,
    evaluate,
    async waitFor(expression, what, timeoutMs = 30_000, intervalMs = 100) {
      const deadline = Date.now() + timeoutMs;
      while (!(await evaluate<boolean>(`Boolean(${expression})`))) {
        if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
    },
    async setInputFiles(expression, paths) {
      const { result } = await send<{ result: { objectId?: string } }>('Runtime.evaluate', { expression });
      if (!result.objectId) throw new Error(`no file input at ${expression}`);
      await send('DOM.setFileInputFiles', { files: paths, objectId: result.objectId });
    },
    async workerHeaps() {
      const heaps = await Promise.all(
        [...workers].map(([workerSession, name]) =>
          call<{ usedSize: number; totalSize: number }>('Runtime.getHeapUsage', {}, workerSession).then(
            ({ usedSize, totalSize }) => ({ name, used: usedSize, total: totalSize }),
            () => null,
          ),
        ),
      );
      return heaps.filter((heap) => heap !== null);
    },
    sendToWorker<T>(name: string, method: string, params: Record<string, unknown> = {}) {
      const session = [...workers].find(([, workerName]) => workerName === name)?.[0];
      return session ? call<T>(method, params, session) : Promise.reject(new Error(`no worker ${name}`));
    },
    sendToBrowser<T>(method: string, params: Record<string, unknown> = {}) {
      return call<T>(method, params);
    },
    on(method, listener) {
      const entry = { method, listener };
      listeners.add(entry);
      return () => listeners.delete(entry);
    },
    async close() {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      // Chromium's helpers can still be writing the profile as the browser goes: retried, and never a failure.
      try {
        rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
      } catch {}
    },
  };
}

/**
 * `window.__bench`, installed in every document: finds controls as a person names them (a button by its text or
 * `aria-label`, a field by its label or `aria-label`, a dialog by its title), inside `within` (an element) or the
 * document, and acts on them as React expects (a value set through the element's own setter, then `input` or
 * `change`). Each throws naming what it did not find.
 */
export const BENCH_HELPERS = `(() => {
  const text = (element) => (element.getAttribute('aria-label') || element.textContent || '').replace(/\\s+/g, ' ').trim();
  const matches = (value, name) => (name instanceof RegExp ? name.test(value) : value === name);
  const labelOf = (element) => {
    if (element.getAttribute('aria-label')) return element.getAttribute('aria-label');
    const by = element.getAttribute('aria-labelledby');
    if (by) return by.split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ').trim();
    if (element.id) { const label = document.querySelector('label[for="' + CSS.escape(element.id) + '"]'); if (label) return label.textContent.trim(); }
    return element.closest('label')?.textContent.trim() ?? '';
  };
  const bench = {
    dialog(title) {
      return [...document.querySelectorAll('[role=dialog]')].find((dialog) => labelOf(dialog) === title || dialog.querySelector('h1,h2,h3,h4')?.textContent.trim() === title) ?? null;
    },
    button(name, within = document) {
      const found = [...within.querySelectorAll('button,[role=button]')].find((button) => matches(text(button), name));
      if (!found) throw new Error('no button named ' + name);
      return found;
    },
    field(name, within = document) {
      const found = [...within.querySelectorAll('input,select,textarea')].find((field) => labelOf(field) === name);
      if (!found) throw new Error('no field labelled ' + name);
      return found;
    },
    click(name, within) { bench.button(name, within).click(); },
    fill(name, value, within) {
      const field = bench.field(name, within);
      const proto = field instanceof HTMLSelectElement ? HTMLSelectElement.prototype : field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
      Object.getOwnPropertyDescriptor(proto, 'value').set.call(field, value);
      field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
    },
  };
  window.__bench = bench;
})()`;

/**
 * Chromium's processes: the browser process `browserPid` and its descendants, each with its kind: `renderer` (the
 * page, its workers), `network`, `storage` (IndexedDB's backend), `browser`, or `other` (GPU, zygote).
 */
export function chromiumProcesses(browserPid: number): { pid: number; kind: ProcessKind; renderer: boolean }[] {
  const found: { pid: number; kind: ProcessKind; renderer: boolean }[] = [{ pid: browserPid, kind: 'browser', renderer: false }];
  const visit = (pid: number) => {
    let children: number[] = [];
    try {
      children = readdirSync(`/proc/${pid}/task`).flatMap((tid) => readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number));
    } catch {
      return;
    }
    for (const child of children) {
      try {
        const command = readFileSync(`/proc/${child}/cmdline`, 'utf8');
        const kind: ProcessKind = command.includes('--type=renderer') ? 'renderer' : command.includes('NetworkService') ? 'network' : command.includes('StorageService') ? 'storage' : 'other';
        found.push({ pid: child, kind, renderer: kind === 'renderer' });
      } catch {
        // gone
      }
      visit(child);
    }
  };
  visit(browserPid);
  return found;
}

/** A renderer's memory in bytes: resident (RSS) and Chromium's private footprint (`readResidentAndFootprint`). */
export type RendererMemory = { rss: number; footprint: number };

/** Chromium's renderer processes among this process's descendants, with their memory. */
export function rendererMemory(browserPid: number): RendererMemory[] {
  return chromiumProcesses(browserPid)
    .filter((child) => child.renderer)
    .map(({ pid }) => readResidentAndFootprint(pid) ?? { rss: 0, footprint: 0 });
}

/** The page's renderer among `renderers`: the largest by RSS (its workers run in it), or zeros when there is none. */
export function largestRenderer(renderers: readonly RendererMemory[]): RendererMemory {
  return renderers.reduce<RendererMemory>((largest, renderer) => (renderer.rss > largest.rss ? renderer : largest), { rss: 0, footprint: 0 });
}

/** The page's renderer now (`largestRenderer`). */
export const pageRenderer = (browserPid: number) => largestRenderer(rendererMemory(browserPid));

export type ProcessKind = 'renderer' | 'network' | 'storage' | 'browser' | 'other';

/**
 * CPU time (user + system) used so far, in ms: the service's process `servicePid` and Chromium's processes under
 * `browserPid` summed by kind. A process that has ended is no longer counted, so compare readings of one phase.
 */
export function cpuByProcess(browserPid: number, servicePid: number): Record<'service' | ProcessKind, number> {
  const cpu: Record<'service' | ProcessKind, number> = { service: readCpuMs(servicePid) ?? 0, renderer: 0, network: 0, storage: 0, browser: 0, other: 0 };
  for (const child of chromiumProcesses(browserPid)) cpu[child.kind] += readCpuMs(child.pid) ?? 0;
  return cpu;
}
