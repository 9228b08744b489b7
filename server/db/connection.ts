/**
 * Opens the service database named by `DATABASE_URL` (decisions.md section 8): an SQLite file path (WAL,
 * foreign keys on, 5 s busy timeout). Everything dialect-specific the queries need lives in `Dialect`, so a
 * second database adds one implementation here rather than a rewrite of the queries.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { type Expression, Kysely, type RawBuilder, type SqlBool, type SqliteDatabase, SqliteDialect, sql } from 'kysely';
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
  /**
   * A JSON object built by the database from `fields` (keys are our own identifiers, never input). Nest freely;
   * wrap the outermost in `jsonText`. Rows that come out already serialized cost a fraction of row objects
   * serialized again in JavaScript (issue 2 benchmark: about 0.2 ms instead of 0.8 ms for 50 contacts).
   */
  jsonObject(fields: Record<string, Expression<unknown>>): RawBuilder<unknown>;
  /** `jsonObject`'s result as text (what the driver hands back as a string). */
  jsonText(json: RawBuilder<unknown>): RawBuilder<string>;
  /** A text column holding JSON (or null), embedded as JSON in a `jsonObject`. */
  jsonColumn(column: string): RawBuilder<unknown>;
  /** A 0/1 integer column as a JSON boolean in a `jsonObject`. */
  jsonBoolean(column: string): RawBuilder<unknown>;
}

const jsonPairs = (fields: Record<string, Expression<unknown>>) => sql.join(Object.entries(fields).map(([key, value]) => sql`${sql.lit(key)}, ${value}`));

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
  jsonObject: (fields) => sql`json_object(${jsonPairs(fields)})`,
  jsonText: (json) => sql<string>`${json}`,
  jsonColumn: (column) => sql`json(${sql.ref(column)})`,
  jsonBoolean: (column) => sql`iif(${sql.ref(column)}, json('true'), json('false'))`,
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
 * `database` as Kysely sees it, with each statement prepared once per SQL text and kept (least recently used
 * out beyond `size`): preparing costs more than running a page query (issue 2 benchmark). A statement still
 * being iterated (a stream) is never handed out twice; a fresh one is prepared instead.
 */
export function withStatementCache(database: SQLite.Database, size = 200): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(text) {
      const cached = statements.get(text);
      if (cached && !cached.busy) {
        statements.delete(text);
        statements.set(text, cached);
        return cached;
      }
      const statement = database.prepare(text);
      if (cached) return statement;
      statements.set(text, statement);
      if (statements.size > size) statements.delete(statements.keys().next().value as string);
      return statement;
    },
  };
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
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(openSqlite(file)) }) });
  return {
    db,
    dialect: sqliteDialect,
    openReader() {
      const reader = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(openSqlite(file, true), 20) }) });
      return { db: reader, close: () => reader.destroy() };
    },
    close: () => db.destroy(),
  };
}
