/**
 * Test harness: a real service listening on a free loopback port over a fresh database (an SQLite file in a temp
 * folder, or a PostgreSQL database with `TEST_DATABASE=postgres`: test-database.ts),
 * with one organization, two workspaces (A and B), an all-scope key and Basic credentials for each. No mocks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Scope, SCOPES } from '../../src/api/scopes';
import { type AppConfig, buildApp } from '../app';
import { openMigratedDatabase } from '../database';
import type { ServiceDatabase } from '../db/connection';
import { createApiKey, createBasicCredential } from '../db/credentials';
import { createOrganization, createWorkspace } from '../db/workspaces';
import type { TransportTimeouts } from '../plugins/transport';
import { createMigratedTestDatabase } from './test-database';

export type TestWorkspace = { id: string; name: string; key: string; basic: string };

export type TestServer = {
  baseUrl: string;
  database: ServiceDatabase;
  app: FastifyInstance;
  dir: string;
  organizationId: string;
  a: TestWorkspace;
  b: TestWorkspace;
  /** A new key of `workspace` holding only `scopes`. */
  keyWith(workspace: TestWorkspace, scopes: readonly Scope[]): Promise<string>;
  close(): Promise<void>;
};

async function testWorkspace(database: ServiceDatabase, organizationId: string, name: string): Promise<TestWorkspace> {
  const workspace = await createWorkspace(database.db, { organizationId, name });
  const key = await createApiKey(database.db, workspace.id, SCOPES);
  const { accessKey, secret } = await createBasicCredential(database.db, workspace.id);
  return { id: workspace.id, name, key, basic: `Basic ${Buffer.from(`${accessKey}:${secret}`).toString('base64')}` };
}

/** Listens with `app` on a free loopback port; resolves to the port and the API's base URL (`http://127.0.0.1:PORT/api`). */
export async function listenOnLoopback(app: FastifyInstance): Promise<{ port: number; baseUrl: string }> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { port, baseUrl: `http://127.0.0.1:${port}/api` };
}

/**
 * Starts a service on a temp database; `rateLimitPerMinute` defaults to 0 (off) so tests are not throttled;
 * `redisUrl` counts rate limits in that Redis; `trustProxy` as `TRUST_PROXY`; `timeouts` the connection timeouts;
 * `exportConcurrency` as `EXPORT_CONCURRENCY`; `logger` as buildApp's (none).
 */
export async function startServer(
  options: {
    rateLimitPerMinute?: number;
    redisUrl?: string;
    trustProxy?: string[];
    timeouts?: Partial<TransportTimeouts>;
    exportConcurrency?: number;
    logger?: AppConfig['logger'];
  } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'wsa-test-'));
  const target = await createMigratedTestDatabase(dir);
  const database = await openMigratedDatabase(target.url);
  const org = await createOrganization(database.db, 'Test Organization');
  const a = await testWorkspace(database, org.id, 'Workspace A');
  const b = await testWorkspace(database, org.id, 'Workspace B');
  const app = await buildApp({
    database,
    rateLimitPerMinute: options.rateLimitPerMinute ?? 0,
    redisUrl: options.redisUrl,
    trustProxy: options.trustProxy,
    timeouts: options.timeouts,
    exportConcurrency: options.exportConcurrency,
    logger: options.logger,
  });
  const { baseUrl } = await listenOnLoopback(app);
  return {
    baseUrl,
    database,
    app,
    dir,
    organizationId: org.id,
    a,
    b,
    keyWith: (workspace, scopes) => createApiKey(database.db, workspace.id, scopes),
    async close() {
      await app.close();
      await database.close();
      await target.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type CallOptions = { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> };
export type CallResult = { status: number; headers: Headers; body: any; text: string };

/** One HTTP request to the service; JSON bodies are sent as `application/json` and parsed when answered as JSON. */
export async function call(server: { baseUrl: string }, method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers['x-api-key'] = options.key;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${server.baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').includes('application/json') && text ? JSON.parse(text) : undefined;
  return { status: response.status, headers: response.headers, body: json, text };
}

let uniqueSerial = 0;

/**
 * `prefix` followed by the time and a counter in base 36: a name, email or tag no other test of the run (nor an
 * earlier run on the same PostgreSQL database) has used.
 */
export function unique(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${(uniqueSerial++).toString(36)}`;
}

/** `?$filter=...&$limit=...` with every value percent-encoded. */
export function query(params: Record<string, string | number | undefined>): string {
  const parts = Object.entries(params)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  return parts.length ? `?${parts.join('&')}` : '';
}
