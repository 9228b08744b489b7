/**
 * `npm run bench:batches` (issue 35, "Measure"; docs/decisions.md section 12): the aggregates and batches of our
 * service on a seeded database, against the compiled service as `npm start` runs it (bench/server-process.ts, no
 * rate limit), on SQLite or PostgreSQL:
 *
 *   npm run bench:batches -- [--database sqlite|postgres] [--postgres-url URL] [--contacts N] [--batches B] [--no-cache]
 *
 * 1. `GET /stats` cold (the first read after a write, so a new data version) 3 times, and cached 50 times: p50.
 * 2. `GET /contacts/stats?$filter=tags eq 'vip'` cold, 3 times (the seed tags 10% of the contacts `vip`).
 * 3. `POST /contacts/batch` of 1,000 new contacts, B batches one after the other (default 5): contacts a second.
 * 4. `POST /contacts/tags` adding a tag to every contact of `tags eq 'vip'` (100,000 of 1,000,000), while another
 *    client writes a tag every 20 ms (`PATCH /contacts/{id}/tags`): the request's seconds and that writer's longest
 *    answer.
 * Prints a table with the goals, met or not. N defaults to 1,000,000 (the size); SQLite's seeded
 * file is kept in /tmp/wsa-bench-seeded between runs unless `--no-cache` (bench/seeded-file.ts), PostgreSQL is
 * seeded into a new database (bench/bench-database.ts) that is dropped at the end, as is everything else it made.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type BenchDatabase, DEFAULT_POSTGRES_URL, createBenchDatabase, loadAverage } from './bench-database';
import { seededFile } from './seeded-file';
import { type ServerProcess, startServer } from './server-process';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'sqlite' },
    'postgres-url': { type: 'string', default: DEFAULT_POSTGRES_URL },
    contacts: { type: 'string', default: '1000000' },
    batches: { type: 'string', default: '5' },
    'no-cache': { type: 'boolean', default: false },
  },
});

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? NaN;
const log = (line: string) => console.error(line);

async function main() {
  const postgres = values.database === 'postgres';
  const contacts = Number(values.contacts);
  const batches = Number(values.batches);
  const dir = mkdtempSync(join(tmpdir(), 'wsa-batches-'));
  let database: BenchDatabase | null = null;
  let server: ServerProcess | null = null;
  try {
    let databaseUrl: string;
    let apiKey: string;
    if (postgres) {
      database = await createBenchDatabase({ kind: 'postgres', contacts, postgresUrl: values['postgres-url'], log });
      ({ databaseUrl } = database);
      apiKey = database.apiKeys[0]!;
      log(database.engine);
    } else {
      ({ file: databaseUrl, apiKey } = await seededFile(dir, contacts, { log, ...(values['no-cache'] ? {} : { cacheDir: join(tmpdir(), 'wsa-bench-seeded') }) }));
    }
    server = await startServer({ cwd: ROOT, databaseUrl, apiKey, env: { SCHEDULER_INTERVAL_MS: '0' } });
    const origin = server.origin;
    const send = async (method: string, path: string, body?: unknown) => {
      const started = performance.now();
      const response = await fetch(`${origin}/api${path}`, {
        method,
        headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      const ms = performance.now() - started;
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
      return { ms, json: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
    };
    let serial = 0;
    const stamp = Date.now().toString(36);
    const newContact = () => ({ name: 'Batch Bench', email: `bench-${stamp}-${serial++}@example.net`, tags: ['bench'] });
    const write = () => send('POST', '/contacts', newContact());
    log(`load average before the cases: ${loadAverage()}`);

    // 1. GET /stats, cold after a write and cached.
    const statsCold: number[] = [];
    for (let i = 0; i < 3; i++) {
      await write();
      statsCold.push((await send('GET', '/stats')).ms);
    }
    const statsCached: number[] = [];
    for (let i = 0; i < 50; i++) statsCached.push((await send('GET', '/stats')).ms);
    log(`GET /stats cold ${statsCold.map((ms) => ms.toFixed(0)).join(', ')} ms; cached p50 ${median(statsCached).toFixed(1)} ms`);

    // 2. GET /contacts/stats with a tag filter, cold after a write.
    const facetsCold: number[] = [];
    let vip = 0;
    for (let i = 0; i < 3; i++) {
      await write();
      const answer = await send('GET', `/contacts/stats?${new URLSearchParams({ $filter: "tags eq 'vip'" })}`);
      facetsCold.push(answer.ms);
      vip = Number(answer.json.total);
    }
    log(`GET /contacts/stats (tags eq 'vip', ${vip} contacts) cold ${facetsCold.map((ms) => ms.toFixed(0)).join(', ')} ms`);

    // 3. POST /contacts/batch of 1,000.
    const rates: number[] = [];
    for (let i = 0; i < batches; i++) {
      const answer = await send('POST', '/contacts/batch', { items: Array.from({ length: 1000 }, newContact) });
      const created = (answer.json.results as { status: number }[]).filter((result) => result.status === 201).length;
      if (created !== 1000) throw new Error(`batch ${i}: ${created} of 1,000 created`);
      rates.push(1000 / (answer.ms / 1000));
    }
    log(`POST /contacts/batch of 1,000: ${rates.map((rate) => rate.toFixed(0)).join(', ')} contacts/s`);

    // 4. POST /contacts/tags over `tags eq 'vip'`, another client writing a tag every 20 ms meanwhile.
    const [steadyId] = ((await send('GET', `/contacts?${new URLSearchParams({ $filter: "tags eq 'bench'", $limit: '1' })}`)).json.items as { id: string }[]).map((item) => item.id);
    let running = true;
    let longest = 0;
    let writes = 0;
    const answers: number[] = [];
    const steady = (async () => {
      while (running) {
        const { ms } = await send('PATCH', `/contacts/${steadyId}/tags`, writes % 2 ? { tagsToRemove: ['steady'] } : { tagsToAdd: ['steady'] });
        longest = Math.max(longest, ms);
        answers.push(ms);
        writes += 1;
        await sleep(20);
      }
    })();
    // Its failure is thrown where it is awaited below; unhandled meanwhile, it would end the process before the
    // `finally` that stops the server and removes the database.
    steady.catch(() => undefined);
    await sleep(200);
    const tagged = await send('POST', '/contacts/tags', { filter: "tags eq 'vip'", tagsToAdd: [`bulk-${stamp}`] });
    await sleep(100);
    running = false;
    await steady;
    log(`POST /contacts/tags: ${JSON.stringify(tagged.json)} in ${(tagged.ms / 1000).toFixed(1)} s; the other writer's longest answer ${longest.toFixed(0)} ms over ${writes} writes`);
    // The other writer's answers by size: how often it waited, not only its worst.
    const byTime = [...answers].sort((a, b) => a - b);
    const at = (share: number) => byTime[Math.min(byTime.length - 1, Math.floor(byTime.length * share))]?.toFixed(0) ?? '-';
    log(`the other writer's answers: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, over 100 ms ${byTime.filter((ms) => ms > 100).length}, over 200 ms ${byTime.filter((ms) => ms > 200).length}; the 5 longest ${byTime.slice(-5).map((ms) => ms.toFixed(0)).join(', ')} ms`);

    const rows: [string, string, string, boolean][] = [
      ['`GET /stats` cold (after a write), worst of 3', `${Math.max(...statsCold).toFixed(0)} ms`, '<= 300 ms', Math.max(...statsCold) <= 300],
      ['`GET /stats` cached, p50 of 50', `${median(statsCached).toFixed(1)} ms`, '<= 5 ms', median(statsCached) <= 5],
      [`\`GET /contacts/stats\` \`tags eq 'vip'\` (${vip.toLocaleString('en-US')}) cold, worst of 3`, `${Math.max(...facetsCold).toFixed(0)} ms`, '<= 500 ms', Math.max(...facetsCold) <= 500],
      [`\`POST /contacts/batch\` of 1,000, median of ${batches}`, `${median(rates).toFixed(0)} contacts/s`, postgres ? '>= 2,000/s' : '>= 4,000/s', median(rates) >= (postgres ? 2000 : 4000)],
      [`\`POST /contacts/tags\` over ${Number(tagged.json.matched).toLocaleString('en-US')} contacts`, `${(tagged.ms / 1000).toFixed(1)} s`, '<= 10 s', tagged.ms <= 10_000],
      ['the other writer\'s longest answer meanwhile', `${longest.toFixed(0)} ms`, '<= 200 ms', longest <= 200],
    ];
    console.log(`\n### ${postgres ? 'PostgreSQL' : 'SQLite'}, ${contacts.toLocaleString('en-US')} contacts, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, load ${loadAverage()}\n`);
    console.log('| case | measured | goal | met |\n|---|---:|---:|---|');
    for (const [name, measured, goal, met] of rows) console.log(`| ${name} | ${measured} | ${goal} | ${met ? 'yes' : '**no**'} |`);
  } finally {
    await server?.stop();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
