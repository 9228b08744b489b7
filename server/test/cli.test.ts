/**
 * The operator command line (docs/decisions.md section 8) over a temp database: every command prints exactly one JSON
 * object on stdout and exits 0; every error goes to stderr with a non-zero exit and nothing on stdout. The commands run
 * in this process (server/cli-program.ts `runCli`, what server/cli.ts runs on its arguments: a process a command cost
 * 0.3 s of CPU, 62 of them a run); the last block runs the compiled command line as `npm run cli` does (compiled once
 * a test process by started-service.ts `buildService`, as scripts/build-server.mjs compiles it for `npm start`) and
 * checks its stdout, stderr and exit code. Then a real server over the same file shows that what the commands made
 * works.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/api/scopes';
import { buildApp } from '../app';
import { openMigratedDatabase } from '../database';
import { TEST_DATABASE, type TestDatabase, createTestDatabase } from './test-database';
import type { ServiceDatabase } from '../db/connection';
import { call, query } from './harness';
import { buildService } from './started-service';
import { runCli } from '../cli-program';

const ROOT = resolve(import.meta.dirname, '../..');
/** The compiled command line (`buildService`), set before the first command. */
let CLI: string;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const API_KEY = /^wsk_[0-9A-Za-z]{40}$/;
const ACCESS_KEY = /^wsa_[0-9A-Za-z]{24}$/;
const SECRET = /^[0-9A-Za-z]{40}$/;
/** The demo seed and the compiled command line's processes take seconds on a busy machine. */
const SLOW = { timeout: 90_000 };

type Run = { code: number; stdout: string; stderr: string };

let dir: string;
let file: string;
let target: TestDatabase | undefined;

const env = () => ({ ...process.env, DATABASE_URL: file, PUBLIC_URL: 'http://demo.example' });

/** `runCli(args)` with DATABASE_URL on the temp database, its output collected. */
async function cli(...args: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env: env() });
  return { code, stdout, stderr };
}

/** `node <compiled server/cli.ts> ...args` with DATABASE_URL on the temp database. */
function cliProcess(...args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: ROOT, env: env(), timeout: 60_000 },
      (error, stdout, stderr) => done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** The one JSON object a successful command prints, after checking that it printed nothing else. */
function printed(run: Run): Record<string, any> {
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout.endsWith('\n')).toBe(true);
  expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
  const value = JSON.parse(run.stdout);
  expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(true);
  return value;
}

function failed(run: Run, message: RegExp) {
  expect(run.code).not.toBe(0);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(message);
}

let org: Record<string, any>;
let workspace: Record<string, any>;
let bare: Record<string, any>;

beforeAll(async () => {
  CLI = (await buildService()).cli;
  dir = mkdtempSync(join(tmpdir(), 'wsa-cli-'));
  target = await createTestDatabase(dir, 'ops');
  file = target.url;
});

