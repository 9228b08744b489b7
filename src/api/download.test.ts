/**
 * `client.downloadContacts` against the real service (CSV and xlsx bytes, file name, progress, abort, errors),
 * and the `Content-Disposition` file-name rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeContacts, insertContacts } from '../../server/db/seed';
import { type TestServer, startServer } from '../../server/test/harness';
import { ApiError, isAbortError } from './api-error';
import { type ApiClient, createApiClient } from './client';
import { CONTACT_EXPORT_COLUMNS, CSV_MEDIA_TYPE, XLSX_MEDIA_TYPE } from './contacts';
import type { DownloadProgress } from './download';
import { csvRecordCounter } from './csv-records';
import { contentLength, filenameFromContentDisposition } from './download';
import { compare } from './filter/ast';

let server: TestServer;
let api: ApiClient;
const accepts: (string | null)[] = [];
const TOTAL = 3000;

beforeAll(async () => {
  server = await startServer();
  api = createApiClient({
    baseUrl: server.baseUrl,
    apiKey: server.a.key,
    fetch: (input, init) => {
      accepts.push(new Headers(init?.headers).get('accept'));
      return fetch(input, init);
    },
  });
  await insertContacts(server.database.db, fakeContacts(server.a.id, TOTAL));
}, 60_000);
afterAll(() => server.close());

const today = () => new Date().toISOString().slice(0, 10);

describe('downloadContacts', () => {
  it('downloads every contact as CSV with the file name of Content-Disposition and increasing progress', async () => {
    const progress: DownloadProgress[] = [];
    const result = await api.downloadContacts({ format: 'csv', onProgress: (p) => progress.push(p) });
    expect(accepts.at(-1)).toBe(CSV_MEDIA_TYPE);
    expect(result.filename).toBe(`contacts-${today()}.csv`);
    expect(result.blob.type).toBe('text/csv; charset=utf-8');
    const bytes = new Uint8Array(await result.blob.arrayBuffer());
    expect(result.bytes).toBe(bytes.byteLength);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(CONTACT_EXPORT_COLUMNS.join(','));
    expect(lines).toHaveLength(TOTAL + 1);
    expect(progress.length).toBeGreaterThan(1);
    for (let i = 1; i < progress.length; i++) expect(progress[i]!.receivedBytes).toBeGreaterThan(progress[i - 1]!.receivedBytes);
    expect(progress.at(-1)).toMatchObject({ receivedBytes: result.bytes, totalBytes: progress.at(-1)?.totalBytes ?? null });
    // Each chunk comes with its progress, so rows can be counted as the stream arrives: they rise, never past the total.
    expect(progress.reduce((sum, p) => sum + p.chunk.byteLength, 0)).toBe(result.bytes);
    const counter = csvRecordCounter();
    const rows = progress.map((p) => (counter.push(p.chunk), counter.records - 1));
    expect(rows.some((n) => n > 0 && n < TOTAL)).toBe(true);
    expect(counter.finish() - 1).toBe(TOTAL);
    const total = progress.at(-1)?.totalBytes;
    if (total !== null && total !== undefined) expect(total).toBe(result.bytes);
  });

  it('applies $filter, $orderBy, $offset and $limit to the export', async () => {
    const result = await api.downloadContacts({ format: 'csv', filter: compare('state', 'eq', 'active'), orderBy: 'name asc', offset: 2, limit: 5 });
    const lines = (await result.blob.text()).replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(6);
    const state = CONTACT_EXPORT_COLUMNS.indexOf('state');
    expect(lines.slice(1).every((line) => line.split(',')[state] === 'active')).toBe(true);
  });

  it('downloads an xlsx workbook (a zip) with the xlsx media type', async () => {
    const progress: DownloadProgress[] = [];
    const result = await api.downloadContacts({ format: 'xlsx', onProgress: (p) => progress.push(p) });
    expect(accepts.at(-1)).toBe(XLSX_MEDIA_TYPE);
    expect(result.filename).toBe(`contacts-${today()}.xlsx`);
    expect(result.blob.type).toBe(XLSX_MEDIA_TYPE);
    const bytes = new Uint8Array(await result.blob.arrayBuffer());
    expect(String.fromCharCode(...bytes.slice(0, 4))).toBe('PK\u0003\u0004');
    expect(result.bytes).toBe(bytes.byteLength);
    expect(progress.at(-1)?.receivedBytes).toBe(result.bytes);
    expect(progress.length).toBeGreaterThan(1);
  });

  it('rejects with the AbortError when the signal aborts mid-download', async () => {
    const controller = new AbortController();
    let chunks = 0;
    const error = await api
      .downloadContacts({
        format: 'csv',
        signal: controller.signal,
        onProgress: () => {
          chunks += 1;
          controller.abort();
        },
      })
      .then(
        () => null,
        (reason: unknown) => reason,
      );
    expect(chunks).toBe(1);
    expect(isAbortError(error)).toBe(true);
    expect(error).not.toBeInstanceOf(ApiError);
  });

  it('rejects with the AbortError when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(api.downloadContacts({ format: 'xlsx', signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('maps a bad filter to an ApiError 400 and a missing scope to 403', async () => {
    await expect(api.downloadContacts({ format: 'csv', filter: 'name eqq 1' })).rejects.toMatchObject({ status: 400, endpoint: 'GET /contacts' });
    const postsOnly = createApiClient({ baseUrl: server.baseUrl, apiKey: await server.keyWith(server.a, ['posts:read-only']) });
    await expect(postsOnly.downloadContacts({ format: 'csv' })).rejects.toMatchObject({ status: 403, message: 'Missing scope contacts:read-only' });
  });
});

describe('filenameFromContentDisposition', () => {
  it.each([
    ['attachment; filename="contacts-2026-07-01.csv"', 'contacts-2026-07-01.csv'],
    ['attachment; filename=contacts.xlsx', 'contacts.xlsx'],
    ["attachment; filename=\"fallback.csv\"; filename*=UTF-8''kontakter%20%C3%B8st.csv", 'kontakter øst.csv'],
    ['attachment; filename="say \\"hi\\".csv"', 'say "hi".csv'],
    ['attachment; filename="../../etc/passwd"', 'passwd'],
    ['attachment; filename="C:\\\\temp\\\\x.csv"', 'x.csv'],
    ['attachment; filename=".."', null],
    ['attachment; filename=""', null],
    ['attachment', null],
    ['inline; name="x.csv"', null],
    [null, null],
  ])('reads %j as %j', (header, expected) => {
    expect(filenameFromContentDisposition(header)).toBe(expected);
  });
});

describe('contentLength', () => {
  it('reads Content-Length unless the body is encoded', () => {
    expect(contentLength(new Headers({ 'content-length': '1234' }))).toBe(1234);
    expect(contentLength(new Headers({ 'content-length': '1234', 'content-encoding': 'gzip' }))).toBeNull();
    expect(contentLength(new Headers({ 'content-length': 'abc' }))).toBeNull();
    expect(contentLength(new Headers())).toBeNull();
  });
});

describe('csvRecordCounter', () => {
  const count = (text: string, splits: number[] = []) => {
    const bytes = new TextEncoder().encode(text);
    const counter = csvRecordCounter();
    let at = 0;
    for (const cut of [...splits, bytes.length]) {
      counter.push(bytes.slice(at, cut));
      at = cut;
    }
    return [counter.records, counter.finish()];
  };

  it('counts records by line ends outside quotes, across chunk boundaries and multi-byte letters', () => {
    expect(count('id,name\r\n1,Ann\r\n2,Bø\r\n', [21])).toEqual([3, 3]);
    expect(count('id,note\r\n1,"two\r\nlines, and ""quotes"""\r\n2,x', [12, 13, 20])).toEqual([2, 3]);
    expect(count('a\n"b\nc"\n', [1, 2, 3, 4, 5])).toEqual([2, 2]);
    expect(count('')).toEqual([0, 0]);
  });
});
