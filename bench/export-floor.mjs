/**
 * The floor of a CSV export (issue 16): the plainest program that answers the same export as the service, run by
 * bench:api as a child process beside it, so `ours / floor` is measured in the same run on the same file.
 *
 * A bare `node:http` server on 127.0.0.1 (port from `EXPORT_FLOOR_PORT`, 0 for any; it prints `listening <port>`
 * on stdout once ready). Every GET answers the CSV of the rows of one query: `EXPORT_FLOOR_SQL` (SQL text) with
 * `EXPORT_FLOOR_PARAMS` (a JSON array) on `EXPORT_FLOOR_DATABASE`, an SQLite file (read-only connection,
 * better-sqlite3 `.raw().iterate()`, the same 8 MiB page cache as the service's export connection) or a
 * `postgres://` URL (a pg cursor in array mode, 1,000 rows a read, as the service). No framework, no
 * authentication, no streams library: each row's 13 values are turned into one CSV line right there (tags from
 * their JSON text joined by `, `; the formula guard of docs/decisions.md section 7 revised; RFC 4180 quoting; CRLF),
 * each batch of 1,000 lines (about 230 KB) is written to the socket as one string, waiting for 'drain' when the
 * socket is full.
 *
 * The bench checks that its bytes equal the service's (same BOM, header, quoting, guard, rows), so the comparison
 * is fair. Plain JavaScript so it runs without a build or a loader; it imports only the database drivers.
 */
import { createServer } from 'node:http';
import { once } from 'node:events';

const HEADER = ['id', 'name', 'email', 'phone', 'state', 'tags', 'source', 'address', 'city', 'postalCode', 'region', 'created', 'updated'];
const PHONE = 3;
const TAGS = 5;
const FORMULA_START = /^[=+\-@\t\r]/;
const INTERNATIONAL_PHONE = /^\+(?=[^\d]*\d)[\d ()./-]+$/;
const NEEDS_QUOTES = /[",\r\n]/;

function cell(value, index) {
  let text;
  if (index === TAGS) {
    text = '';
    if (typeof value === 'string') {
      try {
        const tags = JSON.parse(value);
        if (Array.isArray(tags)) text = tags.filter((tag) => typeof tag === 'string').join(', ');
      } catch {}
    }
  } else text = value === null || value === undefined ? '' : String(value);
  if (text === '') return '';
  if (FORMULA_START.test(text) && !(index === PHONE && INTERNATIONAL_PHONE.test(text))) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function line(row) {
  let out = cell(row[0], 0);
  for (let i = 1; i < row.length; i++) out += `,${cell(row[i], i)}`;
  return `${out}\r\n`;
}

/** Batches of rows (arrays) of the query, read on a connection of their own. */
async function* sqliteRows(file, text, params) {
  const { default: SQLite } = await import('better-sqlite3');
  const database = new SQLite(file, { readonly: true, fileMustExist: true });
  database.pragma('cache_size = -8192');
  try {
    const rows = database.prepare(text).raw().iterate(...params);
    let batch = [];
    for (const row of rows) {
      batch.push(row);
      if (batch.length === 1000) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  } finally {
    database.close();
  }
}

async function* postgresRows(url, text, params) {
  const { default: pg } = await import('pg');
  const { default: Cursor } = await import('pg-cursor');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const cursor = client.query(new Cursor(text, params, { rowMode: 'array' }));
    for (let rows = await cursor.read(1000); rows.length; rows = await cursor.read(1000)) yield rows;
    await cursor.close();
  } finally {
    await client.end();
  }
}

const database = process.env.EXPORT_FLOOR_DATABASE ?? '';
const text = process.env.EXPORT_FLOOR_SQL ?? '';
const params = JSON.parse(process.env.EXPORT_FLOOR_PARAMS ?? '[]');
if (!database || !text) throw new Error('EXPORT_FLOOR_DATABASE and EXPORT_FLOOR_SQL are required');
const rowsOf = /^postgres(ql)?:\/\//.test(database) ? postgresRows : sqliteRows;

const server = createServer(async (request, response) => {
  response.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
  let chunk = `\uFEFF${HEADER.join(',')}\r\n`;
  try {
    for await (const batch of rowsOf(database, text, params)) {
      for (const row of batch) chunk += line(row);
      const more = response.write(chunk);
      chunk = '';
      if (!more) await Promise.race([once(response, 'drain'), once(response, 'close')]);
      if (response.destroyed) break;
    }
    response.end(chunk);
  } catch (error) {
    process.stderr.write(`export floor: ${error instanceof Error ? error.stack : String(error)}\n`);
    response.destroy();
  }
});
server.listen(Number(process.env.EXPORT_FLOOR_PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