afterAll(async () => {
  await served?.app.close();
  await served?.database.close();
  await target?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

let served: { app: FastifyInstance; database: ServiceDatabase; baseUrl: string } | undefined;

/** A real server over the command line's database file (started once, after the commands that need it). */
async function server() {
  if (!served) {
    const database = await openMigratedDatabase(file);
    const app = await buildApp({ database, rateLimitPerMinute: 0 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    served = { app, database, baseUrl: `http://127.0.0.1:${port}/api` };
  }
  return served;
}

describe('successful commands print one JSON object with the documented fields', SLOW, () => {
  it('org create --name prints { id, name }', async () => {
    org = printed(await cli('org', 'create', '--name', 'Acme Ops "Test", Ltd.'));
    expect(org).toEqual({ id: expect.stringMatching(UUID), name: 'Acme Ops "Test", Ltd.' });
  });

  it('workspace create --org --name --image-url prints { id, name, organizationId }', async () => {
    workspace = printed(await cli('workspace', 'create', '--org', org.id, '--name', 'Ops Workspace', '--image-url', 'https://img.example.com/ops.png'));
    expect(workspace).toEqual({ id: expect.stringMatching(UUID), name: 'Ops Workspace', organizationId: org.id });
  });

  it('workspace create without --image-url prints { id, name, organizationId }', async () => {
    bare = printed(await cli('workspace', 'create', '--org', org.id, '--name', 'Bare Workspace'));
    expect(bare).toEqual({ id: expect.stringMatching(UUID), name: 'Bare Workspace', organizationId: org.id });
    expect(bare.id).not.toBe(workspace.id);
  });

  it('workspace create --key-scope also creates its first key and prints it with its scopes', async () => {
    // An organization of its own, so the listing of `org`'s workspaces below stays as it is.
    const other = printed(await cli('org', 'create', '--name', 'Keyed Org'));
    const made = printed(await cli('workspace', 'create', '--org', other.id, '--name', 'Keyed Workspace', '--key-scope', 'contacts:read-only,posts:read-write'));
    expect(made).toEqual({ id: expect.stringMatching(UUID), name: 'Keyed Workspace', organizationId: other.id, key: expect.stringMatching(API_KEY), scopes: ['contacts:read-only', 'posts:read-write'] });
    const authorization = await call(await server(), 'GET', '/authorization', { key: made.key });
    expect(authorization.body.permissions).toMatchObject({ contacts: 'read-only', posts: 'read-write' });
  });

  it.each([
    { scope: 'contacts:read-only,posts:read-write', scopes: ['contacts:read-only', 'posts:read-write'] },
    { scope: 'feeds:read-only', scopes: ['feeds:read-only'] },
    { scope: 'products:read-write, products:read-write', scopes: ['products:read-write'] },
    { scope: 'all', scopes: [...SCOPES] }, // the eight scopes
  ])('key create --scope $scope prints { key, workspaceId, scopes }', async ({ scope, scopes }) => {
    const key = printed(await cli('key', 'create', '--workspace', workspace.id, '--scope', scope));
    expect(key).toEqual({ key: expect.stringMatching(API_KEY), workspaceId: workspace.id, scopes });
  });

  it('key revoke --key prints { revoked: true }', async () => {
    const key = printed(await cli('key', 'create', '--workspace', workspace.id, '--scope', 'all')).key;
    expect(printed(await cli('key', 'revoke', '--key', key))).toEqual({ revoked: true });
  });

  it('credential create --workspace prints { accessKey, secret, workspaceId }', async () => {
    const credential = printed(await cli('credential', 'create', '--workspace', workspace.id));
    expect(credential).toEqual({ accessKey: expect.stringMatching(ACCESS_KEY), secret: expect.stringMatching(SECRET), workspaceId: workspace.id });
  });
});

describe('failing commands print to stderr only and exit non-zero', SLOW, () => {
  it.each([
    { name: 'an unknown scope', args: () => ['key', 'create', '--workspace', workspace.id, '--scope', 'contacts:read-only,contacts:admin'], message: /unknown scope contacts:admin/ },
    { name: 'an empty scope list', args: () => ['key', 'create', '--workspace', workspace.id, '--scope', ','], message: /unknown scope/ },
    { name: 'a missing --scope', args: () => ['key', 'create', '--workspace', workspace.id], message: /--scope/ },
    { name: 'a missing --name', args: () => ['org', 'create'], message: /--name/ },
    { name: 'an unknown organization', args: () => ['workspace', 'create', '--org', '00000000-0000-4000-8000-000000000000', '--name', 'Orphan'], message: /Organization not found/ },
    { name: 'an image URL that is not http(s)', args: () => ['workspace', 'create', '--org', org.id, '--name', 'X', '--image-url', 'javascript:alert(1)'], message: /http\(s\) URL/ },
    { name: 'an unknown workspace for a key', args: () => ['key', 'create', '--workspace', '00000000-0000-4000-8000-000000000000', '--scope', 'all'], message: /workspace 00000000-0000-4000-8000-000000000000 not found/ },
    { name: 'an unknown workspace for a credential', args: () => ['credential', 'create', '--workspace', 'nope'], message: /workspace nope not found/ },
    { name: 'revoking an unknown key', args: () => ['key', 'revoke', '--key', `wsk_${'0'.repeat(40)}`], message: /no live key matches/ },
    { name: 'an unknown command', args: () => ['frobnicate'], message: /unknown command/ },
    { name: 'an unknown option', args: () => ['org', 'create', '--name', 'A', '--colour', 'red'], message: /unknown option/ },
  ])('$name', async ({ args, message }) => {
    failed(await cli(...args()), message);
  });

  it('revoking the same key twice fails the second time', async () => {
    const key = printed(await cli('key', 'create', '--workspace', workspace.id, '--scope', 'feeds:read-only')).key;
    printed(await cli('key', 'revoke', '--key', key));
    failed(await cli('key', 'revoke', '--key', key), /no live key matches/);
  });

  it('creates nothing when it fails', async () => {
    await cli('workspace', 'create', '--org', '00000000-0000-4000-8000-000000000000', '--name', 'Ghost');
    const database = await openMigratedDatabase(file);
    try {
      const ghosts = await database.db.selectFrom('workspaces').select('id').where('name', '=', 'Ghost').execute();
      expect(ghosts).toEqual([]);
    } finally {
      await database.close();
    }
  });
});

describe('what the commands made works on a real server over the same file', SLOW, () => {
  it('a created key answers GET /authorization with the permissions its scopes give, and works only within them', async () => {
    const key = printed(await cli('key', 'create', '--workspace', workspace.id, '--scope', 'contacts:read-only,posts:read-write')).key;
    const { baseUrl } = await server();
    const authorization = await call({ baseUrl }, 'GET', '/authorization', { key });
    expect(authorization.status).toBe(200);
    expect(authorization.body).toEqual({
      status: 'OK',
      feed: { id: workspace.id, name: 'Ops Workspace' },
      organization: { id: org.id, name: 'Acme Ops "Test", Ltd.' },
      permissions: { contacts: 'read-only', posts: 'read-write' },
    });
    expect((await call({ baseUrl }, 'GET', '/contacts', { key })).status).toBe(200);
    const denied = await call({ baseUrl }, 'POST', '/contacts', { key, body: { name: 'No' } });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('Missing scope feeds:read-write');
    expect((await call({ baseUrl }, 'PATCH', '/contacts/x/tags', { key, body: { tagsToAdd: ['a'] } })).status).toBe(403);
  });

  it('an all-scope key has read-write on every resource and lists both workspaces with their image URLs', async () => {
    const key = printed(await cli('key', 'create', '--workspace', workspace.id, '--scope', 'all')).key;
    const { baseUrl } = await server();
    const authorization = await call({ baseUrl }, 'GET', '/authorization', { key });
    expect(authorization.body.permissions).toEqual({ feeds: 'read-write', products: 'read-write', contacts: 'read-write', posts: 'read-write' });
    const workspaces = await call({ baseUrl }, 'GET', '/workspaces', { key });
    expect(workspaces.status).toBe(200);
    expect(workspaces.body.items.map((item: any) => [item.name, item.imageUrl, item.organizationId])).toEqual([
      ['Bare Workspace', null, org.id],
      ['Ops Workspace', 'https://img.example.com/ops.png', org.id],
    ]);
  });

  it('a revoked key answers 401, while the server is running too', async () => {
    const key = printed(await cli('key', 'create', '--workspace', workspace.id, '--scope', 'all')).key;
    const { baseUrl } = await server();
    expect((await call({ baseUrl }, 'GET', '/authorization', { key })).status).toBe(200);
    printed(await cli('key', 'revoke', '--key', key));
    const revoked = await call({ baseUrl }, 'GET', '/authorization', { key });
    expect(revoked.status).toBe(401);
    expect(revoked.body.message).toBe('Invalid API key');
  });

  it('created Basic credentials update notification settings of a contact of their workspace', async () => {
    const credential = printed(await cli('credential', 'create', '--workspace', workspace.id));
    const key = printed(await cli('key', 'create', '--workspace', workspace.id, '--scope', 'feeds:read-write')).key;
    const { baseUrl } = await server();
    const contact = await call({ baseUrl }, 'POST', '/contacts', { key, body: { name: 'Cli Contact', email: 'cli@example.com' } });
    expect(contact.status).toBe(201);
    const basic = `Basic ${Buffer.from(`${credential.accessKey}:${credential.secret}`).toString('base64')}`;
    const patched = await call({ baseUrl }, 'PATCH', `/contacts/${contact.body.id}/notification-settings`, { body: { email: true }, headers: { authorization: basic } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: contact.body.id, feedId: workspace.id, state: 'active' });
    const wrongSecret = `Basic ${Buffer.from(`${credential.accessKey}:${'x'.repeat(40)}`).toString('base64')}`;
    expect((await call({ baseUrl }, 'PATCH', `/contacts/${contact.body.id}/notification-settings`, { body: { email: true }, headers: { authorization: wrongSecret } })).status).toBe(401);
  });
});

describe('the compiled command line, as `npm run cli` runs it', SLOW, () => {
  it('prints one JSON object and exits 0, or prints to stderr only and exits 1', async () => {
    const made = printed(await cliProcess('org', 'create', '--name', 'Process Org'));
    expect(made).toEqual({ id: expect.stringMatching(UUID), name: 'Process Org' });
    const refused = await cliProcess('key', 'create', '--workspace', 'nope', '--scope', 'all');
    failed(refused, /^error: workspace nope not found\n$/);
    expect(refused.code).toBe(1);
    const unknown = await cliProcess('org', 'create', '--name', 'A', '--colour', 'red');
    failed(unknown, /unknown option '--colour'/);
    expect(unknown.code).toBe(1);
  });
});

describe('demo seed', SLOW, () => {
  let demo: Record<string, any>;

  beforeAll(async () => {
    demo = printed(await cli('demo', 'seed'));
  }, 120_000);

  it('prints the organization and three workspaces with a key, an access key and a secret each', () => {
    expect(Object.keys(demo).sort()).toEqual(['organization', 'workspaces']);
    expect(demo.organization).toEqual({ id: expect.stringMatching(UUID), name: 'Demo Organization' });
    expect(demo.workspaces.map((w: any) => w.name)).toEqual(['Nordic Outdoor Co.', 'Lisbon Coffee Roasters', 'Brooklyn Book Club']);
    for (const w of demo.workspaces) {
      expect(w).toEqual({ id: expect.stringMatching(UUID), name: expect.any(String), key: expect.stringMatching(API_KEY), accessKey: expect.stringMatching(ACCESS_KEY), secret: expect.stringMatching(SECRET) });
    }
  });

  // PostgreSQL has no file to keep them beside: the demo keys are printed once by `demo seed` only.
  it.runIf(TEST_DATABASE === 'sqlite')('keeps the demo credentials beside the database file, readable by the owner only', () => {
    const mode = statSync(join(dir, 'demo-credentials.json')).mode & 0o777;
    expect(mode).toBe(0o600);
  });

  it('gives each demo key its own workspace with 2,000, 300 and 200 contacts', async () => {
    const { baseUrl } = await server();
    const counts: number[] = [];
    for (const w of demo.workspaces) {
      const authorization = await call({ baseUrl }, 'GET', '/authorization', { key: w.key });
      expect(authorization.body).toMatchObject({ status: 'OK', feed: { id: w.id, name: w.name }, organization: demo.organization });
      const list = await call({ baseUrl }, 'GET', '/contacts?%24limit=1', { key: w.key });
      expect(list.status).toBe(200);
      counts.push(list.body.meta.maxResults);
    }
    expect(counts).toEqual([2000, 300, 200]);
    const workspaces = await call({ baseUrl }, 'GET', '/workspaces', { key: demo.workspaces[0].key });
    expect(workspaces.body.meta.maxResults).toBe(3);
    expect(workspaces.body.items.every((item: any) => item.imageUrl.startsWith('http://demo.example/demo/'))).toBe(true);
  });

  it('lets demo Basic credentials update a contact of their own workspace (200) but not of another (404)', async () => {
    const { baseUrl } = await server();
    const [nordic, lisbon] = demo.workspaces;
    const basic = `Basic ${Buffer.from(`${nordic.accessKey}:${nordic.secret}`).toString('base64')}`;
    const firstWithEmail = async (key: string) =>
      (await call({ baseUrl }, 'GET', `/contacts${query({ $filter: "email ne null and state eq 'pending'", $limit: 1 })}`, { key })).body.items[0];

    const own = await firstWithEmail(nordic.key);
    const ok = await call({ baseUrl }, 'PATCH', `/contacts/${own.id}/notification-settings`, { body: { email: true, sms: false }, headers: { authorization: basic } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: own.id, feedId: nordic.id, state: 'active' });
    const after = (await call({ baseUrl }, 'GET', `/contacts${query({ $filter: `id eq '${own.id}'` })}`, { key: nordic.key })).body.items[0];
    expect(after).toMatchObject({ state: 'active', notificationSettings: { email: true, sms: false } });

    const other = await firstWithEmail(lisbon.key);
    const denied = await call({ baseUrl }, 'PATCH', `/contacts/${other.id}/notification-settings`, { body: { email: true }, headers: { authorization: basic } });
    expect(denied.status).toBe(404);
    expect(denied.body.message).toBe('Contact not found');
    const untouched = (await call({ baseUrl }, 'GET', `/contacts${query({ $filter: `id eq '${other.id}'` })}`, { key: lisbon.key })).body.items[0];
    expect(untouched.state).toBe('pending');
  });
});
