/**
 * Contacts import benchmark (`npm run bench:import -- [--contacts N] [--rows R] [--job-seconds S] [--rate-limit L] [--no-cache] [--profile] [--cpu-prof DIR] [--live-memory] [--timeline] [--trace]`,
 * issue 20 point 6): seeds N contacts (default 1,000,000) into a fresh SQLite database (kept in
 * /tmp/wsa-bench-seeded between runs: bench/seeded-file.ts; `--no-cache` seeds afresh), starts the real server with
 * `RATE_LIMIT_PER_MINUTE=0` (`--rate-limit L`: L, to time a whole import at the hosted limit of 60), writes a CSV of R rows (default 100,000, about 20 MB: Mailchimp's headers plus an
 * address and a notes column; a fifth of the rows are seeded contacts' emails in upper case, 2% malformed emails,
 * 5% repeats of an earlier row, phones in local form), and in Debian's Chromium opens the contacts page's import
 * and measures:
 * - parse and map: from choosing the file to the mapping step showing its row count, and the longest main-thread
 *   task meanwhile (PerformanceObserver 'longtask'; goal: none over 200 ms);
 * - the plan: from "Check R rows" to the plan's counts (the file read again, cleaned and merged, every look-up
 *   against the service, in the plan worker), and the longest task meanwhile (goal: under 15 s on 1,000,000 contacts);
 * - the job: "Start import", then for S seconds (default 60; 0: until the job ends) the job's record read from
 *   IndexedDB every 2 s: contacts created a second and steps a second (goal: 500 creates a second from one tab),
 *   the longest main-thread task;
 * - the tab's memory in every phase (goal: under 300 MB): the page's JavaScript heap (CDP `Performance.getMetrics`
 *   `JSHeapUsedSize` and `JSHeapTotalSize`), each worker's heap (CDP `Runtime.getHeapUsage` on the workers' sessions),
 *   and the renderer process that holds the page, its workers and its DOM (the largest renderer): its resident memory
 *   (RSS from /proc, which counts the pages of Chromium's code and data files every Chromium process shares) and its
 *   private footprint (`readResidentAndFootprint`: what Chromium's task manager shows as the tab's memory), peaks sampled every
 *   250 ms; at the job's end, after a forced garbage collection (CDP `HeapProfiler.collectGarbage`), beside the page's
 *   own before the import;
 * - with `--live-memory`, what the page keeps after the mapping step and after the plan: a forced garbage collection,
 *   then the heap and the renderer's memory (the collections add to the time between the phases, not to the phases);
 * - with `--timeline`, every second on stderr: the renderer's footprint and each worker's heap (used of allocated);
 * - with `--trace`, what each of Chromium's threads was busy with during the plan and the job (bench/trace.ts);
 * - the 1-minute load average at the start and the end, for a shared machine.
 * Prints a markdown table. The server is stopped and the temp folder removed at the end.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { type CdpPage, type RendererMemory, cpuByProcess, largestRenderer, launchCdp, pageRenderer, rendererMemory } from './cdp-browser';
import { mulberry32 } from './seed-contacts';
import { seededFile } from './seeded-file';
import { startTrace } from './trace';
import { type ServerProcess, startServer } from './server-process';
import { FIRST_JOB, type StoredJob } from './stored-jobs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const log = (line: string) => process.stderr.write(`${line}\n`);

/** A CSV field, quoted when it needs to be. */
const field = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/**
 * The benchmark's file: `rows` data rows drawn with a seeded PRNG. Returns the CSV text and the rows expected in
 * each kind (existing emails, malformed, repeats).
 */
