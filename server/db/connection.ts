/**
 * Opens the service database named by `DATABASE_URL` (docs/decisions.md section 8): an SQLite file path (WAL,
 * foreign keys on, 5 s busy timeout, every transaction `begin immediate`: issue 12) or a `postgres://` URL (issue 8: a pg pool of `PG_POOL_MAX` connections,
 * default 10, with server-side cursors for streamed reads). Everything dialect-specific the queries and
 * migrations need lives in `Dialect`: the rest of server/db is the same for both databases.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  type Compilable,
  CompiledQuery,
  type DatabaseConnection,
  type Expression,
  Kysely,
  type KyselyConfig,
  PostgresDialect,
  type RawBuilder,
  type SqlBool,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
} from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { SAFETY_PAGES, checkpointCaughtUp, holdCheckpoints } from './checkpointer';
import { spool, take } from './spool';
import { yieldToOthers } from './timed-chunks';
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
  /** A text column holding JSON (or null), embedded as JSON in a `jsonObject`. Fails the query on a bad value. */
  jsonColumn(column: string): RawBuilder<unknown>;
  /**
   * `jsonColumn` that cannot fail: null (or `[]` with `empty` `array`) when the value is null, not valid JSON, or
   * nested deeper than the database's JSON functions go (SQLite stops at 1,000 levels: `json_valid` answers 0
   * where `json()` throws `malformed JSON`; PostgreSQL's parser at its stack limit). Costs a second parse per
   * value on SQLite and a PL/pgSQL call with an exception block on PostgreSQL (`json_or_null`, migration 0005):
   * queries use it only after `jsonColumn` failed (issue 12: one bad row failed every page holding it).
   */
  safeJsonColumn(column: string, empty?: 'array'): RawBuilder<unknown>;
  /** True when `error` is the database refusing a stored value as JSON (what `safeJsonColumn` would survive). */
  isJsonError(error: unknown): boolean;
  /** A 0/1 integer column as a JSON boolean in a `jsonObject`. */
  jsonBoolean(column: string): RawBuilder<unknown>;
  /** The column type of text in migrations: compared and sorted byte by byte (binary) on both databases. */
  text: RawBuilder<unknown>;
  /** In an index definition after an ascending column: nulls first, as SQLite always sorts them. */
  indexNullsFirst: RawBuilder<unknown>;
  /** True when OFFSET needs a LIMIT beside it (SQLite: `limit -1` means none). */
  offsetNeedsLimit: boolean;
  /**
   * `query` locking the rows it reads until the transaction ends (PostgreSQL `FOR UPDATE`), for a
   * read-then-write on one record (issue 12 point 2). SQLite: `query` as it is, every transaction there holding
   * the database's write lock from its first statement (`begin immediate`, `openDatabase`).
   */
  forUpdate<Query extends { forUpdate(): Query }>(query: Query): Query;
  /**
   * What a long job written in chunks awaits between two of them: the event loop's other work, and on an SQLite file
   * first the checkpoint worker's copy of the WAL (`checkpointCaughtUp`, server/db/checkpointer.ts), so the next
   * chunk starts the WAL over and no commit runs SQLite's own checkpoint while other writers wait.
   */
  betweenChunks(): Promise<void>;
  /**
   * A statement that makes the transaction running it wait for, then hold until it ends, the lock named `name`
   * (PostgreSQL: a transaction-level advisory lock on a 64-bit hash of `name`), so transactions taking the same
   * name run one after the other, across processes. Null on SQLite, where transactions already do
   * (`begin immediate`). For writes whose conflict no single row can lock, such as two new products taking the
   * same handle (issue 12 point 2).
   */
  transactionLock(name: string): RawBuilder<unknown> | null;
}

const jsonPairs = (fields: Record<string, Expression<unknown>>) => sql.join(Object.entries(fields).map(([key, value]) => sql`${sql.lit(key)}, ${value}`));

/** `ServiceDatabase.streamRows`' options. */
export type StreamOptions<T> = { chunkSize?: number; spoolAfterMs?: number; map?: (rows: unknown[][]) => T };
/** `streamRows`' map when none is given: the rows themselves (`T` is then its default, `unknown[][]`). */
const mapOf = <T>(options: StreamOptions<T>) => options.map ?? ((rows: unknown[][]) => rows as T);

