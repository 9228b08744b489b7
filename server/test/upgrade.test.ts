/**
 * Upgrades (issue 37 point 2).
 * - A database written by the code as it was before issue 37 (test/fixtures/db-2026-11-28.sqlite, made by
 *   commit 7388bd2 with every migration of that day, one workspace and six contacts; the contacts it served then
 *   are in db-2026-11-28.json) starts on this code, as `npm start` runs it (started-service.ts), migrates, and
 *   serves the same contacts, its kept counts (migration 0010) filled from the rows it had.
 * - A migration that fails leaves the database as the migrations before it left it (each in a transaction,
 *   server/db/migrations.ts `migrateToLatest`), and the service refuses to start with one line naming it. The
 *   failure is made from outside: an index named `posts_ws_created` already in the file makes `0007-extensions`
 *   fail at its last statements, after it created `idempotency_keys` and added `posts.action`, which must not
 *   remain. On PostgreSQL the same is checked in process with an injected failing migration.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { START_NODE_FLAGS } from '../../scripts/node-flags.mjs';
import { openDatabase } from '../db/connection';
import { MIGRATION_NAMES, MigrationError, migrateToLatest, migrationsOf } from '../db/migrations';
import { buildService, startService } from './started-service';
import { TEST_DATABASE, type TestDatabase, createTestDatabase } from './test-database';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURE = join(ROOT, 'test/fixtures/db-2026-11-28.sqlite');
const EXPECTED = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/db-2026-11-28.json'), 'utf8')) as { key: string; contacts: unknown[] };

describe.skipIf(TEST_DATABASE !== 'sqlite')('upgrading an SQLite database made before issue 37, in the process npm start runs', () => {
  let service: Awaited<ReturnType<typeof buildService>>;
  let dir: string;
  beforeAll(async () => {
    service = await buildService();
    dir = mkdtempSync(join(tmpdir(), 'wsa-upgrade-'));
  }, 90_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('starts on a copy of the fixture, migrates it and serves the same contacts', async () => {
    const file = join(dir, 'fixture-copy.sqlite');
    copyFileSync(FIXTURE, file);
    const started = await startService(service.entry, { DATABASE_URL: file, DEMO_SEED: 'off' });
    try {
      const response = await fetch(`${started.origin}/api/contacts?%24limit=10`, { headers: { 'x-api-key': EXPECTED.key } });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { items: unknown[] }).items).toEqual(EXPECTED.contacts);
    } finally {
      await started.stop();
    }
    const database = new SQLite(file, { readonly: true });
    const applied = database.prepare('select name from kysely_migration order by name').pluck().all();
    expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
    // Migrations 0010 and 0011 filled the kept counts from the rows already there (a tag's contacts per state).
    const kept = database.prepare('select workspace_id, kind, name, n from contact_counts order by 1, 2, 3').all();
    const scanned = database
      .prepare(
        `select * from (select workspace_id, 'state' as kind, state as name, count(*) as n from contacts group by 1, 3
          union all select workspace_id, 'day', substr(created, 1, 10), count(*) from contacts group by 1, 3
          union all select t.workspace_id, 'tag:' || c.state, t.tag, count(*) from contact_tags t join contacts c on c.id = t.contact_id group by 1, 2, 3)
          order by 1, 2, 3`,
      )
      .all();
    database.close();
    expect(applied).toEqual([...MIGRATION_NAMES]);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(scanned);
  }, 90_000);

  it('refuses to start when a migration fails, naming it, and leaves that migration undone', async () => {
    const file = join(dir, 'conflict.sqlite');
    const prepared = new SQLite(file);
    prepared.exec('create table squatter (x text); create index posts_ws_created on squatter (x);');
    prepared.close();
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((done) => {
      const child = spawn(process.execPath, [...(START_NODE_FLAGS as string[]), service.entry], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', HOST: '127.0.0.1', DATABASE_URL: file, DEMO_SEED: 'off' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.on('exit', (exitCode) => done({ code: exitCode, stderr: err }));
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Workspace Admin cannot start: migration 0007-extensions failed and was rolled back: .*posts_ws_created/m);
    const database = new SQLite(file, { readonly: true });
    const applied = database.prepare('select name from kysely_migration order by name').pluck().all();
    const tables = database.prepare("select name from sqlite_master where name = 'idempotency_keys'").pluck().all();
    const postColumns = database.prepare("select name from pragma_table_info('posts')").pluck().all();
    database.close();
    expect(applied).toEqual(MIGRATION_NAMES.slice(0, MIGRATION_NAMES.indexOf('0007-extensions')));
    expect(tables).toEqual([]);
    expect(postColumns).not.toContain('action');
  }, 90_000);
});

describe('a failing migration, injected (issue 37 point 2)', () => {
  let target: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wsa-upgrade-inject-'));
    target = await createTestDatabase(dir);
  });
  afterAll(async () => {
    await target?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('rolls back what it did and throws a MigrationError naming it, the migrations before it kept', async () => {
    const database = openDatabase(target.url);
    try {
      await migrateToLatest(database.db, database.dialect);
      const failing = {
        ...migrationsOf(database.dialect),
        '9999-test-failing': {
          async up(db: Kysely<any>) {
            await db.schema.createTable('half_made').addColumn('id', 'integer').execute();
            await sql`insert into half_made (id) values (1)`.execute(db);
            throw new Error('injected failure');
          },
        },
      };
      const error = await migrateToLatest(database.db, database.dialect, failing).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MigrationError);
      expect((error as MigrationError).migration).toBe('9999-test-failing');
      expect((error as Error).message).toBe('migration 9999-test-failing failed and was rolled back: injected failure');
      const tables = await database.db.introspection.getTables();
      expect(tables.map((table) => table.name)).not.toContain('half_made');
      const applied = await database.db.selectFrom('kysely_migration' as never).select('name' as never).execute();
      expect(applied.map((row) => (row as { name: string }).name).sort()).toEqual([...MIGRATION_NAMES].sort());
    } finally {
      await database.close();
    }
  });
});