function importCsv(rows: number, existingEmails: string[]) {
  const random = mulberry32(7);
  const lines = ['Email Address,First Name,Last Name,Phone Number,Address,TAGS,Notes'];
  const kinds = { existing: 0, malformed: 0, repeats: 0, fresh: 0 };
  const notes = 'Met at the spring fair; prefers email; interested in the newsletter and the autumn catalogue. '.repeat(1);
  for (let i = 0; i < rows; i++) {
    const roll = random();
    let email: string;
    let phone = '';
    if (roll < 0.2 && existingEmails.length) {
      email = existingEmails[Math.floor(random() * existingEmails.length)]!.toUpperCase();
      kinds.existing++;
    } else if (roll < 0.22) {
      email = `broken.${i}@`;
      kinds.malformed++;
    } else if (roll < 0.27 && i > 10) {
      email = `Bench.Import.${Math.floor(random() * i)}@Example.org`;
      kinds.repeats++;
    } else {
      email = `bench.import.${i}@example.org`;
      phone = `9${String(i).padStart(7, '0')}`.replace(/^(\d{3})(\d{2})(\d{3})$/, '$1 $2 $3');
      kinds.fresh++;
    }
    lines.push([email, `First${i}`, `Last${i}`, phone, `Storgata ${i % 200}, 0155 Oslo`, 'bench, import', notes].map(field).join(','));
  }
  return { text: `${lines.join('\r\n')}\r\n`, kinds };
}

/** `--profile`: the page's 25 functions with the most self time over the whole measurement (a CDP CPU profile). */
function printProfile(profile: { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]; samples?: number[]; timeDeltas?: number[] }) {
  const self = new Map<number, number>();
  (profile.samples ?? []).forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0)));
  const byFunction = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + (self.get(node.id) ?? 0) / 1000);
  }
  log('self ms  function');
  for (const [key, msSelf] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25)) log(`${msSelf.toFixed(0).padStart(7)}  ${key}`);
}

