/**
 * The typed client and our service's export queue (issue 21 point 2, docs/exports.md), against the real service
 * (server/test/harness.ts) running one export at once: a refused download rejects with an ApiError carrying the
 * queue's ticket and position, and `downloadContacts({ exportTicket })` sends the ticket back and keeps the place.
 */
import { type ClientRequest, request as httpRequest } from 'node:http';
import { faker } from '@faker-js/faker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeContacts, insertContacts } from '../../server/db/seed';
import { type TestServer, startServer } from '../../server/test/harness';
import { ApiError, parseExportQueue } from './api-error';
import { createApiClient } from './client';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ exportConcurrency: 1 });
  faker.seed(21);
  // 5 MB of CSV: a client that does not read holds the export open on the socket's backpressure.
  await insertContacts(server.database.db, fakeContacts(server.a.id, 8000).map((row) => ({ ...row, address: 'Storgata 1, '.repeat(50) })));
}, 60_000);
afterAll(() => server?.close());

/** Starts a CSV export that is never read: it holds the one export slot. */
function holdExport(): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${server.baseUrl}/contacts`, { headers: { 'x-api-key': server.a.key, accept: 'text/csv' } }, (response) => {
      response.pause();
      if (response.statusCode === 200) resolve(request);
      else reject(new Error(`the held export answered ${response.statusCode}`));
    });
    request.on('error', () => {});
    request.end();
  });
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('downloadContacts and the export queue', () => {
  it('rejects with the queue place, and keeps it when the ticket is sent back', async () => {
    const held = await holdExport();
    const api = createApiClient({ baseUrl: server.baseUrl, apiKey: server.a.key });
    const first = await refusal(api.downloadContacts({ format: 'csv', limit: 5 }));
    expect(first.status).toBe(503);
    expect(first.retryAfter).toBeGreaterThanOrEqual(1);
    expect(first.exportQueue).toEqual({ ticket: expect.stringMatching(/^[0-9a-f-]{36}$/), position: 1 });
    const second = await refusal(api.downloadContacts({ format: 'csv', limit: 5 }));
    expect(second.exportQueue?.position).toBe(2);
    // The same ticket again: still first.
    expect((await refusal(api.downloadContacts({ format: 'csv', limit: 5, exportTicket: first.exportQueue!.ticket }))).exportQueue).toEqual(first.exportQueue);

    held.destroy();
    await expect
      .poll(async () => {
        const result = await api.downloadContacts({ format: 'csv', limit: 5, exportTicket: first.exportQueue!.ticket }).catch((error: ApiError) => error);
        return result instanceof ApiError ? result.status : result.filename;
      })
      .toMatch(/^contacts-\d{4}-\d{2}-\d{2}\.csv$/);
  }, 30_000);

  it('reads no queue place from answers without both headers or with a position that is not a whole number from 1', () => {
    expect(parseExportQueue('t', '2')).toEqual({ ticket: 't', position: 2 });
    expect(parseExportQueue(null, '2')).toBeNull();
    expect(parseExportQueue('t', null)).toBeNull();
    expect(parseExportQueue('t', '0')).toBeNull();
    expect(parseExportQueue('t', 'x')).toBeNull();
  });
});
