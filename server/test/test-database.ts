/**
 * The database a test runs on (issue 8: one suite, two database targets). `TEST_DATABASE=postgres` (the vitest
 * project `postgres`) gives each call a fresh PostgreSQL database on the server of `TEST_POSTGRES_URL`
 * (default `postgres://postgres:postgres@127.0.0.1:5432/postgres`), dropped afterwards; otherwise a new SQLite
 * file in `dir`. Throws a message saying what to do when PostgreSQL is asked for and cannot be reached.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { openMigratedDatabase } from '../database';

export const TEST_DATABASE: 'sqlite' | 'postgres' = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

export type TestDatabase = { url: string; drop(): Promise<void> };

/** Runs `statement` on the PostgreSQL server's maintenance database; resolves with the rows it returns. */
export async function onPostgresServer<Row = Record<string, unknown>>(statement: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `TEST_DATABASE=postgres, but PostgreSQL is not reachable at ${TEST_POSTGRES_URL} (${(error as Error).message}). ` +
        'Start it (`pg_ctlcluster 15 main start`, as .ci/run does), point TEST_POSTGRES_URL at one, or run the SQLite target alone: `npx vitest run --project sqlite`.',
    );
  }
  try {
    return (await client.query(statement)).rows as Row[];
  } finally {
    await client.end();
  }
}

/** A fresh, empty database for one test file (or one server of it). */
export async function createTestDatabase(dir: string, name = 'app'): Promise<TestDatabase> {
  if (TEST_DATABASE === 'sqlite') return { url: join(dir, `${name}.sqlite`), drop: async () => {} };
  const database = `wsa_test_${randomBytes(6).toString('hex')}`;
  await onPostgresServer(`create database ${database}`);
  return postgresTestDatabase(database);
}

/** Database `name` on the PostgreSQL server of `TEST_POSTGRES_URL`, as a `TestDatabase` whose `drop` drops it. */
function postgresTestDatabase(name: string): TestDatabase {
  return { url: postgresUrl(name), drop: async () => void (await onPostgresServer(`drop database if exists ${name} with (force)`)) };
}

/** The URL of database `name` on the PostgreSQL server of `TEST_POSTGRES_URL`. */
function postgresUrl(name: string): string {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

let template: Promise<string> | undefined;

/**
 * On PostgreSQL, a database migrated once per test process (a vitest worker runs file after file), the template every
 * `createMigratedTestDatabase` copies. Its name carries the process id (`wsa_template_<pid>_<hex>`), by which
 * `dropStaleTemplates` finds those left behind.
 */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    await dropStaleTemplates();
    const name = `wsa_template_${process.pid}_${randomBytes(4).toString('hex')}`;
    await onPostgresServer(`create database ${name}`);
    const database = await openMigratedDatabase(postgresUrl(name));
    await database.close();
    return name;
  })();
  return template;
}

/**
 * Drops the templates (`migratedTemplate`) of test processes no longer running: called when a process makes its own
 * and after the PostgreSQL project's run (server/test/postgres-global-setup.ts).
 */
export async function dropStaleTemplates(): Promise<void> {
  const templates = await onPostgresServer<{ datname: string }>("select datname from pg_database where datname like 'wsa\\_template\\_%'");
  for (const { datname } of templates) {
    if (!isRunning(Number(datname.split('_')[2]))) await onPostgresServer(`drop database if exists ${datname} with (force)`);
  }
}

/** Whether a process with id `pid` runs on this machine. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A fresh database for one test file (or one server of it) with every migration applied: on PostgreSQL a copy of
 * this process's migrated template (`create database ... template`: 120 to 210 ms to a database opened and
 * migrated, against 210 to 380 ms for an empty one migrated anew, measured alternately on this machine), on
 * SQLite a new file in `dir` that `openMigratedDatabase` migrates (a few milliseconds). For tests of the
 * migrations themselves, `createTestDatabase` gives an empty one.
 */
export async function createMigratedTestDatabase(dir: string, name = 'app'): Promise<TestDatabase> {
  if (TEST_DATABASE === 'sqlite') return createTestDatabase(dir, name);
  const source = await migratedTemplate();
  const database = `wsa_test_${randomBytes(6).toString('hex')}`;
  await onPostgresServer(`create database ${database} template ${source}`);
  return postgresTestDatabase(database);
}