/** Starts a CPU profile in the worker named `name` once it runs (polled for 5 s); resolves to whether it started. */
async function profileWorker(page: CdpPage, name: string): Promise<boolean> {
  for (let tries = 0; tries < 100; tries++) {
    try {
      await page.sendToWorker(name, 'Profiler.enable');
      await page.sendToWorker(name, 'Profiler.setSamplingInterval', { interval: 500 });
      await page.sendToWorker(name, 'Profiler.start');
      return true;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return false;
}

/** `RSS 280 MB, footprint 120 MB`. */
const memoryText = ({ rss, footprint }: RendererMemory) => `RSS ${(rss / MB).toFixed(0)} MB, footprint ${(footprint / MB).toFixed(0)} MB`;

const MB = 1024 * 1024;

/** CPU time so far, in ms, of the service and Chromium's processes by kind (`cpuByProcess`). */
const cpuNow = (server: ServerProcess, browserPid: number) => cpuByProcess(browserPid, server.servingPid);

/** CPU spent between two `cpuNow` readings, as `service 12.3 s, renderer 45.6 s, network 7.8 s, …`. */
function cpuSpent(from: ReturnType<typeof cpuNow>, to: ReturnType<typeof cpuNow>) {
  return (Object.keys(to) as (keyof typeof to)[]).map((key) => `${key} ${((to[key] - from[key]) / 1000).toFixed(1)} s`).join(', ');
}

async function main() {
  const { values } = parseArgs({
    options: {
      contacts: { type: 'string', default: '1000000' },
      rows: { type: 'string', default: '100000' },
      profile: { type: 'boolean', default: false },
      'job-seconds': { type: 'string', default: '60' },
      'rate-limit': { type: 'string', default: '0' },
      'no-cache': { type: 'boolean', default: false },
      'cpu-prof': { type: 'string' },
      'live-memory': { type: 'boolean', default: false },
      timeline: { type: 'boolean', default: false },
      trace: { type: 'boolean', default: false },
    },
  });
  const count = Number(values.contacts);
  const rows = Number(values.rows);
  const jobSeconds = Number(values['job-seconds']);
  // `--rate-limit 60`: the service's RATE_LIMIT_PER_MINUTE (the hosted limit), to time the whole import at it.
  const rateLimit = Number(values['rate-limit']);
  if (!Number.isInteger(rateLimit) || rateLimit < 0) throw new Error('--rate-limit must be a whole number of requests a minute (0: off)');
  if (!Number.isInteger(count) || count < 1000 || !Number.isInteger(rows) || rows < 100) throw new Error('--contacts must be at least 1,000 and --rows at least 100');
  if (!Number.isFinite(jobSeconds) || jobSeconds < 0) throw new Error('--job-seconds must be 0 (the whole job) or more');
  if (!existsSync(join(ROOT, 'dist', 'index.html'))) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });

  const dir = mkdtempSync(join(tmpdir(), 'wsa-bench-import-'));
  let server: ServerProcess | undefined;
  let page: CdpPage | undefined;
  try {
    const seeded = await seededFile(dir, count, { log, ...(values['no-cache'] ? {} : { cacheDir: join(tmpdir(), 'wsa-bench-seeded') }) });
    const { file, apiKey } = seeded;
    const sqlite = new SQLite(file, { readonly: true });
    const existingEmails = (sqlite.prepare('select email from contacts where email is not null and rowid % 97 = 0 limit 50000').pluck().all() as string[]).filter(Boolean);
    sqlite.close();

    const csv = importCsv(rows, existingEmails);
    const csvPath = join(dir, 'audience.csv');
    writeFileSync(csvPath, csv.text);
    const megabytes = statSync(csvPath).size / 1024 / 1024;
    log(`wrote ${rows.toLocaleString('en-US')} rows, ${megabytes.toFixed(1)} MiB: ${JSON.stringify(csv.kinds)}`);

    // --cpu-prof DIR: the service writes a V8 CPU profile there when it stops.
    server = await startServer({ cwd: ROOT, databaseUrl: file, apiKey, env: { RATE_LIMIT_PER_MINUTE: String(rateLimit) }, ...(values['cpu-prof'] ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] } : {}) });
    const loadStart = loadavg()[0]!;
    const connection = {
      workspaceId: seeded.workspaceId, workspaceName: 'Bench Workspace', organizationId: seeded.organizationId, organizationName: 'Bench Org', baseUrl: '/api', apiKey,
      permissions: { contacts: 'read-write', products: 'read-write', posts: 'read-write', feeds: 'read-write' }, remember: false, savedAt: new Date().toISOString(),
    };
    // Chromium without Playwright (bench/cdp-browser.ts: its network instrumentation would double a request's cost
    // in the tab and keep every answer in the renderer's memory). Before the page's own scripts: the saved
    // connection, and every long task of the page from its start (strings: tsx would wrap named functions in a
    // helper the page lacks).
    page = await launchCdp({
      initScripts: [
        `sessionStorage.setItem('workspace-admin.connections', ${JSON.stringify(JSON.stringify([connection]))})`,
        `(() => {
          window.__longTasks = [];
          new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, duration: entry.duration }); })
            .observe({ type: 'longtask', buffered: true });
        })()`,
      ],
    });
    const browserPid = page.pid;
    await page.send('Page.navigate', { url: `${server.origin}/w/${seeded.workspaceId}/contacts` });
    await page.waitFor(`document.querySelectorAll('table[aria-label="Contacts"] tbody tr td').length > 3`, 'the contacts table', 60_000);
    await page.evaluate(`__bench.click('Import')`);
    const dialog = `__bench.dialog('Import contacts')`;
    await page.waitFor(`${dialog}?.querySelector('input[type=file]')`, 'the import dialog');

    const now = () => page!.evaluate<number>('performance.now()');
    const longest = (from: number, to: number) =>
      page!.evaluate<number>(`Math.max(0, ...window.__longTasks.filter((t) => t.start >= ${from} && t.start <= ${to}).map((t) => t.duration))`);

    await page.send('Performance.enable');
    const heapUsed = async () => (await page!.send<{ metrics: { name: string; value: number }[] }>('Performance.getMetrics')).metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0;
    // The floor: the contacts page as it stands before any import.
    const baseline = { heap: await heapUsed(), renderer: pageRenderer(browserPid) };
    if (values.profile) {
      await page.send('Profiler.enable');
      await page.send('Profiler.setSamplingInterval', { interval: 500 });
      await page.send('Profiler.start');
    }
    // Peaks per phase from here on: the page's renderer's RSS and footprint every 250 ms; every second the page's heap
    // (used and allocated, CDP `JSHeapUsedSize` and `JSHeapTotalSize`) and each worker's (`workerHeaps`).
    let phase = 'parse and map';
    type Peak = { rss: number; footprint: number; heapUsed: number; heapTotal: number; workersTotal: number };
    const workerPeaks = new Map<string, Map<string, number>>(); // phase -> worker name -> its heap allocated, peak
    const peaks = new Map<string, Peak>();
    const raise = (values: Partial<Peak>) => {
      const peak = peaks.get(phase) ?? { rss: 0, footprint: 0, heapUsed: 0, heapTotal: 0, workersTotal: 0 };
      for (const [key, value] of Object.entries(values) as [keyof Peak, number][]) peak[key] = Math.max(peak[key], value);
      peaks.set(phase, peak);
    };
    let ticks = 0;
    const peakSampler = setInterval(() => {
      raise(pageRenderer(browserPid));
      if (ticks++ % 4) return;
      void page!.send<{ metrics: { name: string; value: number }[] }>('Performance.getMetrics').then(({ metrics }) => {
        const metric = (name: string) => metrics.find((entry) => entry.name === name)?.value ?? 0;
        raise({ heapUsed: metric('JSHeapUsedSize'), heapTotal: metric('JSHeapTotalSize') });
      }, () => undefined);
      const sampled = phase;
      void page!.workerHeaps().then((heaps) => {
        const byName = workerPeaks.get(sampled) ?? new Map<string, number>();
        for (const heap of heaps) byName.set(heap.name, Math.max(byName.get(heap.name) ?? 0, heap.total));
        workerPeaks.set(sampled, byName);
        if (sampled === phase) raise({ workersTotal: heaps.reduce((sum, heap) => sum + heap.total, 0) });
        if (values.timeline) log(`  ${sampled}: footprint ${(pageRenderer(browserPid).footprint / MB).toFixed(0)} MB; ${heaps.map((heap) => `${heap.name} heap ${(heap.used / MB).toFixed(0)} of ${(heap.total / MB).toFixed(0)} MB`).join(', ') || 'no worker'}`);
      }, () => undefined);
    }, 250);
    const parseCpu = cpuNow(server, browserPid);
    const parseStart = await now();
    await page.setInputFiles(`${dialog}.querySelector('input[type=file]')`, [csvPath]);
    const rowsText = `audience.csv: ${rows.toLocaleString('en-US')} rows`;
    await page.waitFor(`${dialog}?.innerText.includes(${JSON.stringify(rowsText)})`, 'the mapping step', 120_000);
    const parseEnd = await now();
    const parseLongest = await longest(parseStart, parseEnd);
    // --live-memory: what each phase keeps, as opposed to garbage not yet collected (a forced collection, then the
    // heap and the renderer's RSS), after the mapping step and after the plan; it adds the collections' time there.
    const live: string[] = [];
    const keptNow = async (label: string) => {
      if (!values['live-memory']) return;
      await page!.send('HeapProfiler.collectGarbage');
      await new Promise((resolve) => setTimeout(resolve, 500));
      live.push(`${label}: heap ${((await heapUsed()) / MB).toFixed(0)} MB, renderer ${memoryText(pageRenderer(browserPid))}`);
    };
    await keptNow('the mapping step shown');

    await page.evaluate(`__bench.fill('Tag for the whole import', 'bench', ${dialog})`);
    await page.evaluate(`__bench.fill('Default country for phone numbers', 'NO', ${dialog})`);
    phase = 'the plan';
    const planCpu = cpuNow(server, browserPid);
    const planStart = await now();
    // --trace: what each of Chromium's threads did during the plan (bench/trace.ts).
    const stopTrace = values.trace ? await startTrace(page) : null;
    await page.evaluate(`__bench.click(${JSON.stringify(`Check ${rows.toLocaleString('en-US')} rows`)}, ${dialog})`);
    // --profile: the plan worker's CPU profile too, from its start to the plan shown (it lives until the job is stored).
    const plannerProfiled = values.profile ? profileWorker(page, 'import-planner') : Promise.resolve(false);
    const counts = `${dialog}?.querySelector('[role=group][aria-label=Plan]')`;
    const progress = setInterval(() => {
      void page!.evaluate<string>(`${dialog}?.querySelector('[role=status],[role=alert]')?.innerText ?? ''`).then((text) => text && log(`  ${text}`), () => undefined);
    }, 10_000);
    // Polled every 250 ms: each poll is a task on the page's main thread, as small as can be.
    await page.waitFor(`performance.getEntriesByName('import-plan:cleaned').length > 0`, 'the plan to be cleaned', 300_000, 250);
    const cleanedCpu = cpuNow(server, browserPid);
    await page.waitFor(counts, 'the plan', 300_000, 250).finally(() => clearInterval(progress));
    const planEnd = await now();
    const planEndCpu = cpuNow(server, browserPid);
    const planLongest = await longest(planStart, planEnd);
    if (stopTrace) log(`\nThe plan, by thread (a trace):\n${(await stopTrace()).join('\n')}`);
    await keptNow('the plan shown');
    const planText = (await page.evaluate<string>(`${counts}.innerText`)).replace(/\n+/g, '; ');
    const requestsText = await page.evaluate<string>(`${dialog}.innerText.split('\\n').find((line) => line.includes('The import will send')) ?? ''`);
    // The plan's phases, from the dialog's User Timing marks (import-plan:start, cleaned, looked-up, built).
    const marks = new Map(
      (await page.evaluate<[string, number][]>(`performance.getEntriesByType('mark').filter((m) => m.name.startsWith('import-plan:')).map((m) => [m.name.slice(12), m.startTime])`)),
    );
    const between = (from: string, to: string) => Math.round((marks.get(to) ?? NaN) - (marks.get(from) ?? NaN)).toLocaleString('en-US');
    const planPhases = `clean and merge ${between('start', 'cleaned')} ms, look-ups ${between('cleaned', 'looked-up')} ms, plan built ${between('looked-up', 'built')} ms`;
    if (values.profile) {
      printProfile((await page.send<{ profile: Parameters<typeof printProfile>[0] }>('Profiler.stop')).profile);
      if (await plannerProfiled) {
        log('\nThe plan worker:');
        printProfile((await page.sendToWorker<{ profile: Parameters<typeof printProfile>[0] }>('import-planner', 'Profiler.stop')).profile);
      }
    }

    // The job: started from the plan, sampled from IndexedDB every 2 s.
    const readJob = () => page!.evaluate<StoredJob | null>(FIRST_JOB);
    phase = 'storing the job';
    const jobCpu = cpuNow(server, browserPid);
    const startStart = await now();
    await page.evaluate(`__bench.click(/^Start import/, ${dialog})`);
    await page.waitFor(`!${dialog}`, 'the dialog to close', 300_000, 250);
    const stored = await now();
    const storedCpu = cpuNow(server, browserPid);
    phase = 'the job';
    if (values.profile) await page.send('Profiler.start');
    const stopJobTrace = values.trace ? await startTrace(page) : null;
    log(`job stored in ${Math.round(stored - startStart).toLocaleString('en-US')} ms`);
    type Sample = { at: number; settled: number; created: number; heap: number; renderer: RendererMemory; renderers: number };
    const samples: Sample[] = [];
    const deadline = Date.now() + (jobSeconds || 3600) * 1000;
    let job: StoredJob | null = null;
    for (;;) {
      job = await readJob();
      const renderers = rendererMemory(browserPid);
      const sample = {
        at: Date.now(),
        settled: job?.settled ?? 0,
        created: job?.counts.created ?? 0,
        heap: await heapUsed(),
        renderer: largestRenderer(renderers),
        renderers: renderers.reduce((sum, renderer) => sum + renderer.rss, 0),
      };
      samples.push(sample);
      if (samples.length % 5 === 1) log(`  job ${job?.state ?? '-'}: ${sample.settled.toLocaleString('en-US')} of ${job?.total.toLocaleString('en-US') ?? '?'} steps, heap ${(sample.heap / MB).toFixed(0)} MB, renderer ${memoryText(sample.renderer)}`);
      if (job?.state === 'done' || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    const jobEnd = await now();
    const jobEndCpu = cpuNow(server, browserPid);
    clearInterval(peakSampler);
    if (stopJobTrace) log(`\nThe job, by thread (a trace):\n${(await stopJobTrace()).join('\n')}`);
    if (values.profile) {
      log('\nThe job:');
      printProfile((await page.send<{ profile: Parameters<typeof printProfile>[0] }>('Profiler.stop')).profile);
    }
    // What the page keeps, as opposed to garbage not yet collected: the heap and the renderer after a full collection.
    await page.send('HeapProfiler.collectGarbage');
    const afterGc = { heap: await heapUsed(), renderer: pageRenderer(browserPid) };
    const jobLongest = await longest(stored, jobEnd);
    const loadEnd = loadavg()[0]!;
    // Rates from the first sample with a settled step to the last (the job's own start is in the page's clock).
    const first = samples.find((sample) => sample.settled > 0) ?? samples[0]!;
    const last = samples[samples.length - 1]!;
    const seconds = Math.max(0.001, (last.at - first.at) / 1000);
    const createdRate = (last.created - first.created) / seconds;
    const stepRate = (last.settled - first.settled) / seconds;
    const peakHeap = Math.max(...samples.map((sample) => sample.heap));
    const peakRenderer = { rss: Math.max(...samples.map((sample) => sample.renderer.rss)), footprint: Math.max(...samples.map((sample) => sample.renderer.footprint)) };
    const peakFootprint = Math.max(peakRenderer.footprint, ...[...peaks.values()].map((peak) => peak.footprint));
    const peakRss = Math.max(peakRenderer.rss, ...[...peaks.values()].map((peak) => peak.rss));
    const peakRenderers = Math.max(...samples.map((sample) => sample.renderers));

    const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;
    console.log(`\nContacts import in Chromium: ${rows.toLocaleString('en-US')} rows (${megabytes.toFixed(1)} MiB CSV) against ${count.toLocaleString('en-US')} contacts, RATE_LIMIT_PER_MINUTE=${rateLimit}, SQLite; 1-minute load average ${loadStart.toFixed(1)} at the start, ${loadEnd.toFixed(1)} at the end\n`);
    console.log('| phase | figure | longest main-thread task | goal | result |');
    console.log('|---|---|---|---|---|');
    console.log(`| parse and map (file chosen to mapping shown) | ${ms(parseEnd - parseStart)} | ${ms(parseLongest)} | no task over 200 ms | ${parseLongest <= 200 ? 'pass' : 'FAIL'} |`);
    console.log(`| plan (clean, merge, look up existing) | ${ms(planEnd - planStart)} | ${ms(planLongest)} | under 15 s, no task over 200 ms | ${planEnd - planStart < 15_000 && planLongest <= 200 ? 'pass' : 'FAIL'} |`);
    console.log(`| storing the job (Start import to dialog closed) | ${ms(stored - startStart)} | ${ms(await longest(startStart, stored))} | none | — |`);
    console.log(`| job: contacts created a second (${seconds.toFixed(0)} s, ${(last.settled - first.settled).toLocaleString('en-US')} steps, ${Math.round(stepRate).toLocaleString('en-US')} steps a second) | ${Math.round(createdRate).toLocaleString('en-US')} | ${ms(jobLongest)} | at least 500 a second | ${createdRate >= 500 ? 'pass' : 'FAIL'} |`);
    console.log(`| job: the tab's memory, peak | JS heap ${(peakHeap / MB).toFixed(0)} MB; renderer ${memoryText(peakRenderer)} (all renderers' RSS ${(peakRenderers / MB).toFixed(0)} MB); after a forced garbage collection at the end: heap ${(afterGc.heap / MB).toFixed(0)} MB, renderer ${memoryText(afterGc.renderer)}; the contacts page before the import: heap ${(baseline.heap / MB).toFixed(0)} MB, renderer ${memoryText(baseline.renderer)} | — | — | — |`);
    console.log(`| the tab's memory, peak over every phase (parse to job) | RSS ${(peakRss / MB).toFixed(0)} MB; footprint ${(peakFootprint / MB).toFixed(0)} MB | — | under 300 MB | RSS ${peakRss < 300 * MB ? 'pass' : 'FAIL'}; footprint ${peakFootprint < 300 * MB ? 'pass' : 'FAIL'} |`);
    console.log("\n| phase | renderer RSS, peak | renderer footprint, peak | page heap used, peak | page heap allocated, peak | workers' heaps allocated, peak (sum; each) |\n|---|---:|---:|---:|---:|---|");
    for (const [name, peak] of peaks) {
      const each = [...(workerPeaks.get(name) ?? new Map<string, number>())].map(([worker, total]) => `${worker} ${(total / MB).toFixed(0)} MB`).join(', ') || 'none';
      console.log(`| ${name} | ${(peak.rss / MB).toFixed(0)} MB | ${(peak.footprint / MB).toFixed(0)} MB | ${(peak.heapUsed / MB).toFixed(0)} MB | ${(peak.heapTotal / MB).toFixed(0)} MB | ${(peak.workersTotal / MB).toFixed(0)} MB; ${each} |`);
    }
    console.log(`\nThe plan's phases: ${planPhases}`);
    if (live.length) console.log(`\nKept after a forced collection: ${live.join('; ')}; the contacts page before the import: heap ${(baseline.heap / MB).toFixed(0)} MB, renderer ${memoryText(baseline.renderer)}`);
    console.log(`\nCPU: parse and map ${cpuSpent(parseCpu, planCpu)}; plan ${cpuSpent(planCpu, planEndCpu)} (cleaning ${cpuSpent(planCpu, cleanedCpu)}; look-ups and building ${cpuSpent(cleanedCpu, planEndCpu)}); storing the job ${cpuSpent(jobCpu, storedCpu)}; the job ${cpuSpent(storedCpu, jobEndCpu)}`);
    console.log(`\nPlan: ${planText}\n${requestsText}\nJob: ${job?.state ?? 'not found'}, ${last.settled.toLocaleString('en-US')} of ${job?.total.toLocaleString('en-US') ?? '?'} steps settled, ${JSON.stringify(job?.counts ?? {})}`);
    // Issue 35's goal for the whole import, file chosen to job done: 60 s with the limit off, 3 minutes at 60 a minute.
    if (job?.state === 'done') {
      const goal = rateLimit ? 180 : 60;
      const total = (jobEnd - parseStart) / 1000;
      console.log(`File chosen to job done: ${total.toFixed(1)} s (the job ${((jobEnd - stored) / 1000).toFixed(1)} s); goal at RATE_LIMIT_PER_MINUTE=${rateLimit}: ${goal} s: ${total <= goal ? 'pass' : 'FAIL'}`);
    }
  } finally {
    await page?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
main().catch((error: unknown) => {
  log(`bench:import failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exitCode = 1;
});
