/**
 * HEAD (issue 12 points 5 and 11): every route answers HEAD as it answers GET, status and headers, without a
 * body; a path without GET answers the documented 404 (headers only); never a 500. A HEAD of a spreadsheet export
 * answers the download's headers without running the export. Raw sockets, so a body sent after a HEAD answer
 * would be seen. Real server on SQLite or PostgreSQL (harness).
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XLSX_MEDIA_TYPE } from '../../src/api/contacts';
import { type TestServer, call, startServer } from './harness';

let server: TestServer;
let contactId: string;

beforeAll(async () => {
  server = await startServer();
  const created = await call(server, 'POST', '/contacts', { key: server.a.key, body: { name: 'Ann', email: 'ann@example.com', tags: ['vip'] } });
  contactId = created.body.id;
  await call(server, 'POST', '/post-requests', { key: server.a.key, body: { action: 'publish', text: 'Hello' } });
});
afterAll(() => server?.close());

type Raw = { status: number; headers: Record<string, string>; body: string };

/**
 * One request on its own connection, read to the end: the status, headers and every byte after them. `untilHeaders`:
 * read only the head and close the connection (a `GET /events` stream never ends by itself).
 */
function raw(method: string, path: string, headers: Record<string, string> = {}, target: TestServer = server, untilHeaders = false): Promise<Raw> {
  const { port } = new URL(target.baseUrl);
  const head = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(`${head.join('\r\n')}\r\n\r\n`));
    const chunks: Buffer[] = [];
    const done = () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
      const parsed = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers: parsed, body: untilHeaders ? '' : text.slice(split + 4) });
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (untilHeaders && Buffer.concat(chunks).includes('\r\n\r\n')) {
        socket.destroy();
        done();
      }
    });
    socket.on('error', reject);
    socket.on('end', done);
  });
}

/** A concrete path for a route of the table (`/api/contacts/:contactId/tags`). */
const concrete = (url: string) => url.replace(':contactId', contactId).replace(':workspaceId', server.a.id);
const credentials = (url: string): Record<string, string> =>
  url.endsWith('notification-settings') ? { authorization: server.a.basic } : url.includes(':workspaceId') ? {} : { 'x-api-key': server.a.key };

/** The headers HEAD must repeat from GET (dates, trace ids and lengths of a chunked body aside). */
const COMPARED = ['content-type', 'content-disposition', 'x-api-version', 'access-control-allow-origin', 'www-authenticate', 'cache-control'];
const compared = (headers: Record<string, string>) => Object.fromEntries(COMPARED.filter((name) => headers[name] !== undefined).map((name) => [name, headers[name]]));

describe('HEAD on every route of the table', () => {
  const urls = () => [...new Set(server.app.apiRoutes.map((route) => route.split(' ')[1]!))].map((url) => ({ url, methods: server.app.apiRoutes.filter((r) => r.endsWith(` ${url}`)).map((r) => r.split(' ')[0]) }));

  it('answers like GET without a body where there is a GET, the documented 404 without a body elsewhere', async () => {
    const checked: string[] = [];
    for (const { url, methods } of urls()) {
      const path = concrete(url);
      const head = await raw('HEAD', path, credentials(url));
      expect(head.body, `HEAD ${url} sent a body`).toBe('');
      expect(head.headers['x-trace-id'], url).toMatch(/^[0-9a-f-]{36}$/);
      if (methods.includes('GET')) {
        const get = await raw('GET', path, credentials(url), server, url === '/api/events');
        expect([url, head.status], get.body.slice(0, 200)).toEqual([url, get.status]);
        expect(compared(head.headers), url).toEqual(compared(get.headers));
        if (get.headers['content-length']) expect(head.headers['content-length'], url).toBe(get.headers['content-length']);
      } else {
        expect([url, head.status]).toEqual([url, 404]);
        expect(head.headers['content-type'], url).toMatch(/^application\/json/);
      }
      checked.push(url);
    }
    expect(checked).toHaveLength(26); // the interface's 12 paths and our extensions' 14 (docs/decisions.md sections 10 to 13)
  });

  it.each([
    { name: 'the trailing ? of issue 12', path: '/api/contacts?' },
    { name: 'no key', path: '/api/contacts', headers: {} },
    { name: 'a bad $filter', path: "/api/contacts?%24filter=name%20eqq%20'x'" },
    { name: 'a $filter literal out of range', path: '/api/posts?%24filter=claps%20gt%201.5' },
    { name: 'an unknown workspace', path: '/api/nope/posts', headers: {} },
    { name: 'an unknown route', path: '/api/nope' },
    { name: 'the health check', path: '/healthz' },
    { name: 'the OpenAPI document', path: '/api/openapi.json' },
    { name: 'the dashboard config', path: '/app-config.json' },
  ])('$name: HEAD answers as GET does, without a body', async ({ path, headers = { 'x-api-key': server.a.key } }) => {
    const [head, get] = [await raw('HEAD', path, headers), await raw('GET', path, headers)];
    expect(head.status).toBe(get.status);
    expect(head.status).toBeLessThan(500);
    expect(head.body).toBe('');
    expect(compared(head.headers)).toEqual(compared(get.headers));
  });
});

describe('HEAD of a spreadsheet export', () => {
  it.each([
    { accept: 'text/csv', type: 'text/csv; charset=utf-8', extension: 'csv' },
    { accept: XLSX_MEDIA_TYPE, type: XLSX_MEDIA_TYPE, extension: 'xlsx' },
  ])('$extension: the download headers, no body, and no export run', async ({ accept, type, extension }) => {
    const streamRows = server.database.streamRows;
    let reads = 0;
    server.database.streamRows = ((...args: Parameters<typeof streamRows>) => {
      reads++;
      return streamRows.apply(server.database, args);
    }) as typeof streamRows;
    try {
      const head = await raw('HEAD', '/api/contacts', { 'x-api-key': server.a.key, accept });
      expect(head.status).toBe(200);
      expect(head.body).toBe('');
      expect(head.headers['content-type']).toBe(type);
      expect(head.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="contacts-\\d{4}-\\d{2}-\\d{2}\\.${extension}"$`));
      expect(reads).toBe(0);
      const get = await raw('GET', '/api/contacts', { 'x-api-key': server.a.key, accept });
      expect(get.status).toBe(200);
      expect(reads).toBe(1);
    } finally {
      server.database.streamRows = streamRows;
    }
  });
});

describe('a 500 answered to HEAD', () => {
  it('is in the log under its trace id with its method and URL, though its answer has no body to carry them', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
    const doomed = await startServer({ logger: { level: 'warn', stream } });
    try {
      // Any failure below the route will do: here the database is gone under the running app.
      await doomed.database.close();
      const answer = await raw('HEAD', '/api/contacts?', { 'x-api-key': doomed.a.key }, doomed);
      expect(answer.status).toBe(500);
      expect(answer.body).toBe('');
      const traceId = answer.headers['x-trace-id'];
      expect(lines.filter((line) => line.traceId === traceId)).toEqual([expect.objectContaining({ level: 50, msg: 'unexpected error', method: 'HEAD', url: '/api/contacts?' })]);
    } finally {
      await doomed.close();
    }
  });
});