export interface ServiceDatabase {
  db: Kysely<Database>;
  dialect: Dialect;
  /**
   * The rows of `query` as arrays of column values (in its select order), `chunkSize` rows at a time (1,000), read on
   * a connection of its own so a long read (an export) never holds up the others: SQLite opens a read-only
   * connection with a small page cache, PostgreSQL a server-side cursor on a pooled connection. Stop iterating
   * (`break`, `return`) to end the read early; the connection is released either way. With `spoolAfterMs`, an
   * SQLite read still going after that long is read to its end into a temporary file and its snapshot let go
   * (server/db/spool.ts: a read held for minutes keeps the WAL from starting over); PostgreSQL ignores it. With
   * `map`, each chunk is handed out as `map(chunk)`, called once a chunk in the read's order as the chunk is read
   * (so before it is spooled: a chunk mapped to a string is spooled as that text, which costs a fraction of spooling
   * the rows, docs/benchmarks.md "Ten million contacts on SQLite, a second run").
   */
  streamRows<T = unknown[][]>(query: CompiledQuery, options?: StreamOptions<T>): AsyncGenerator<T>;
  /**
   * PostgreSQL only (absent on SQLite): `LISTEN channel` on a connection of its own, outside the pool. Each
   * notification's payload goes to `onNotify`. A lost connection is opened again after `retryMs` (1 s), and
   * `onConnect` is called on every (re)connection, the first included, so a listener can catch up on what it missed
   * while deaf. Resolves once the first connection listens (rejects when it cannot); the returned function stops.
   */
  listen?(channel: string, onNotify: (payload: string) => void, onConnect: () => void, retryMs?: number): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const sqliteDialect: Dialect = {
  name: 'sqlite',
  betweenChunks: yieldToOthers,
  ilike: (column, pattern) => sql<SqlBool>`${column} like ${pattern} escape '\\'`,
  bool: (value) => (value ? 1 : 0),
  isUniqueViolation: (error) =>
    typeof error === 'object' && error !== null && (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE',
  jsonObject: (fields) => sql`json_object(${jsonPairs(fields)})`,
  jsonText: (json) => sql<string>`${json}`,
  jsonColumn: (column) => sql`json(${sql.ref(column)})`,
  // CASE evaluates lazily: json(), which throws on what json_valid refuses, never sees it.
  safeJsonColumn: (column, empty) => {
    const value = sql`case when json_valid(${sql.ref(column)}) then json(${sql.ref(column)}) end`;
    return empty === 'array' ? sql`coalesce(${value}, json_array())` : value;
  },
  // `malformed JSON`, `JSON cannot hold BLOB values`, ...: SQLite's JSON functions' errors all name JSON.
  isJsonError: (error) => error instanceof Error && (error as { code?: string }).code === 'SQLITE_ERROR' && /JSON/.test(error.message),
  jsonBoolean: (column) => sql`iif(${sql.ref(column)}, json('true'), json('false'))`,
  text: sql`text`,
  indexNullsFirst: sql``,
  offsetNeedsLimit: true,
  forUpdate: (query) => query,
  transactionLock: () => null,
};

const postgresDialect: Dialect = {
  name: 'postgres',
  betweenChunks: yieldToOthers,
  ilike: (column, pattern) => sql<SqlBool>`${column} ilike ${pattern} escape '\\'`,
  bool: (value) => (value ? 1 : 0),
  isUniqueViolation: (error) => typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505',
  jsonObject: (fields) => sql`json_build_object(${jsonPairs(fields)})`,
  jsonText: (json) => sql<string>`(${json})::text`,
  jsonColumn: (column) => sql`${sql.ref(column)}::json`,
  // json_or_null: migration 0005, a cast that answers null instead of throwing.
  safeJsonColumn: (column, empty) => {
    const value = sql`json_or_null(${sql.ref(column)})`;
    return empty === 'array' ? sql`coalesce(${value}, '[]'::json)` : value;
  },
  // 22P02 invalid input syntax for type json (and the other data exceptions of class 22), 54001 stack depth
  // limit exceeded (a value nested past the parser's stack).
  isJsonError: (error) => {
    const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    return typeof code === 'string' && (code.startsWith('22') || code === '54001');
  },
  jsonBoolean: (column) => sql`(${sql.ref(column)} <> 0)`,
  // SQLite compares text as bytes; "C" does the same here whatever the database's locale, `lower()` and
  // `ilike` included (ASCII case folding on both).
  text: sql`text collate "C"`,
  indexNullsFirst: sql`nulls first`,
  offsetNeedsLimit: false,
  forUpdate: (query) => query.forUpdate(),
  transactionLock: (name) => sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`,
};

/**
 * `query` compiled once; the returned function gives it again with new parameter values (as many, in the same
 * order, as when compiled) for `db.executeQuery`. For the queries run on every request (the API key, the count
 * version): building and compiling them cost more than running them (issue 2 benchmark).
 */
export function precompiled<Row>(query: Compilable<Row>): (...parameters: unknown[]) => CompiledQuery<Row> {
  const { sql: text } = query.compile();
  return (...parameters) => CompiledQuery.raw(text, parameters) as CompiledQuery<Row>;
}

/**
 * With `SQL_TRACE_FILE` set (the API benchmark's floor, issue 16: never in production), every statement run through
 * Kysely is appended to that file as one JSON line `{ "sql", "parameters" }`, so a bare server can run exactly the
 * same statements; undefined (no logging, no cost) otherwise.
 */
function sqlTrace(): KyselyConfig['log'] {
  const file = process.env.SQL_TRACE_FILE;
  if (!file) return undefined;
  return (event) => appendFileSync(file, `${JSON.stringify({ sql: event.query.sql, parameters: event.query.parameters })}\n`);
}

/** True for a `postgres://` or `postgresql://` URL. */
export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//.test(url);

/**
 * The SQLite file a `DATABASE_URL` that is not PostgreSQL names, as an absolute path (`sqlite:` or `sqlite://`
 * prefix dropped), or `:memory:`.
 */
export const sqliteFile = (url: string) => (url === ':memory:' ? url : resolve(url.replace(/^sqlite:(\/\/)?/, '')));

function openPostgres(url: string): ServiceDatabase {
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.PG_POOL_MAX) || 10 });
  // An idle client losing its connection (a restarted database) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool, cursor: Cursor }), log: sqlTrace() });
  return {
    db,
    dialect: { ...postgresDialect, betweenChunks: cleaningPendingListsEvery(CLEAN_PENDING_EVERY, db) },
    async *streamRows<T>(query: CompiledQuery, options: StreamOptions<T> = {}) {
      const { chunkSize = 1000 } = options;
      const map = mapOf(options);
      const client = await pool.connect();
      const cursor = client.query(new Cursor(query.sql, [...query.parameters], { rowMode: 'array' }));
      try {
        for (let rows = await cursor.read(chunkSize); rows.length; rows = await cursor.read(chunkSize)) yield map(rows as unknown[][]);
      } finally {
        await cursor.close().catch(() => {});
        client.release();
      }
    },
    listen: (channel, onNotify, onConnect, retryMs = 1000) => listenPostgres(url, channel, onNotify, onConnect, retryMs),
    close: () => db.destroy(),
  };
}

