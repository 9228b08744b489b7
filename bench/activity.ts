/**
 * What the activity log (issue 33, docs/decisions.md section 11) costs and how fast it answers, on SQLite or
 * PostgreSQL, against the compiled service as `npm start` runs it (bench/server-process.ts, no rate limit):
 *
 *   npx tsx bench/activity.ts [--database sqlite|postgres] [--postgres-url URL] [--contacts N] [--entries N]
 *                             [--revert N] [--duration S] [--warmup W] [--pairs P] [--no-cache]
 *                             [--cases writes,reads,revert,retention]
 *
 * 1. Writes: `POST /contacts` and `PATCH /contacts/{id}/tags` (16 connections, S seconds each, default 5) with the log
 *    on and with `ACTIVITY_LOG=off`, in P alternated pairs (default 2): requests a second and the server's CPU a
 *    request (utime + stime from /proc), and the ratio on/off of each pair. Each side runs on a fresh process, first W
 *    seconds of the same load not counted (default 2): what a write costs, not what compiling its code on a cold
 *    process costs (with 5 s counted from the start, that weighed on the side with more code to compile, the log's).
 * 2. Reads: `GET /activity` filtered by `resourceId` and by `batchId` (a page of 20, the default, and of 100) with N
 *    entries in the workspace (default 1,000,000, written straight into the database): p50 and p99 at 10 connections.
 * 3. Revert: a batch of R creates (default 10,000, sent with `Activity-Batch`) reverted by one `POST /activity/revert`
 *    while another client writes a tag every 20 ms: the revert's seconds and the longest write meanwhile.
 * 4. Retention: the N entries made 500 days old, deleted by the scheduler (`ACTIVITY_RETENTION_DAYS=400`, at most
 *    1,000 a transaction) while the same writer runs: the seconds it took and the longest write meanwhile.
 * Seeds N contacts first (default 0; 1,000,000 is the size; SQLite's seeded file is kept in /tmp/wsa-bench-seeded
 * unless `--no-cache`). Everything it made is removed.
 */
import autocannon from 'autocannon';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { SCOPES } from '../src/api/scopes';
import { openMigratedDatabase } from '../server/database';
import { createApiKey } from '../server/db/credentials';
import { createOrganization, createWorkspace } from '../server/db/workspaces';
import { seedContactsPostgres } from './seed-contacts';
import { seededFile } from './seeded-file';
import { type ServerProcess, readCpuMs, startServer } from './server-process';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'sqlite' },
    'postgres-url': { type: 'string', default: process.env.POSTGRES_URL ?? process.env.TEST_POSTGRES_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres' },
    contacts: { type: 'string', default: '0' },
    entries: { type: 'string', default: '1000000' },
    revert: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    pairs: { type: 'string', default: '2' },
    'no-cache': { type: 'boolean', default: false },
    cases: { type: 'string', default: 'writes,reads,revert,retention' },
  },
});

async function onPostgres(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Writes one tag change every 20 ms until stopped; resolves to the longest answer's time in ms and how many were sent. */
function steadyWriter(origin: string, apiKey: string, contactId: string) {
  let running = true;
  let longest = 0;
  let sent = 0;
  const began = performance.now();
  /** The three slowest answers: ms, and when the request was sent (s after the writer began). */
  const slowest: { ms: number; at: number; index: number }[] = [];
  const done = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${origin}/api/contacts/${contactId}/tags`, {
        method: 'PATCH',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify(sent % 2 ? { tagsToRemove: ['steady'] } : { tagsToAdd: ['steady'] }),
      });
      await response.arrayBuffer();
      const ms = performance.now() - started;
      longest = Math.max(longest, ms);
      slowest.push({ ms, at: (started - began) / 1000, index: sent });
      slowest.sort((a, b) => b.ms - a.ms).splice(3);
      sent += 1;
      await sleep(20);
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return { longest, sent, slowest: slowest.map((one) => `${one.ms.toFixed(0)} ms (#${one.index}, ${one.at.toFixed(1)} s)`).join(', ') };
    },
  };
}

