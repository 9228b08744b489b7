/**
 * Refused-request benchmark (`npm run bench:auth -- [--duration S] [--connections C]`, issue 12 point 7): what a
 * flood of requests the rate limit refuses costs the server. Starts the real compiled service (as bench:api
 * does) on a fresh SQLite file with `RATE_LIMIT_PER_MINUTE=5`, then for each case sends requests with
 * autocannon (C connections, default 10, S seconds, default 5) after the limit is spent, so nearly every answer
 * is a 429: bad Basic credentials on the notification-settings update (a well-formed unknown access key and
 * secret, the case that used to run scrypt first) and a bad API key on `GET /contacts` (for comparison).
 * Prints a markdown table of latency (p50, p99), req/s, the server's CPU per request and the share of 429s.
 * The server is stopped and the temp folder removed at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { SCOPES } from '../src/api/scopes';
import { openMigratedDatabase } from '../server/database';
import { createApiKey, randomBase62 } from '../server/db/credentials';
import { createOrganization, createWorkspace } from '../server/db/workspaces';
import { type ServerProcess, readCpuMs, startServer } from './server-process';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const log = (line: string) => process.stderr.write(`${line}\n`);

async function main() {
  const { values } = parseArgs({ options: { duration: { type: 'string', default: '5' }, connections: { type: 'string', default: '10' } } });
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  if (!(duration > 0) || !(connections > 0)) throw new Error('--duration and --connections must be positive numbers');
  const dir = mkdtempSync(join(tmpdir(), 'wsa-bench-auth-'));
  let server: ServerProcess | null = null;
  try {
    const databaseUrl = join(dir, 'bench.sqlite');
    const database = await openMigratedDatabase(databaseUrl);
    const organization = await createOrganization(database.db, 'Benchmark Organization');
    const workspace = await createWorkspace(database.db, { organizationId: organization.id, name: 'Benchmark Workspace' });
    const apiKey = await createApiKey(database.db, workspace.id, SCOPES);
    await database.close();
    // The readiness request spends one of the 5: the key's own counter, not the ones measured below.
    server = await startServer({ cwd: ROOT, databaseUrl, apiKey, env: { RATE_LIMIT_PER_MINUTE: '5' }, onUnexpectedExit: log });
    const origin = server.origin;
    const basic = `Basic ${Buffer.from(`wsa_${randomBase62(24)}:${randomBase62(40)}`).toString('base64')}`;
    const cases: { name: string; request: { url: string; method: 'GET' | 'PATCH'; headers: Record<string, string>; body?: string } }[] = [
      {
        name: 'bad Basic credentials, PATCH /contacts/{id}/notification-settings',
        request: { url: `${origin}/api/contacts/00000000-0000-4000-8000-000000000000/notification-settings`, method: 'PATCH', headers: { authorization: basic, 'content-type': 'application/json' }, body: '{"email":true}' },
      },
      { name: 'bad API key, GET /contacts', request: { url: `${origin}/api/contacts`, method: 'GET', headers: { 'x-api-key': `wsk_${randomBase62(40)}` } } },
    ];
    const rows: string[] = [];
    for (const test of cases) {
      // Spend the limit first, so what is measured is the refusal.
      for (let i = 0; i < 6; i++) await fetch(test.request.url, test.request).then((response) => response.arrayBuffer());
      log(`${test.name}: ${duration} s x ${connections} connections...`);
      const cpuBefore = readCpuMs(server.servingPid);
      const result = await autocannon({ ...test.request, connections, duration });
      const cpuAfter = readCpuMs(server.servingPid);
      const refused = result.statusCodeStats?.['429']?.count ?? 0;
      const cpu = cpuBefore === null || cpuAfter === null ? 'n/a' : `${((cpuAfter - cpuBefore) / result.requests.total).toFixed(2)} ms`;
      rows.push(`| ${test.name} | ${result.latency.p50} | ${result.latency.p99} | ${Math.round(result.requests.mean)} | ${cpu} | ${((100 * refused) / result.requests.total).toFixed(1)}% |`);
    }
    process.stdout.write(
      [
        `## Refused requests (rate limit 5 a minute, spent), ${connections} connections, ${duration} s each`,
        '',
        '| case | p50 ms | p99 ms | req/s | server CPU per request | answered 429 |',
        '|---|---:|---:|---:|---:|---:|',
        ...rows,
        '',
      ].join('\n'),
    );
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench:auth failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