/**
 * Chunks of a long job between two cleanings of the GIN pending lists of `contacts` (`Dialect.betweenChunks` on
 * PostgreSQL). Each write into a GIN index (the five trigram indexes of search, issue 13) goes to the index's pending
 * list, and the write that fills it (4 MB) merges it into the index inside its own statement: in a bulk tag request
 * that was one chunk in some 70 taking 300 to 380 ms instead of 40, while every other writer waited for it behind the
 * workspace lock (docs/benchmarks.md, "Why PostgreSQL's tags request is 35 to 44 s, and its spikes"). Merged here,
 * every fourth chunk and outside any transaction, no chunk meets a full list: bench:batches' other writer's longest
 * answer 218 -> 131 ms (45 -> 4 over 100 ms) for 100,036 contacts, at 40.1 -> 57.2 s for the request (merging small
 * lists often costs more than a full one now and then; every eighth chunk: 205 ms, 53.3 s). `gin_clean_pending_list`
 * needs the index's owner, which the service is (its migrations made them); refused, it is skipped.
 */
const CLEAN_PENDING_EVERY = 4;

/** `Dialect.betweenChunks` on PostgreSQL: every `every`th call first merges the pending lists of contacts' GIN indexes. */
function cleaningPendingListsEvery(every: number, db: Kysely<Database>): () => Promise<void> {
  let calls = 0;
  return async () => {
    if (++calls % every === 0) await mergePendingLists(db).catch(() => undefined);
    await yieldToOthers();
  };
}

/**
 * Merges the pending lists of every GIN index of `contacts` into their indexes (PostgreSQL's `gin_clean_pending_list`);
 * resolves to the pending-list pages it moved, 0 when they were empty. Rejects with PostgreSQL's error for a role that
 * does not own the indexes.
 */
export async function mergePendingLists(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ pages: string | number }>`select gin_clean_pending_list(i.indexrelid) as pages from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am a on a.oid = c.relam where a.amname = 'gin' and i.indrelid = 'contacts'::regclass`.execute(db);
  return rows.reduce((sum, row) => sum + Number(row.pages), 0);
}

/**
 * `ServiceDatabase.listen` on PostgreSQL: a dedicated pg.Client, connected again `retryMs` after it is lost (or
 * after a connection attempt fails, the first included: the service starts while PostgreSQL is briefly away).
 */
async function listenPostgres(url: string, channel: string, onNotify: (payload: string) => void, onConnect: () => void, retryMs: number): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    const lost = () => {
      if (client !== next) return;
      client = null;
      next.end().catch(() => {});
      if (!stopped) retry = setTimeout(() => void connect(), retryMs);
    };
    client = next;
    next.on('error', lost);
    next.on('end', lost);
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload ?? '');
    });
    try {
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch {
      lost();
      return;
    }
    if (client === next) onConnect();
  };
  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const last = client;
    client = null;
    await last?.end().catch(() => {});
  };
}

