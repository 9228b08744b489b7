/**
 * POST /contacts throughput of the service itself (issue 20 point 6: "report POST /contacts throughput of the
 * service beside" the console's import rate), on SQLite or PostgreSQL:
 *
 *   npx tsx bench/contact-create.ts [--database sqlite|postgres] [--postgres-url URL] [--contacts N]
 *                                   [--connections C] [--duration S] [--no-cache] [--cpu-prof DIR]
 *
 * Seeds N contacts first (default 0; 1,000,000 is the size; on SQLite the seeded file is kept in
 * /tmp/wsa-bench-seeded between runs, bench/seeded-file.ts, unless `--no-cache`), starts the compiled service as `npm start`
 * does (bench/server-process.ts, no rate limit), then loads `POST /contacts` with autocannon: C connections
 * (default 16, as many as a console job keeps in flight), S seconds (default 10), every request a new contact
 * with a unique email and phone (with and without an `Idempotency-Key`, which our service may store: both are
 * measured); then `PATCH /contacts/{id}/tags` with an Idempotency-Key, as a bulk tag job or an import's tag step
 * sends it, on 2,000 contacts made for it, each patch changing its contact. Prints requests a second, latency p50/p99,
 * the server process's CPU time a request (utime + stime from /proc: steadier than the rate on a shared machine)
 * and any non-2xx answer. Everything it made is removed.
 */
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
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
    connections: { type: 'string', default: '16' },
    duration: { type: 'string', default: '10' },
    'no-cache': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
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

async function main() {
  const postgres = values.database === 'postgres';
  const contacts = Number(values.contacts);
  const connections = Number(values.connections);
  const duration = Number(values.duration);
  const dir = mkdtempSync(join(tmpdir(), 'wsa-create-'));
  const databaseName = `wsa_create_${randomBytes(6).toString('hex')}`;
  let databaseUrl = join(dir, 'bench.sqlite');
  if (postgres) {
    const url = new URL(values['postgres-url']);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
    await onPostgres(values['postgres-url'], `create database ${databaseName}`);
  }
  let server: ServerProcess | null = null;
  try {
    let apiKey: string;
    if (!postgres && contacts > 0) {
      // SQLite: the seeded file kept between runs (bench/seeded-file.ts), unless --no-cache.
      const log = (line: string) => console.error(line);
      ({ apiKey, file: databaseUrl } = await seededFile(dir, contacts, { log, ...(values['no-cache'] ? {} : { cacheDir: join(tmpdir(), 'wsa-bench-seeded') }) }));
    } else {
      const database = await openMigratedDatabase(databaseUrl);
      const organization = await createOrganization(database.db, 'Create Benchmark');
      const workspace = await createWorkspace(database.db, { organizationId: organization.id, name: 'Create Benchmark' });
      apiKey = await createApiKey(database.db, workspace.id, SCOPES);
      await database.close();
      if (contacts > 0) {
        const started = performance.now();
        await seedContactsPostgres(databaseUrl, workspace.id, contacts);
        console.error(`seeded ${contacts.toLocaleString('en')} contacts in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      }
    }
    // --cpu-prof DIR: the server writes a V8 CPU profile there when it stops.
    server = await startServer({ cwd: ROOT, databaseUrl, apiKey, ...(values['cpu-prof'] ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] } : {}) });
    let serial = 0;
    type Setup = NonNullable<autocannon.Request['setupRequest']>;
    /** Loads the service with `method` requests shaped by `setup` for the run's duration; the case's table row. */
    const measure = async (label: string, method: 'POST' | 'PATCH', setup: Setup) => {
      const cpuBefore = readCpuMs(server!.servingPid) ?? 0;
      const result = await autocannon({ url: `${server!.origin}/api/contacts`, connections, duration, requests: [{ method, setupRequest: setup }] });
      const cpuPerRequest = ((readCpuMs(server!.servingPid) ?? 0) - cpuBefore) / Math.max(1, result.requests.total);
      return `| ${label} | ${Math.round(result.requests.average).toLocaleString('en')} | ${result.latency.p50} | ${result.latency.p99} | ${cpuPerRequest.toFixed(2)} | ${result.non2xx} |`;
    };
    const creates = (idempotency: boolean) =>
      measure(idempotency ? 'with Idempotency-Key' : 'without', 'POST', (request) => {
        serial += 1;
        const headers: Record<string, string> = { 'x-api-key': apiKey, 'content-type': 'application/json' };
        if (idempotency) headers['idempotency-key'] = `bench.${serial}`;
        return {
          ...request,
          headers,
          body: JSON.stringify({ name: `Bench ${serial}`, email: `bench.${serial}@create.test`, phone: `+479${String(serial).padStart(7, '0')}`, tags: ['bench', 'created'] }),
        };
      });
    // PATCH /contacts/{id}/tags, each with an Idempotency-Key as a job sends it, on 2,000 contacts made for it: each
    // patch adds the contact's next tag and removes its last, so every patch changes the contact.
    const ids: string[] = [];
    for (let start = 0; start < 2000; start += 50) {
      const made = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const response = await fetch(`${server!.origin}/api/contacts`, {
            method: 'POST',
            headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
            body: JSON.stringify({ name: `Patched ${start + i}`, email: `patched.${start + i}@create.test`, tags: ['t0'] }),
          });
          return ((await response.json()) as { id: string }).id;
        }),
      );
      ids.push(...made);
    }
    const rounds = new Map<string, number>();
    const patches = () =>
      measure('PATCH tags, with Idempotency-Key', 'PATCH', (request) => {
        serial += 1;
        const id = ids[serial % ids.length]!;
        const round = (rounds.get(id) ?? 0) + 1;
        rounds.set(id, round);
        return {
          ...request,
          path: `/api/contacts/${id}/tags`,
          headers: { 'x-api-key': apiKey, 'content-type': 'application/json', 'idempotency-key': `patch.${serial}` },
          body: JSON.stringify({ tagsToAdd: [`t${round}`], tagsToRemove: [`t${round - 1}`] }),
        };
      });
    const rows = [await creates(false), await creates(true), await patches()];
    console.log(`POST /contacts and PATCH /contacts/{id}/tags on ${postgres ? 'PostgreSQL' : 'SQLite'}, ${contacts.toLocaleString('en')} contacts before, ${connections} connections, ${duration} s each, load average before ${loadavg()[0]!.toFixed(1)}:`);
    console.log('');
    console.log('| case | requests/s | p50 ms | p99 ms | server CPU ms a request | non-2xx |');
    console.log('|---|---|---|---|---|---|');
    for (const row of rows) console.log(row);
  } finally {
    await server?.stop();
    if (postgres) await onPostgres(values['postgres-url'], `drop database if exists ${databaseName} with (force)`).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
