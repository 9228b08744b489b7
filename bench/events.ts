/**
 * Live changes at scale (issue 36, "Measure"; docs/decisions.md section 13; docs/live.md), `npm run bench:events --
 * [--streams N] [--contacts N] [--changes N] [--write-seconds S] [--write-connections C] [--rounds R]
 * [--two-process-changes N] [--skip-postgres] [--postgres-url URL]`:
 *
 * 1. One process on SQLite (the service started as `npm start` starts it, bench/server-process.ts), N open
 *    `GET /api/events` streams (default 1,000; a key may hold 5, so N/5 keys, made in the database as the other
 *    benches make theirs, bench/bench-database.ts):
 *    - the server's RSS growth with them open (goal: at most 50 MB);
 *    - a change (a contact created through the API, `--changes` of them, one at a time) reaching every stream: the
 *      time from sending the POST to each stream's `event: change` naming the contact, p50/p95/max over every
 *      delivery (goal: p95 within 1 s);
 *    - write throughput (autocannon creating contacts, C connections for S seconds) with the streams open against
 *      without, alternated in the same run (`--rounds` rounds of without, with, ... and a last without; goal:
 *      with / without at least 0.9).
 * 2. Two processes over one PostgreSQL database (LISTEN/NOTIFY): a contact created through one reaches a stream
 *    open on the other; p50/p95/max of the time from the POST to the event (goal: p95 within 1 s).
 *
 * The streams are held and read by a child process (this file forked, `--holder`), so reading 1,000 streams does not
 * slow the load generator's event loop; both processes time with `performance.timeOrigin + performance.now()`.
 * Progress goes to stderr, the tables to stdout (docs/benchmarks.md, "Live changes at scale"). Exits 1 on an error,
 * 0 otherwise, even when a goal is missed (the table says so).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { cpus, totalmem } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { type BenchDatabase, DEFAULT_POSTGRES_URL, createBenchDatabase, loadAverage } from './bench-database';
import { type ServerProcess, readCpuMs, readMemory, startServer } from './server-process';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const STREAMS_PER_KEY = 5;
const GOAL_RSS_GROWTH_BYTES = 50e6;
const GOAL_P95_MS = 1000;
const GOAL_THROUGHPUT_RATIO = 0.9;
/** How long to wait for a change to reach every stream before counting the rest as missed. */
const DELIVERY_TIMEOUT_MS = 5000;

/** Wall-clock milliseconds with sub-millisecond resolution, comparable between two processes of one machine. */
const now = () => performance.timeOrigin + performance.now();
const log = (line: string) => process.stderr.write(`${line}\n`);
const int = (value: number) => Math.round(value).toLocaleString('en-US');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

// ---- The stream holder (the child process) -------------------------------------------------------------------

type HolderRequest =
  | { id: number; type: 'open'; origin: string; keys: string[]; perKey: number }
  | { id: number; type: 'record'; on: boolean }
  | { id: number; type: 'await'; contactId: string; count: number; timeoutMs: number }
  | { id: number; type: 'close' };
type HolderReply = { id: number; error?: string; opened?: number; arrivals?: number[] };

