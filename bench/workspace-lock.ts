/**
 * What the workspace row lock costs a write on PostgreSQL (docs/live.md, "How a change reaches every process"):
 * every write that records activity locks its workspace's row first (server/db/activity.ts `lockWorkspace`), so a
 * workspace's log entries commit in `seq` order; this times N contact creates through the app (in process,
 * `app.inject`, so no sockets) three ways (`setWorkspaceLockForBench`): the lock taken first (the service), taken by
 * `recordActivity` in the middle of the write (the earlier design, which could deadlock), and not at all (no
 * `pg_notify` either; contact writes still take the same row at their end, to count their version); serially and
 * with C at once in one workspace, alternated (the order reverses each round; the machine is shared).
 *
 *   npx tsx bench/workspace-lock.ts [--postgres-url URL] [--creates N] [--concurrency C] [--rounds R]
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { SCOPES } from '../src/api/scopes';
import { buildApp } from '../server/app';
import { openMigratedDatabase } from '../server/database';
import { setWorkspaceLockForBench } from '../server/db/activity';
import { createApiKey } from '../server/db/credentials';
import { createOrganization, createWorkspace } from '../server/db/workspaces';

const { values } = parseArgs({
  options: {
    'postgres-url': { type: 'string', default: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres' },
    creates: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
  },
});
const creates = Number(values.creates);
const rounds = Number(values.rounds);
type Mode = Parameters<typeof setWorkspaceLockForBench>[0];

async function onServer(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: values['postgres-url'] });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const name = `wsa_bench_lock_${randomBytes(4).toString('hex')}`;
await onServer(`create database ${name}`);
const url = new URL(values['postgres-url']);
url.pathname = `/${name}`;
const database = await openMigratedDatabase(url.toString());
try {
  const organization = await createOrganization(database.db, 'Bench');
  const workspace = await createWorkspace(database.db, { organizationId: organization.id, name: 'Bench' });
  const key = await createApiKey(database.db, workspace.id, SCOPES);
  const app = await buildApp({ database, rateLimitPerMinute: 0, schedulerIntervalMs: 0 });
  await app.ready();
  let serial = 0;
  /** N creates, `concurrency` in flight at once; ms. */
  async function run(mode: Mode, concurrency: number): Promise<number> {
    setWorkspaceLockForBench(mode);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < creates) {
          next++;
          const answer = await app.inject({ method: 'POST', url: '/api/contacts', headers: { 'x-api-key': key, 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'Bench', email: `b${serial++}@example.com` }) });
          if (answer.statusCode !== 201) throw new Error(`create answered ${answer.statusCode}: ${answer.body}`);
        }
      }),
    );
    return performance.now() - started;
  }
  await run('first', 4); // warm-up: compiled queries, the pool's connections
  console.log(`## Workspace row lock, PostgreSQL, ${creates.toLocaleString('en')} contact creates a run (load ${loadavg()[0]!.toFixed(1)})\n`);
  console.log('| in flight | round | lock first (ms) | lock in recordActivity (ms) | no lock (ms) | first / none | first / in-record |');
  console.log('|---|---|---|---|---|---|---|');
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  for (const concurrency of [1, Number(values.concurrency)]) {
    const overNone: number[] = [];
    const overRecord: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const modes: Mode[] = ['first', 'in-record', 'off'];
      const order = round % 2 ? [...modes].reverse() : modes;
      const times = {} as Record<Mode, number>;
      for (const mode of order) times[mode] = await run(mode, concurrency);
      overNone.push(times.first / times.off);
      overRecord.push(times.first / times['in-record']);
      console.log(`| ${concurrency} | ${round + 1} | ${times.first.toFixed(0)} | ${times['in-record'].toFixed(0)} | ${times.off.toFixed(0)} | ${overNone.at(-1)!.toFixed(2)} | ${overRecord.at(-1)!.toFixed(2)} |`);
    }
    console.log(`| ${concurrency} | median | | | | ${median(overNone).toFixed(2)} | ${median(overRecord).toFixed(2)} |`);
  }
  setWorkspaceLockForBench('first');
  await app.close();
} finally {
  await database.close();
  await onServer(`drop database if exists ${name} with (force)`);
}
