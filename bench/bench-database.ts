/**
 * A throwaway database for a benchmark that starts the service as a separate process (bench/soak.ts,
 * bench/events.ts): an SQLite file in a new temp folder, or a new database `wsa_bench_<hex>` on a PostgreSQL
 * server, migrated, with one organization, one workspace, `keys` API keys of every scope and `contacts` seeded
 * contacts (bench/seed-contacts.ts), as bench/api.ts sets up its own. `drop()` removes the folder and the database.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { SCOPES } from '../src/api/scopes';
import { openMigratedDatabase } from '../server/database';
import { createApiKey } from '../server/db/credentials';
import { createOrganization, createWorkspace } from '../server/db/workspaces';
import { seedContacts, seedContactsPostgres } from './seed-contacts';

export type DatabaseKind = 'sqlite' | 'postgres';

/** The machine's PostgreSQL as scripts/ensure-postgres.mjs sets it up (and the server tests use). */
export const DEFAULT_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

export type BenchDatabase = {
  kind: DatabaseKind;
  /** What the service's `DATABASE_URL` is set to. */
  databaseUrl: string;
  /** A temp folder, removed by `drop()`. */
  dir: string;
  workspaceId: string;
  apiKeys: string[];
  /** A line naming the engine (PostgreSQL's version and memory settings). */
  engine: string;
  /** Removes the temp folder and the PostgreSQL database; safe to call twice. */
  drop(): Promise<void>;
};

/** Runs `statement` on the PostgreSQL server of `url` (its maintenance database); returns the rows. */
export async function onPostgres<Row extends Record<string, unknown>>(url: string, statement: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(statement)).rows;
  } finally {
    await client.end();
  }
}

/** The 1-minute load average (other work on the machine skews every figure). */
export const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?';

export async function createBenchDatabase(options: {
  kind: DatabaseKind;
  contacts: number;
  keys?: number;
  postgresUrl?: string;
  log?: (line: string) => void;
}): Promise<BenchDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'wsa-bench-'));
  const serverUrl = options.postgresUrl ?? DEFAULT_POSTGRES_URL;
  const databaseName = `wsa_bench_${randomBytes(6).toString('hex')}`;
  let databaseUrl = join(dir, 'bench.sqlite');
  let engine = 'SQLite (better-sqlite3)';
  let created = false;
  let dropped: Promise<void> | null = null;
  const drop = () =>
    (dropped ??= (async () => {
      rmSync(dir, { recursive: true, force: true });
      if (created) await onPostgres(serverUrl, `drop database if exists ${databaseName} with (force)`);
    })());
  try {
    if (options.kind === 'postgres') {
      const url = new URL(serverUrl);
      url.pathname = `/${databaseName}`;
      databaseUrl = url.toString();
      const [settings] = await onPostgres<{ version: string; shared_buffers: string }>(
        serverUrl,
        "select current_setting('server_version') as version, current_setting('shared_buffers') as shared_buffers",
      );
      await onPostgres(serverUrl, `create database ${databaseName}`);
      created = true;
      engine = `PostgreSQL ${settings?.version} (shared_buffers ${settings?.shared_buffers})`;
    }
    const database = await openMigratedDatabase(databaseUrl);
    const organization = await createOrganization(database.db, 'Benchmark Organization');
    const workspace = await createWorkspace(database.db, { organizationId: organization.id, name: 'Benchmark Workspace' });
    const apiKeys: string[] = [];
    for (let index = 0; index < (options.keys ?? 1); index++) apiKeys.push(await createApiKey(database.db, workspace.id, SCOPES));
    await database.close();
    if (options.contacts > 0) {
      const started = performance.now();
      options.log?.(`seeding ${options.contacts.toLocaleString('en-US')} contacts into ${options.kind === 'postgres' ? databaseName : databaseUrl}...`);
      if (options.kind === 'postgres') await seedContactsPostgres(databaseUrl, workspace.id, options.contacts);
      else seedContacts(databaseUrl, workspace.id, options.contacts);
      options.log?.(`  seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    return { kind: options.kind, databaseUrl, dir, workspaceId: workspace.id, apiKeys, engine, drop };
  } catch (error) {
    await drop();
    throw error;
  }
}
