/**
 * The dashboard's serving and security headers (issue 4): the CSP forbids framing everywhere but `/embed/*`,
 * client-side routes answer the app's HTML, and the API carries the same hardening headers.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { openMigratedDatabase } from '../database';
import type { ServiceDatabase } from '../db/connection';
import { type TestDatabase, createTestDatabase } from './test-database';

let dir: string;
let target: TestDatabase;
let database: ServiceDatabase;
let app: FastifyInstance;
let origin: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wsa-dashboard-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(join(dir, 'embed.html'), '<!doctype html><title>embed</title>');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'index-Bq3xY7za.js'), 'console.log(1);');
  target = await createTestDatabase(dir);
  database = await openMigratedDatabase(target.url);
  app = await buildApp({ database, rateLimitPerMinute: 0, dashboardDir: dir });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await app.close();
  await database.close();
  await target.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('dashboard headers', () => {
  it('serves the app on client-side routes with a CSP that forbids framing and inline script', async () => {
    const response = await fetch(`${origin}/w/some-id/contacts`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>app</title>');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('lets any site frame the embed page', async () => {
    const response = await fetch(`${origin}/embed/some-workspace`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>embed</title>');
    expect(response.headers.get('content-security-policy')).toContain('frame-ancestors *');
    expect(response.headers.get('x-frame-options')).toBeNull();
  });

  it('hardens API answers too, errors included', async () => {
    const response = await fetch(`${origin}/api/contacts`);
    expect(response.status).toBe(401);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('lets the browser keep content-hashed assets a year and asks it to revalidate everything else', async () => {
    const asset = await fetch(`${origin}/assets/index-Bq3xY7za.js`);
    expect(asset.status).toBe(200);
    expect(await asset.text()).toBe('console.log(1);');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const path of ['/w/some-id/contacts', '/', '/embed/x', '/favicon.svg']) {
      const response = await fetch(`${origin}${path}`);
      expect([path, response.headers.get('cache-control')]).toEqual([path, 'no-cache']);
      // Revalidation still answers 304 while the file is unchanged: a browser's revalidation (fetch would add
      // `Cache-Control: no-cache` to a conditional request of its own, which asks for the file whole).
      const etag = response.headers.get('etag');
      expect(etag, path).toBeTruthy();
      expect((await fetch(`${origin}${path}`, { headers: { 'if-none-match': etag!, 'cache-control': 'max-age=0' } })).status, path).toBe(304);
    }
  });

  it('keeps a missing file a 404', async () => {
    expect((await fetch(`${origin}/missing.js`)).status).toBe(404);
  });
});

describe('API_ORIGINS in the Content-Security-Policy (issue 15)', () => {
  /** The directives of `policy` by name. */
  const directives = (policy: string) => Object.fromEntries(policy.split(';').map((part) => part.trim().split(/\s+/)).map(([name = '', ...values]) => [name, values]));

  it("allows only 'self' in connect-src by default", async () => {
    const policy = (await fetch(`${origin}/w/x/contacts`)).headers.get('content-security-policy') ?? '';
    expect(directives(policy)['connect-src']).toEqual(["'self'"]);
  });

  it('allows exactly the listed origins in connect-src, on the app, the embed page and the API, and nowhere else', async () => {
    const listed = ['https://api.example.com', 'http://10.0.0.5:8080'];
    const withOrigins = await buildApp({ database, rateLimitPerMinute: 0, dashboardDir: dir, apiOrigins: listed });
    try {
      for (const path of ['/w/x/contacts', '/embed/some-workspace', '/api/contacts']) {
        const response = await withOrigins.inject({ method: 'GET', url: path });
        const parsed = directives(response.headers['content-security-policy'] as string);
        expect(parsed['connect-src'], path).toEqual(["'self'", ...listed]);
        expect(parsed['default-src'], path).toEqual(["'self'"]);
        expect(parsed['script-src'], path).toEqual(["'self'"]);
      }
    } finally {
      await withOrigins.close();
    }
  });
});
