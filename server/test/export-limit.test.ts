/**
 * The bound on concurrent spreadsheet exports per process (issue 12 point 10) and its queue (issue 21 point 2):
 * beyond `EXPORT_CONCURRENCY` an export answers 503 at once with the error body, `Retry-After`, its queue
 * position and a ticket that keeps its place when sent back; a slot comes back when an export ends, finished or
 * abandoned by its client, and goes to the first in the queue. Real server, 8,000 contacts with long addresses (a 5 MB CSV: large
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
  it('runs two exports at once, queues the next ones with 503, position, ticket and Retry-After, and runs them in order as slots free', async () => {
    // CSV: 5 MB that a client not reading leaves in flight (xlsx compresses the long addresses to little).
    const first = await openExport('text/csv');
    const second = await openExport('text/csv');
    expect([first.response.statusCode, second.response.statusCode]).toEqual([200, 200]);

    const refused = await call(server, 'GET', '/contacts', { key: server.a.key, headers: { accept: XLSX_MEDIA_TYPE } });
    expect(refused.status).toBe(503);
    const ticket = refused.headers.get('export-ticket')!;
    expect(ticket).toMatch(/^[0-9a-f-]{36}$/);
    expect(refused.headers.get('export-queue-position')).toBe('1');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.body).toEqual({
      traceId: refused.headers.get('x-trace-id'),
      message: `Export queued: position 1 of 1 waiting; this server runs at most 2 exports at once. Try again in ${refused.headers.get('retry-after')} seconds with the header Export-Ticket: ${ticket} to keep your place`,
      path: '/api/contacts',
      timestamp: expect.any(String),
      statusCode: 503,
    });
    // A second waiting export (workspace B) is behind it.
    const behind = await call(server, 'GET', '/contacts', { key: server.b.key, headers: { accept: 'text/csv' } });
    expect(behind.headers.get('export-queue-position')).toBe('2');
    // JSON pages are not exports: they still answer.
    expect((await call(server, 'GET', '/contacts', { key: server.a.key })).status).toBe(200);

    // A client that goes away gives its slot back, held for the first in the queue: a newcomer and the second
    // (with its ticket) still wait, the first (with its ticket) runs.
    first.request.destroy();
    const csv = (key: string, ticket?: string) => call(server, 'GET', '/contacts?%24limit=5', { key, headers: { accept: 'text/csv', ...(ticket ? { 'export-ticket': ticket } : {}) } });
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the abandoned export stops and frees its slot
    expect((await csv(server.a.key)).headers.get('export-queue-position')).toBe('3');
    expect((await csv(server.b.key, behind.headers.get('export-ticket')!)).headers.get('export-queue-position')).toBe('2');
    expect((await csv(server.a.key, ticket)).status).toBe(200);
    // One that reads to the end gives its slot back too: now the second's.
    second.response.resume();
    await new Promise((resolve) => second.response.once('end', resolve));
    await expect.poll(async () => (await csv(server.b.key, behind.headers.get('export-ticket')!)).status).toBe(200);
  }, 60_000);
});
