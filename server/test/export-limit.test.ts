/**
 * The bound on concurrent spreadsheet exports per process (issue 12 point 10): beyond `EXPORT_CONCURRENCY`
 * an export answers 503 with `Retry-After` and the error body at once, and a slot comes back when an export
 * ends, finished or abandoned by its client. Real server, 8,000 contacts with long addresses (a 5 MB CSV: large
 * enough that a client not reading holds the export open on the socket's backpressure).
 */
import { type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http';
import { faker } from '@faker-js/faker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XLSX_MEDIA_TYPE } from '../../src/api/contacts';
import { fakeContacts, insertContacts } from '../db/seed';
import { type TestServer, call, startServer } from './harness';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ exportConcurrency: 2 });
  faker.seed(12);
  const address = 'Storgata 1, '.repeat(50);
  await insertContacts(server.database.db, fakeContacts(server.a.id, 8000).map((row) => ({ ...row, address })));
}, 60_000);
afterAll(() => server?.close());

/** Starts an export and reads only its status and headers: the body stays unread, so the export stays open. */
function openExport(accept: string): Promise<{ request: ClientRequest; response: IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${server.baseUrl}/contacts`, { headers: { 'x-api-key': server.a.key, accept } }, (response) => {
      response.pause();
      resolve({ request, response });
    });
    request.on('error', reject);
    request.end();
  });
}

describe('concurrent exports', () => {
  it('runs two exports at once, answers a third 503 with Retry-After, and takes exports again once one ends', async () => {
    // CSV: 5 MB that a client not reading leaves in flight (xlsx compresses the long addresses to little).
    const first = await openExport('text/csv');
    const second = await openExport('text/csv');
    expect([first.response.statusCode, second.response.statusCode]).toEqual([200, 200]);

    const refused = await call(server, 'GET', '/contacts', { key: server.a.key, headers: { accept: XLSX_MEDIA_TYPE } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(refused.body).toEqual({
      traceId: refused.headers.get('x-trace-id'),
      message: 'Too many exports in progress: this server runs at most 2 at once; try again in 10 seconds',
      path: '/api/contacts',
      timestamp: expect.any(String),
      statusCode: 503,
    });
    // JSON pages are not exports: they still answer.
    expect((await call(server, 'GET', '/contacts', { key: server.a.key })).status).toBe(200);

    // A client that goes away gives its slot back; one that reads to the end does too.
    first.request.destroy();
    await expect.poll(async () => (await call(server, 'GET', '/contacts?%24limit=5', { key: server.a.key, headers: { accept: 'text/csv' } })).status).toBe(200);
    second.response.resume();
    await new Promise((resolve) => second.response.once('end', resolve));
    const both = await Promise.all([openExport('text/csv'), openExport('text/csv')]);
    expect(both.map((open) => open.response.statusCode)).toEqual([200, 200]);
    for (const open of both) open.request.destroy();
  }, 60_000);
});