/** The child: opens streams when told, notes when each `event: change` naming a contact arrives, answers over IPC. */
function runHolder(): void {
  const streams: { request: ClientRequest; response: IncomingMessage | null }[] = [];
  const arrivals = new Map<string, number[]>();
  const waiting = new Map<string, { count: number; resolve: () => void }>();
  // Arrivals are noted only while the parent times changes (not during the write-throughput runs).
  let recording = false;
  const reply = (message: HolderReply) => process.send?.(message);

  const onFrame = (frameText: string, at: number) => {
    let event = 'message';
    let data = '';
    for (const line of frameText.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    if (event !== 'change') return;
    const change = JSON.parse(data) as { resource: string; ids: string[] | null };
    if (!recording || change.resource !== 'contact' || !change.ids) return;
    for (const contactId of change.ids) {
      const times = arrivals.get(contactId) ?? [];
      times.push(at);
      arrivals.set(contactId, times);
      const waiter = waiting.get(contactId);
      if (waiter && times.length >= waiter.count) waiter.resolve();
    }
  };

  /** Opens one stream; resolves once its first frame (the `event: reset`) has arrived. */
  const openOne = (origin: string, key: string) =>
    new Promise<void>((done, fail) => {
      const request = httpRequest(`${origin}/api/events`, { headers: { 'x-api-key': key, accept: 'text/event-stream' }, agent: false });
      const stream = { request, response: null as IncomingMessage | null };
      request.on('response', (response) => {
        stream.response = response;
        if (response.statusCode !== 200) {
          response.resume();
          fail(new Error(`GET /api/events answered ${response.statusCode}`));
          return;
        }
        streams.push(stream);
        response.setEncoding('utf8');
        let buffer = '';
        let first = true;
        response.on('data', (chunk: string) => {
          const at = now();
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
            onFrame(buffer.slice(0, end), at);
            buffer = buffer.slice(end + 2);
            if (first) {
              first = false;
              done();
            }
          }
        });
        response.on('error', () => {});
      });
      request.on('error', fail);
      request.end();
    });

  process.on('message', (message: HolderRequest) => {
    void (async () => {
      try {
        if (message.type === 'open') {
          const jobs = message.keys.flatMap((key) => Array.from({ length: message.perKey }, () => key));
          // 50 at a time: a thousand at once would time out on a busy machine.
          for (let start = 0; start < jobs.length; start += 50) await Promise.all(jobs.slice(start, start + 50).map((key) => openOne(message.origin, key)));
          reply({ id: message.id, opened: streams.length });
        } else if (message.type === 'record') {
          recording = message.on;
          if (!recording) arrivals.clear();
          reply({ id: message.id });
        } else if (message.type === 'await') {
          const times = arrivals.get(message.contactId) ?? [];
          if (times.length < message.count) {
            await new Promise<void>((resolveWait) => {
              const timer = setTimeout(resolveWait, message.timeoutMs);
              waiting.set(message.contactId, {
                count: message.count,
                resolve: () => {
                  clearTimeout(timer);
                  resolveWait();
                },
              });
            });
          }
          waiting.delete(message.contactId);
          reply({ id: message.id, arrivals: arrivals.get(message.contactId) ?? [] });
          arrivals.delete(message.contactId);
        } else {
          for (const stream of streams.splice(0)) stream.request.destroy();
          reply({ id: message.id, opened: 0 });
        }
      } catch (error) {
        reply({ id: message.id, error: error instanceof Error ? error.message : String(error) });
      }
    })();
  });
}

/** The parent's side of a holder: `ask` sends a request and resolves with its reply. */
/** A request without its id (Omit over each member of the union, not over the union). */
type HolderAsk = HolderRequest extends infer Request ? (Request extends HolderRequest ? Omit<Request, 'id'> : never) : never;
type Holder = { pid: number; ask(request: HolderAsk): Promise<HolderReply>; stop(): void };

/** Forks the stream holder (this file with `--holder`). */
function startHolder(): Holder {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--holder'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let next = 0;
  const pending = new Map<number, (reply: HolderReply) => void>();
  child.on('message', (message: HolderReply) => {
    pending.get(message.id)?.(message);
    pending.delete(message.id);
  });
  child.on('exit', (code) => {
    for (const resolveReply of pending.values()) resolveReply({ id: -1, error: `the stream holder exited (code ${code})` });
    pending.clear();
  });
  return {
    pid: child.pid as number,
    ask: (request) =>
      new Promise((resolveReply, reject) => {
        const id = next++;
        pending.set(id, (answer) => (answer.error ? reject(new Error(answer.error)) : resolveReply(answer)));
        child.send({ ...request, id });
      }),
    stop: () => child.kill(),
  };
}

// ---- Measurements (the parent) ------------------------------------------------------------------------------

type Latency = { deliveries: number; expected: number; p50Ms: number; p95Ms: number; maxMs: number; perChangeMaxMs: number[] };

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number));

