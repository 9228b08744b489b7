/**
 * Opens the service database named by `DATABASE_URL` (decisions.md section 8): an SQLite file path (WAL,
 * foreign keys on, 5 s busy timeout). Everything dialect-specific the queries need lives in `Dialect`, so a
 * second database adds one implementation here rather than a rewrite of the queries.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { type Expression, Kysely, type RawBuilder, type SqlBool, SqliteDialect, sql } from 'kysely';
import type { Database } from './schema';

/** The few places where SQL differs between databases. */
export interface Dialect {
  name: 'sqlite' | 'postgres';
  /** Case-insensitive LIKE with `\` as the escape character. */
  ilike(column: Expression<unknown>, pattern: string): RawBuilder<SqlBool>;
  /** A boolean as the column stores it. */
  bool(value: boolean): number | boolean;
  /** True when `error` is a unique-constraint violation. */
  isUniqueViolation(error: unknown): boolean;
}

export interface ServiceDatabase {
  db: Kysely<Database>;
  dialect: Dialect;
  /** A separate read-only connection for long reads (exports), so they never hold up the main one. */
  openReader(): { db: Kysely<Database>; close(): Promise<void> };
  close(): Promise<void>;
}

const sqliteDialect: Dialect = {
  name: 'sqlite',
  ilike: (column, pattern) => sql<SqlBool>`${column} like ${pattern} escape '\\'`,
  bool: (value) => (value ? 1 : 0),
  isUniqueViolation: (error) =>
    typeof error === 'object' && error !== null && (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE',
};

function openSqlite(file: string, readonly = false): SQLite.Database {
  const database = new SQLite(file, { readonly, fileMustExist: readonly });
  if (!readonly) database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  database.pragma('cache_size = -65536');
  return database;
}

/**
 * Opens (creating when missing) the database at `url`. Throws for a URL it cannot serve
 * (`postgres://` until the PostgreSQL issue lands) or a file it cannot open.
 */
export function openDatabase(url: string): ServiceDatabase {
  if (/^postgres(ql)?:\/\//.test(url)) {
    throw new Error('DATABASE_URL: PostgreSQL is not supported yet; use an SQLite file path');
  }
  const file = url === ':memory:' ? url : resolve(url.replace(/^sqlite:(\/\/)?/, ''));
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: openSqlite(file) }) });
  return {
    db,
    dialect: sqliteDialect,
    openReader() {
      const reader = new Kysely<Database>({ dialect: new SqliteDialect({ database: openSqlite(file, true) }) });
      return { db: reader, close: () => reader.destroy() };
    },
    close: () => db.destroy(),
  };
}
