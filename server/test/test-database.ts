/**
 * The database a test runs on (issue 8: one suite, two database targets). `TEST_DATABASE=postgres` (the vitest
 * project `postgres`) gives each call a fresh PostgreSQL database on the server of `TEST_POSTGRES_URL`
 * (default `postgres://postgres:postgres@127.0.0.1:5432/postgres`), dropped afterwards; otherwise a new SQLite
 * file in `dir`. Throws a message saying what to do when PostgreSQL is asked for and cannot be reached.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';

export const TEST_DATABASE: 'sqlite' | 'postgres' = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

export type TestDatabase = { url: string; drop(): Promise<void> };

/** Runs `statement` on the PostgreSQL server's maintenance database. */
export async function onPostgresServer(statement: string): Promise<void> {
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
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database for one test file (or one server of it). */
export async function createTestDatabase(dir: string, name = 'app'): Promise<TestDatabase> {
  if (TEST_DATABASE === 'sqlite') return { url: join(dir, `${name}.sqlite`), drop: async () => {} };
  const database = `wsa_test_${randomBytes(6).toString('hex')}`;
  await onPostgresServer(`create database ${database}`);
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${database}`;
  return { url: url.toString(), drop: () => onPostgresServer(`drop database if exists ${database} with (force)`) };
}
