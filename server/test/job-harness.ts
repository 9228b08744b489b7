/**
 * The set-up the console's job tests share (the bulk tag, bulk erasure and import-batch jobs of
 * src/features/contacts): a real service (harness.ts `startServer`, a temp SQLite file), the console's typed client on
 * workspace A's key with every request passed through `intercept` (to record one, hold it back or break it; straight
 * to the service without it), and a fresh job store in a fresh fake IndexedDB before each test.
 *
 * Call `jobHarness()` at the top level of a test file: it registers the vitest hooks itself. Its `server`, `api` and
 * `store` are set by those hooks, so read them inside tests and hooks, not at the file's top level.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type ApiClient, createApiClient } from '../../src/api/client';
import { type JobStore, createStore } from '../../src/lib/jobs/job-store';
import { type TestServer, startServer } from './harness';

export type JobHarness = { readonly server: TestServer; readonly api: ApiClient; readonly store: JobStore };

export function jobHarness(intercept: typeof fetch = (input, init) => fetch(input, init)): JobHarness {
  const harness = {} as { server: TestServer; api: ApiClient; store: JobStore };
  beforeAll(async () => {
    harness.server = await startServer();
    harness.api = createApiClient({ baseUrl: harness.server.baseUrl, apiKey: harness.server.a.key, fetch: intercept });
  }, 60_000);
  afterAll(() => harness.server.close());
  beforeEach(async () => {
    globalThis.indexedDB = new IDBFactory();
    harness.store = await createStore();
  });
  return harness;
}
