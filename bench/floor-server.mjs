/**
 * The floor of the API benchmark (issue 16): a bare `node:http` server that answers the benchmark's list cases
 * by running, for each request, exactly the statements the service ran for the same request (SQL text and
 * parameters recorded from the service through `SQL_TRACE_FILE`, server/db/connection.ts) on the same database,
 * and writing the page as the service writes it: `{"items":[<row json>,...],"meta":{"maxResults":<n>}}`.
 * No framework, no validation, no hooks, no headers beyond Content-Type and Content-Length: what is left is the
 * cost of the SQL, the JSON text and the HTTP write, which the service cannot go below.
 *
 * Plain JavaScript run by plain Node (as the compiled service is), so no loader sits in its way. Environment:
 * `FLOOR_DATABASE_URL` (an SQLite file or a `postgres://` URL), `FLOOR_CASES` (a JSON file: `[{ path, setup,
 * perRequest }]`, where `path` is the request URL with its query string, `setup` the statements to run once at
 * start (the exact count the service caches: the last count among them is the case's) and `perRequest` those run on every request, each
 * `{ sql, parameters }`), `PORT`, `HOST` (127.0.0.1). SQLite is opened as the service opens it (WAL, 16 MiB page
 * cache, statements prepared once); PostgreSQL through a pg pool of 10, statements run one after another.
 * Unknown paths answer 404. Prints `listening` on stdout when ready.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import SQLite from 'better-sqlite3';
import pg from 'pg';

const url = process.env.FLOOR_DATABASE_URL ?? '';
const cases = JSON.parse(readFileSync(process.env.FLOOR_CASES ?? '', 'utf8'));
const postgres = /^postgres(ql)?:\/\//.test(url);

/** Runs one statement: the rows as objects. */
let run;
if (postgres) {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  run = async ({ sql, parameters }) => (await pool.query(sql, parameters)).rows;
} else {
  const database = new SQLite(url.replace(/^sqlite:(\/\/)?/, ''));
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  database.pragma('cache_size = -16384');
  const prepared = new Map();
  run = ({ sql, parameters }) => {
    let statement = prepared.get(sql);
    if (!statement) prepared.set(sql, (statement = database.prepare(sql)));
    return statement.reader ? statement.all(...parameters) : (statement.run(...parameters), []);
  };
}

/**
 * The number a count statement answers: `select count(*) as n ...` (one row), or a read of the kept counts
 * (`contact_counts`, migration 0010: the sum of its rows' `n`, 0 without rows); undefined for any other statement.
 */
const countOf = ({ sql }, rows) => {
  if (/count\(/i.test(sql) && rows.length === 1 && 'n' in rows[0]) return Number(rows[0].n);
  if (/from "contact_counts"/i.test(sql)) return rows.reduce((sum, row) => sum + Number(row.n), 0);
  return undefined;
};

const routes = new Map();
for (const item of cases) {
  let maxResults;
  for (const statement of item.setup) maxResults = countOf(statement, await run(statement)) ?? maxResults;
  routes.set(item.path, { perRequest: item.perRequest, maxResults });
}

async function answer(route) {
  let items = '';
  let maxResults = route.maxResults;
  for (const statement of route.perRequest) {
    const rows = await run(statement);
    if (rows.length && 'json' in rows[0]) items = rows.map((row) => row.json).join(',');
    else maxResults = countOf(statement, rows) ?? maxResults;
  }
  return `{"items":[${items}],"meta":{"maxResults":${maxResults}}}`;
}

const server = createServer((request, response) => {
  const route = routes.get(request.url ?? '');
  if (!route) {
    response.writeHead(404).end();
    return;
  }
  answer(route).then(
    (body) => response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body),
    (error) => response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error?.message ?? error)),
  );
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1', () => process.stdout.write('listening\n'));
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(0));