async function main() {
  const postgres = values.database === 'postgres';
  const contacts = Number(values.contacts);
  const entries = Number(values.entries);
  const revertCount = Number(values.revert);
  const duration = Number(values.duration);
  const warmup = Number(values.warmup);
  const pairs = Number(values.pairs);
  const dir = mkdtempSync(join(tmpdir(), 'wsa-activity-'));
  const databaseName = `wsa_activity_${randomBytes(6).toString('hex')}`;
  let databaseUrl = join(dir, 'bench.sqlite');
  if (postgres) {
    const url = new URL(values['postgres-url']);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
    await onPostgres(values['postgres-url'], `create database ${databaseName}`);
  }
  let server: ServerProcess | null = null;
  const start = async (env: Record<string, string> = {}) => {
    await server?.stop();
    server = await startServer({ cwd: ROOT, databaseUrl, apiKey, env: { SCHEDULER_INTERVAL_MS: '0', ...env } });
    return server;
  };
  let apiKey = '';
  let workspaceId = '';
  try {
    if (!postgres && contacts > 0) {
      const log = (line: string) => console.error(line);
      ({ apiKey, workspaceId, file: databaseUrl } = await seededFile(dir, contacts, { log, ...(values['no-cache'] ? {} : { cacheDir: join(tmpdir(), 'wsa-bench-seeded') }) }));
    } else {
      const database = await openMigratedDatabase(databaseUrl);
      const organization = await createOrganization(database.db, 'Activity Benchmark');
      const workspace = await createWorkspace(database.db, { organizationId: organization.id, name: 'Activity Benchmark' });
      workspaceId = workspace.id;
      apiKey = await createApiKey(database.db, workspace.id, SCOPES);
      await database.close();
      if (contacts > 0) {
        const started = performance.now();
        await seedContactsPostgres(databaseUrl, workspace.id, contacts);
        console.error(`seeded ${contacts.toLocaleString('en')} contacts in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      }
    }
    console.log(`## Activity log, ${postgres ? 'PostgreSQL' : 'SQLite'}, ${contacts.toLocaleString('en')} contacts (load ${loadavg()[0]!.toFixed(1)})\n`);

    const cases = new Set(values.cases.split(','));
    // 1. What the log costs a write: alternated pairs, on and off.
    let serial = 0;
    const ids: string[] = [];
    const load = async (label: string, method: 'POST' | 'PATCH', warming = false): Promise<{ rate: number; cpu: number; failed: number }> => {
      const seconds = warming ? warmup : duration;
      if (!warming && warmup > 0) await load(`${label}w`, method, true);
      const cpuBefore = readCpuMs(server!.servingPid) ?? 0;
      const result = await autocannon({
        url: `${server!.origin}/api/contacts`,
        connections: 16,
        duration: seconds,
        requests: [
          {
            method,
            setupRequest: (request) => {
              serial += 1;
              const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
              if (method === 'POST') return { ...request, headers, body: JSON.stringify({ name: `Bench ${serial}`, email: `bench.${serial}.${label}@activity.test`, tags: ['bench'] }) };
              const id = ids[serial % ids.length]!;
              return { ...request, path: `/api/contacts/${id}/tags`, headers, body: JSON.stringify(serial % 2 ? { tagsToAdd: [`t${serial % 7}`] } : { tagsToRemove: [`t${(serial - 1) % 7}`] }) };
            },
          },
        ],
      });
      return { rate: result.requests.average, cpu: ((readCpuMs(server!.servingPid) ?? 0) - cpuBefore) / Math.max(1, result.requests.total), failed: result.non2xx };
    };
    await start();
    for (let i = 0; i < 2000; i += 50) {
      const made = await Promise.all(
        Array.from({ length: 50 }, async (_, j) => {
          const response = await fetch(`${server!.origin}/api/contacts`, { method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ email: `patch.${i + j}@activity.test` }) });
          return ((await response.json()) as { id: string }).id;
        }),
      );
      ids.push(...made);
    }
    // The contacts' tags brought to the mix they keep under the load (each carries some of t0..t6), not counted: the
    // first PATCH run of a bench cost 1.55 to 1.59 times the others, whichever side it was.
    if (cases.has('writes') && warmup > 0) await load('data', 'PATCH', true);
    console.log('| pair | write | log | requests/s | server CPU ms/request | on/off CPU ratio | non-2xx |');
    console.log('|---|---|---|---|---|---|---|');
    for (let pair = 1; pair <= (cases.has('writes') ? pairs : 0); pair++) {
      for (const method of ['POST', 'PATCH'] as const) {
        // Which side runs first alternates by pair, so a machine getting busier or quieter weighs on both.
        const sides = pair % 2 ? (['on', 'off'] as const) : (['off', 'on'] as const);
        const figures: Record<string, Awaited<ReturnType<typeof load>>> = {};
        for (const side of sides) {
          await start({ ACTIVITY_LOG: side });
          figures[side] = await load(`${side}${pair}`, method);
        }
        const on = figures.on!;
        const off = figures.off!;
        const what = method === 'POST' ? 'POST /contacts' : 'PATCH tags';
        console.log(`| ${pair} | ${what} | on | ${Math.round(on.rate)} | ${on.cpu.toFixed(3)} | ${(on.cpu / off.cpu).toFixed(2)} | ${on.failed} |`);
        console.log(`| ${pair} | ${what} | off | ${Math.round(off.rate)} | ${off.cpu.toFixed(3)} | | ${off.failed} |`);
      }
    }

    // 2. Reads with N entries in the workspace, written straight into the database (one record's 10, one batch's 100).
    const database = await openMigratedDatabase(databaseUrl);
    const seeded = performance.now();
    const record = randomUUID();
    const batch = `batch-${randomUUID()}`;
    const old = new Date(Date.now() - 500 * 86_400_000).toISOString();
    if (postgres) {
      await sql`insert into activity (activity_id, workspace_id, created, resource, resource_id, action, changes, key_hint, source, batch_id, request_id, idempotency_key, revert_of)
        select md5(random()::text || g::text), ${workspaceId}, ${old}, 'contact', case when g % 100000 = 0 then ${record} else md5(g::text) end, 'update',
          '{"city":["Bergen","Oslo"]}', '…abcd', 'api', case when g % 10000 = 0 then ${batch} else null end, null, null, null
        from generate_series(1, ${entries}) g`.execute(database.db);
    } else {
      await sql`with recursive g(n) as (select 1 union all select n + 1 from g where n < ${entries})
        insert into activity (activity_id, workspace_id, created, resource, resource_id, action, changes, key_hint, source, batch_id, request_id, idempotency_key, revert_of)
        select lower(hex(randomblob(16))), ${workspaceId}, ${old}, 'contact', case when n % 100000 = 0 then ${record} else lower(hex(randomblob(8))) end, 'update',
          '{"city":["Bergen","Oslo"]}', '…abcd', 'api', case when n % 10000 = 0 then ${batch} else null end, null, null, null
        from g`.execute(database.db);
    }
    await database.close();
    console.log(`\nWrote ${entries.toLocaleString('en')} activity entries in ${((performance.now() - seeded) / 1000).toFixed(1)} s.\n`);
    await start();
    console.log('| GET /activity filtered by | page | entries | p50 ms | p99 ms | requests/s |');
    console.log('|---|---|---|---|---|---|');
    // A record's history (10 entries), a batch's first page at the default $limit (20) and at the largest (100).
    for (const [label, filter, limit] of (cases.has('reads') ? [
      ['resourceId', `resourceId eq '${record}'`, 100],
      ['batchId', `batchId eq '${batch}'`, 20],
      ['batchId', `batchId eq '${batch}'`, 100],
    ] : []) as [string, string, number][]) {
      const result = await autocannon({ url: `${server!.origin}/api/activity?%24filter=${encodeURIComponent(filter)}&%24limit=${limit}`, connections: 10, duration, headers: { 'x-api-key': apiKey } });
      console.log(`| ${label} | ${limit} | ${entries.toLocaleString('en')} | ${result.latency.p50} | ${result.latency.p99} | ${Math.round(result.requests.average)} |`);
    }

    // 3. Reverting a batch of R creates while another client writes.
    if (cases.has('revert')) {
    const revertBatch = `revert-${randomUUID()}`;
    for (let i = 0; i < revertCount; i += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, revertCount - i) }, (_, j) =>
          fetch(`${server!.origin}/api/contacts`, {
            method: 'POST',
            headers: { 'x-api-key': apiKey, 'content-type': 'application/json', 'activity-batch': revertBatch },
            body: JSON.stringify({ email: `revert.${i + j}@activity.test`, tags: ['imported'] }),
          }).then((response) => response.arrayBuffer()),
        ),
      );
    }
    const writer = steadyWriter(server!.origin, apiKey, ids[0]!);
    const reverting = performance.now();
    const answer = await fetch(`${server!.origin}/api/activity/revert`, { method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ batchId: revertBatch }) });
    const reverted = (await answer.json()) as { reverted: number; conflicts: unknown[] };
    const revertSeconds = (performance.now() - reverting) / 1000;
    const during = await writer.stop();
    console.log(`\n| revert of a batch | seconds | reverted | conflicts | longest other write ms (of ${during.sent}) | the three slowest (request, sent at) |`);
    console.log('|---|---|---|---|---|---|');
    console.log(`| ${revertCount.toLocaleString('en')} creates | ${revertSeconds.toFixed(1)} | ${reverted.reverted} | ${reverted.conflicts.length} | ${during.longest.toFixed(0)} | ${during.slowest} |`);

    }

    // 4. Retention: the scheduler deletes the N old entries while the writer runs.
    if (cases.has('retention')) {
    await start({ SCHEDULER_INTERVAL_MS: '200', ACTIVITY_RETENTION_DAYS: '400' });
    const pruning = performance.now();
    const steady = steadyWriter(server!.origin, apiKey, ids[1]!);
    const check = await openMigratedDatabase(databaseUrl);
    // Whether any old entry is left, by one index seek: a count of them (up to 1,000,000, some 100 ms early on) held a
    // read snapshot that long every 500 ms, so the service's checkpoints could not reach the WAL's end meanwhile.
    for (;;) {
      const left = await check.db.selectFrom('activity').select('seq').where('created', '<', new Date(Date.now() - 400 * 86_400_000).toISOString()).limit(1).executeTakeFirst();
      if (!left) break;
      await sleep(500);
    }
    await check.close();
    const pruneSeconds = (performance.now() - pruning) / 1000;
    const meanwhile = await steady.stop();
    console.log(`\n| retention | seconds | longest other write ms (of ${meanwhile.sent}) | the three slowest (request, sent at) |`);
    console.log('|---|---|---|---|');
    console.log(`| ${entries.toLocaleString('en')} old entries deleted | ${pruneSeconds.toFixed(1)} | ${meanwhile.longest.toFixed(0)} | ${meanwhile.slowest} |`);
    }
  } finally {
    await (server as ServerProcess | null)?.stop();
    rmSync(dir, { recursive: true, force: true });
    if (postgres) await onPostgres(values['postgres-url'], `drop database if exists ${databaseName} with (force)`);
  }
}

await main();