/** Creates `changes` contacts through `writeOrigin`, one at a time, each timed to its arrival on `streams` streams. */
async function measureDelivery(holder: Holder, writeOrigin: string, apiKey: string, changes: number, streams: number): Promise<Latency> {
  const all: number[] = [];
  const perChangeMaxMs: number[] = [];
  await holder.ask({ type: 'record', on: true });
  for (let index = 0; index < changes; index++) {
    const sent = now();
    const response = await fetch(`${writeOrigin}/api/contacts`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Event ${index}`, email: `event-${index}-${Date.now()}@example.com`, tags: ['events'] }),
    });
    if (response.status !== 201) throw new Error(`POST /api/contacts answered ${response.status}: ${await response.text()}`);
    const { id } = (await response.json()) as { id: string };
    const { arrivals = [] } = await holder.ask({ type: 'await', contactId: id, count: streams, timeoutMs: DELIVERY_TIMEOUT_MS });
    const latencies = arrivals.map((at) => at - sent);
    all.push(...latencies);
    perChangeMaxMs.push(latencies.length < streams ? Infinity : Math.max(...latencies));
    // Apart by more than the coalescing wait, so each change is an event of its own.
    await sleep(300);
  }
  await holder.ask({ type: 'record', on: false });
  const sorted = all.sort((a, b) => a - b);
  return { deliveries: sorted.length, expected: changes * streams, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), maxMs: sorted.at(-1) ?? NaN, perChangeMaxMs };
}

/** One write-throughput run: contacts created a second, and the CPU the server and the stream holder used a write. */
type WriteRun = { perSecond: number; serverCpuMsPerWrite: number; holderCpuMsPerWrite: number };

/** autocannon creating contacts on `origin` for `seconds` with `connections` connections, the CPU of `pids` measured. */
async function writeThroughput(origin: string, apiKey: string, seconds: number, connections: number, label: string, pids: { server: number; holder: number }): Promise<WriteRun> {
  let created = 0;
  const serverCpu = readCpuMs(pids.server) ?? 0;
  const holderCpu = readCpuMs(pids.holder) ?? 0;
  const result = await autocannon({
    url: origin,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/api/contacts',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: JSON.stringify({ name: `Write ${++created}`, email: `write-${label}-${created}-${Date.now()}@example.com`, tags: ['write'] }) }),
      },
    ],
  });
  if (result.non2xx !== 0 || result.errors !== 0) throw new Error(`writes ${label}: ${result.non2xx} non-2xx answers and ${result.errors} errors of ${result.requests.total}`);
  const writes = Math.max(1, result.requests.total);
  return {
    perSecond: result.requests.total / seconds,
    serverCpuMsPerWrite: ((readCpuMs(pids.server) ?? 0) - serverCpu) / writes,
    holderCpuMsPerWrite: ((readCpuMs(pids.holder) ?? 0) - holderCpu) / writes,
  };
}

/** The server's RSS now: the median of five readings 200 ms apart (one reading can land on a collection). */
async function settledRss(pid: number): Promise<number> {
  const readings: number[] = [];
  for (let index = 0; index < 5; index++) {
    readings.push(readMemory(pid) ?? 0);
    await sleep(200);
  }
  return readings.sort((a, b) => a - b)[2] as number;
}

type OneProcessResult = {
  streams: number;
  rssBeforeBytes: number;
  rssWithBytes: number;
  openSeconds: number;
  latency: Latency;
  without: WriteRun[];
  with: WriteRun[];
  loadAverageStart: string;
  loadAverageEnd: string;
};

async function oneProcess(options: { streams: number; contacts: number; changes: number; writeSeconds: number; writeConnections: number; rounds: number }, track: Track): Promise<OneProcessResult> {
  const keysPerRound = Math.ceil(options.streams / STREAMS_PER_KEY);
  // Fresh keys for each round's streams: a closed stream's row is deleted when the server sees the close, which
  // may come after the next round has begun opening.
  const database = await createBenchDatabase({ kind: 'sqlite', contacts: options.contacts, keys: 1 + keysPerRound * options.rounds, log });
  track.databases.add(database);
  const [writeKey, ...streamKeys] = database.apiKeys as [string, ...string[]];
  const server = await startServer({ cwd: ROOT, databaseUrl: database.databaseUrl, apiKey: writeKey, onUnexpectedExit: log });
  track.servers.add(server);
  const holder = startHolder();
  track.holders.add(holder);
  try {
    const pid = server.servingPid;
    log(`service on ${server.origin} (pid ${pid}), ${database.engine} (load average ${loadAverage()})`);
    const loadAverageStart = loadAverage();
    const without: WriteRun[] = [];
    const withStreams: WriteRun[] = [];
    const pids = { server: pid, holder: holder.pid };
    const runLine = (run: WriteRun | undefined) =>
      run ? `${run.perSecond.toFixed(0)} writes/s, server CPU ${run.serverCpuMsPerWrite.toFixed(2)} ms a write, holder CPU ${run.holderCpuMsPerWrite.toFixed(2)} ms a write` : '';
    let rssBeforeBytes = 0;
    let rssWithBytes = 0;
    let openSeconds = 0;
    let latency: Latency | null = null;
    // A warm-up, so the first measured round does not pay for compiling the write path.
    await writeThroughput(server.origin, writeKey, 3, options.writeConnections, 'warm-up', pids);
    for (let round = 0; round < options.rounds; round++) {
      without.push(await writeThroughput(server.origin, writeKey, options.writeSeconds, options.writeConnections, `without-${round}`, pids));
      log(`  round ${round + 1} without streams: ${runLine(without.at(-1))} (load average ${loadAverage()})`);
      const keys = streamKeys.slice(round * keysPerRound, (round + 1) * keysPerRound);
      if (round === 0) rssBeforeBytes = await settledRss(pid);
      const opening = performance.now();
      const { opened = 0 } = await holder.ask({ type: 'open', origin: server.origin, keys, perKey: STREAMS_PER_KEY });
      if (round === 0) openSeconds = (performance.now() - opening) / 1000;
      if (opened < options.streams) throw new Error(`only ${opened} of ${options.streams} streams opened`);
      log(`  ${opened} streams open in ${((performance.now() - opening) / 1000).toFixed(1)} s`);
      if (round === 0) {
        await sleep(3000);
        rssWithBytes = await settledRss(pid);
        log(`  RSS ${(rssBeforeBytes / 1e6).toFixed(0)} MB -> ${(rssWithBytes / 1e6).toFixed(0)} MB with ${opened} streams open`);
        latency = await measureDelivery(holder, server.origin, writeKey, options.changes, opened);
        log(`  delivery of ${options.changes} changes to ${opened} streams: p50 ${latency.p50Ms.toFixed(0)} ms, p95 ${latency.p95Ms.toFixed(0)} ms, max ${latency.maxMs.toFixed(0)} ms, ${latency.deliveries} of ${latency.expected} delivered`);
      }
      withStreams.push(await writeThroughput(server.origin, writeKey, options.writeSeconds, options.writeConnections, `with-${round}`, pids));
      log(`  round ${round + 1} with ${opened} streams open: ${runLine(withStreams.at(-1))} (load average ${loadAverage()})`);
      await holder.ask({ type: 'close' });
      await sleep(2000);
    }
    without.push(await writeThroughput(server.origin, writeKey, options.writeSeconds, options.writeConnections, 'without-last', pids));
    log(`  last without streams: ${runLine(without.at(-1))}`);
    return { streams: options.streams, rssBeforeBytes, rssWithBytes, openSeconds, latency: latency as Latency, without, with: withStreams, loadAverageStart, loadAverageEnd: loadAverage() };
  } finally {
    holder.stop();
    track.holders.delete(holder);
    await server.stop();
    track.servers.delete(server);
    await database.drop();
    track.databases.delete(database);
  }
}

type TwoProcessResult = { streams: number; changes: number; latency: Latency; engine: string; loadAverage: string };

async function twoProcesses(options: { changes: number; postgresUrl: string }, track: Track): Promise<TwoProcessResult> {
  const database = await createBenchDatabase({ kind: 'postgres', contacts: 1000, keys: 2, postgresUrl: options.postgresUrl, log });
  track.databases.add(database);
  const [writeKey, streamKey] = database.apiKeys as [string, string];
  const writer = await startServer({ cwd: ROOT, databaseUrl: database.databaseUrl, apiKey: writeKey, onUnexpectedExit: log });
  track.servers.add(writer);
  const reader = await startServer({ cwd: ROOT, databaseUrl: database.databaseUrl, apiKey: writeKey, onUnexpectedExit: log });
  track.servers.add(reader);
  const holder = startHolder();
  track.holders.add(holder);
  try {
    log(`two processes on ${database.engine}: writes through ${writer.origin}, streams on ${reader.origin}`);
    const { opened = 0 } = await holder.ask({ type: 'open', origin: reader.origin, keys: [streamKey], perKey: STREAMS_PER_KEY });
    const latency = await measureDelivery(holder, writer.origin, writeKey, options.changes, opened);
    log(`  p50 ${latency.p50Ms.toFixed(0)} ms, p95 ${latency.p95Ms.toFixed(0)} ms, max ${latency.maxMs.toFixed(0)} ms, ${latency.deliveries} of ${latency.expected} delivered`);
    return { streams: opened, changes: options.changes, latency, engine: database.engine, loadAverage: loadAverage() };
  } finally {
    holder.stop();
    track.holders.delete(holder);
    await Promise.all([writer.stop(), reader.stop()]);
    track.servers.delete(writer);
    track.servers.delete(reader);
    await database.drop();
    track.databases.delete(database);
  }
}

type Track = { servers: Set<ServerProcess>; databases: Set<BenchDatabase>; holders: Set<Holder> };

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);

/**
 * Each run with the streams open against the mean of the runs without just before and just after it (the machine's
 * other work comes and goes; a neighbour is measured under about the same load), of `measure`.
 */
function pairedRatios(one: OneProcessResult, measure: (run: WriteRun) => number): number[] {
  return one.with.map((run, round) => measure(run) / mean([one.without[round], one.without[round + 1]].filter((item) => item !== undefined).map(measure)));
}
const verdict = (ok: boolean) => (ok ? 'pass' : '**FAIL**');
const latencyCells = (latency: Latency) => `${latency.p50Ms.toFixed(0)} | ${latency.p95Ms.toFixed(0)} | ${latency.maxMs.toFixed(0)} | ${int(latency.deliveries)} of ${int(latency.expected)}`;

function resultLines(one: OneProcessResult | null, two: TwoProcessResult | null, options: { changes: number; writeSeconds: number; writeConnections: number }): string[] {
  const lines = [
    '## Live changes at scale (issue 36)',
    '',
    `${new Date().toISOString()}; ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}.`,
    '',
  ];
  if (one) {
    const growth = one.rssWithBytes - one.rssBeforeBytes;
    const ratios = pairedRatios(one, (run) => run.perSecond);
    const ratio = median(ratios);
    const cpuRatios = pairedRatios(one, (run) => run.serverCpuMsPerWrite);
    const runs = (items: WriteRun[], measure: (run: WriteRun) => number, digits: number) => items.map((run) => measure(run).toFixed(digits)).join(', ');
    const delivered = one.latency.deliveries === one.latency.expected;
    lines.push(
      `One process, SQLite, ${int(one.streams)} streams (${int(one.streams / STREAMS_PER_KEY)} keys × ${STREAMS_PER_KEY}), opened in ${one.openSeconds.toFixed(1)} s; 1-min load average ${one.loadAverageStart} at the start, ${one.loadAverageEnd} at the end:`,
      '',
      '| measure | figure | goal | result |',
      '|---|---|---|---|',
      `| server RSS before → with the streams open | ${(one.rssBeforeBytes / 1e6).toFixed(0)} → ${(one.rssWithBytes / 1e6).toFixed(0)} MB (${growth >= 0 ? '+' : ''}${(growth / 1e6).toFixed(1)} MB) | growth ≤ 50 MB | ${verdict(growth <= GOAL_RSS_GROWTH_BYTES)} |`,
      `| a created contact reaching every stream (${options.changes} changes): p50 / p95 / max ms, deliveries | ${one.latency.p50Ms.toFixed(0)} / ${one.latency.p95Ms.toFixed(0)} / ${one.latency.maxMs.toFixed(0)}, ${int(one.latency.deliveries)} of ${int(one.latency.expected)} | p95 ≤ 1,000 ms, all delivered | ${verdict(one.latency.p95Ms <= GOAL_P95_MS && delivered)} |`,
      `| the last stream reached, per change (ms) | median ${percentile([...one.latency.perChangeMaxMs].sort((a, b) => a - b), 50).toFixed(0)}, worst ${Math.max(...one.latency.perChangeMaxMs).toFixed(0)} | (reported) | — |`,
      `| contacts created a second (${options.writeConnections} connections, ${options.writeSeconds} s a run, alternated): without streams / with | ${runs(one.without, (run) => run.perSecond, 0)} / ${runs(one.with, (run) => run.perSecond, 0)} | | |`,
      `| with / without, each run with against the runs without beside it | ${ratios.map((value) => value.toFixed(2)).join(', ')}: median **${ratio.toFixed(2)}** (ratio of the means ${(mean(one.with.map((run) => run.perSecond)) / mean(one.without.map((run) => run.perSecond))).toFixed(2)}) | ≥ 0.9 | ${verdict(ratio >= GOAL_THROUGHPUT_RATIO)} |`,
      `| server CPU a write (ms): without / with | ${runs(one.without, (run) => run.serverCpuMsPerWrite, 2)} / ${runs(one.with, (run) => run.serverCpuMsPerWrite, 2)}; with / without, paired: median ${median(cpuRatios).toFixed(2)} | (reported) | — |`,
      `| the stream holder's CPU a write (ms), with the streams open (the clients' side, on the same 2 cores) | ${runs(one.with, (run) => run.holderCpuMsPerWrite, 2)} | (reported) | — |`,
      '',
    );
  }
  if (two) {
    const delivered = two.latency.deliveries === two.latency.expected;
    lines.push(
      `Two processes, ${two.engine}: contacts created through one, ${two.streams} streams open on the other (1-min load average ${two.loadAverage}):`,
      '',
      '| changes | p50 ms | p95 ms | max ms | deliveries | goal | result |',
      '|---:|---:|---:|---:|---|---|---|',
      `| ${two.changes} | ${latencyCells(two.latency)} | p95 ≤ 1,000 ms, all delivered | ${verdict(two.latency.p95Ms <= GOAL_P95_MS && delivered)} |`,
      '',
    );
  }
  return lines;
}

function positiveInteger(name: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new Error(`--${name} must be a positive integer, got '${value}'`);
  return Number(value);
}

async function main() {
  const { values } = parseArgs({
    options: {
      holder: { type: 'boolean', default: false },
      streams: { type: 'string', default: '1000' },
      contacts: { type: 'string', default: '10000' },
      changes: { type: 'string', default: '20' },
      'write-seconds': { type: 'string', default: '10' },
      'write-connections': { type: 'string', default: '10' },
      rounds: { type: 'string', default: '4' },
      'two-process-changes': { type: 'string', default: '50' },
      'skip-postgres': { type: 'boolean', default: false },
      'skip-sqlite': { type: 'boolean', default: false },
      'postgres-url': { type: 'string', default: DEFAULT_POSTGRES_URL },
    },
  });
  const streams = positiveInteger('streams', values.streams);
  if (streams % STREAMS_PER_KEY !== 0) throw new Error(`--streams must be a multiple of ${STREAMS_PER_KEY}`);
  const options = {
    streams,
    contacts: positiveInteger('contacts', values.contacts),
    changes: positiveInteger('changes', values.changes),
    writeSeconds: positiveInteger('write-seconds', values['write-seconds']),
    writeConnections: positiveInteger('write-connections', values['write-connections']),
    rounds: positiveInteger('rounds', values.rounds),
  };
  const track: Track = { servers: new Set(), databases: new Set(), holders: new Set() };
  const cleanup = async () => {
    for (const holder of track.holders) holder.stop();
    await Promise.all([...track.servers].map((server) => server.stop()));
    await Promise.all([...track.databases].map((database) => database.drop()));
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`\n${signal}: stopping the servers and removing the databases`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  try {
    const one = values['skip-sqlite'] ? null : await oneProcess(options, track);
    const two = values['skip-postgres'] ? null : await twoProcesses({ changes: positiveInteger('two-process-changes', values['two-process-changes']), postgresUrl: values['postgres-url'] }, track);
    process.stdout.write(`${resultLines(one, two, options).join('\n')}\n`);
  } finally {
    await cleanup();
  }
}

if (process.argv.includes('--holder')) runHolder();
else {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`bench:events failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