/**
 * A connection to `file`: the main one with a 16 MiB page cache, a read-only one (streams) with 8 MiB. The
 * operating system caches the file too; a bigger cache here mostly grew the process (issue 2: peak RSS).
 */
function openSqlite(file: string, readonly = false): SQLite.Database {
  const database = new SQLite(file, { readonly, fileMustExist: readonly });
  if (!readonly) {
    database.pragma('journal_mode = WAL');
    // The checkpoint worker (server/db/checkpointer.ts) does the checkpoints; this connection's own only bound the WAL.
    database.pragma(`wal_autocheckpoint = ${SAFETY_PAGES}`);
    // A WAL that grew while readers held old snapshots (checkpoint starvation: long exports) is cut back to 64 MiB when
    // it restarts, instead of keeping its largest size on disk (and telling the search index's upkeep it is large).
    database.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
  }
  database.pragma('foreign_keys = ON');
  // Erased cells and freed pages are overwritten with zeros (docs/decisions.md section 10: erasure that erases).
  if (!readonly) database.pragma('secure_delete = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  database.pragma(readonly ? 'cache_size = -8192' : 'cache_size = -16384');
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
 * Kysely's SQLite driver with every transaction started by `begin immediate`: it takes the database's write lock
 * first (waiting up to the busy timeout for another process to release it), so what a transaction reads stays
 * true until it commits. With the default deferred `begin`, two processes on one file could both read, and the
 * second to write failed at once with SQLITE_BUSY (a 500), since its snapshot was stale (issue 12 point 2).
 * Every transaction of the service writes, so none waits needlessly; reads outside transactions never wait (WAL).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.settings);
  }
}

/**
 * Chunks of a long job between two waits for the checkpoint worker to catch up (`Dialect.betweenChunks`). The worker
 * copies the WAL every 100 ms beside the writes, so a wait is for the little it has not copied yet; a wait after
 * every chunk made `POST /contacts/tags` over 100,036 contacts take 26.3 s instead of 19.2 to 19.8 (waiting for
 * each chunk's whole copy), and eight chunks (some 400 to 1,500 pages each) stay well under `SAFETY_PAGES`.
 */
const CATCH_UP_EVERY = 8;

/** `Dialect.betweenChunks` for the SQLite file `file`: every `every`th call first awaits `checkpointCaughtUp`. */
function catchingUpEvery(every: number, file: string): () => Promise<void> {
  let calls = 0;
  return async () => {
    if (++calls % every === 0) await checkpointCaughtUp(file);
    await yieldToOthers();
  };
}

/**
 * Opens the database at `url` (an SQLite file is created when missing). Throws for a file it cannot open; a
 * PostgreSQL server that cannot be reached fails the first query.
 */
export function openDatabase(url: string): ServiceDatabase {
  if (isPostgresUrl(url)) return openPostgres(url);
  const file = sqliteFile(url);
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const main = openSqlite(file);
  // Checkpoints run in a worker thread (server/db/checkpointer.ts); an in-memory database has no WAL.
  const releaseCheckpoints = file === ':memory:' ? async () => {} : holdCheckpoints(file);
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(main) }), log: sqlTrace() });
  return {
    db,
    dialect: file === ':memory:' ? sqliteDialect : { ...sqliteDialect, betweenChunks: catchingUpEvery(CATCH_UP_EVERY, file) },
    async *streamRows<T>(query: CompiledQuery, options: StreamOptions<T> = {}) {
      const { chunkSize = 1000, spoolAfterMs } = options;
      const map = mapOf(options);
      // An in-memory database has nothing to open a second connection to (nor a WAL to keep short).
      const reader = file === ':memory:' ? main : openSqlite(file, true);
      const statement = reader.prepare(query.sql).raw();
      const rows = statement.iterate(...query.parameters) as IterableIterator<unknown[]>;
      let reading = true;
      const release = () => {
        if (!reading) return;
        reading = false;
        rows.return?.();
        if (reader !== main) reader.close();
      };
      try {
        const started = performance.now();
        for (;;) {
          const chunk = take(rows, chunkSize);
          if (chunk.length < chunkSize) {
            if (chunk.length) yield map(chunk);
            return;
          }
          // Spooling starts before this chunk is handed out, so it goes on while the consumer works on it.
          if (spoolAfterMs !== undefined && reader !== main && performance.now() - started >= spoolAfterMs) {
            yield* spool(rows, chunkSize, release, map, [map(chunk)]);
            return;
          }
          yield map(chunk);
          // Pending I/O (the HTTP response being written) runs between two chunks of the synchronous read.
          await yieldToOthers();
        }
      } finally {
        release();
      }
    },
    close: async () => {
      await releaseCheckpoints();
      await db.destroy();
    },
  };
}
