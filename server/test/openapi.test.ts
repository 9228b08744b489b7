/**
 * The OpenAPI document (issue 3): valid OpenAPI 3.1, generated from the zod schemas, covering every API route
 * the server registers with its security, version header, query caps and error responses.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_CAPS, POSTS_PAGE_CAPS } from '../../src/api/common';
import { collectionFilterFields, contactFilterFields, contactSortFields, postFilterFields, postSortFields, productFilterFields, workspaceFilterFields, workspaceSortFields } from '../../src/api/filter/fields';
import { buildApp } from '../app';
import { type TestServer, startServer } from './harness';

let server: TestServer;
let document: any;
beforeAll(async () => {
  server = await startServer();
  document = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
});
afterAll(() => server.close());

const operation = (method: string, path: string) => document.paths[path]?.[method.toLowerCase()];
const openapiPath = (url: string) => url.replace(/:([A-Za-z]+)/g, '{$1}');

describe('/api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document));
    expect(result.valid ? [] : result.errors.slice(0, 3)).toEqual([]);
  });

  it('documents every API route the server registers: all 15 endpoints and the 18 extension routes', () => {
    const routes = server.app.apiRoutes.filter((route) => !route.startsWith('OPTIONS ') && !route.startsWith('HEAD '));
    expect(routes.length).toBe(33);
    for (const route of routes) {
      const [method, url] = route.split(' ') as [string, string];
      expect(operation(method, openapiPath(url)), route).toBeDefined();
    }
  });

  it('gives each operation its security scheme and documented error statuses with the error body', () => {
    expect(document.components.securitySchemes).toMatchObject({ apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' }, basic: { type: 'http', scheme: 'basic' } });
    expect(operation('GET', '/api/contacts').security).toEqual([{ apiKey: [] }]);
    expect(operation('PATCH', '/api/contacts/{contactId}/notification-settings').security).toEqual([{ basic: [] }]);
    expect(operation('GET', '/api/{workspaceId}/posts').security).toEqual([]);
    const contacts = operation('POST', '/api/contacts').responses;
    for (const status of ['201', '400', '401', '403', '409', '413', '415', '429', '500']) expect(contacts[status], status).toBeDefined();
    const errorSchema = contacts['409'].content['application/json'].schema;
    const resolved = errorSchema.$ref ? document.components.schemas[errorSchema.$ref.split('/').pop()] : errorSchema;
    expect(Object.keys(resolved.properties).sort()).toEqual(['message', 'path', 'statusCode', 'timestamp', 'traceId']);
  });

  it('documents the extension routes with their summaries, and Idempotency-Key on every POST and PATCH (docs/decisions.md sections 9 and 10)', () => {
    for (const [method, path] of [
      ['GET', '/api/extensions'],
      ['PATCH', '/api/contacts/{contactId}'],
      ['DELETE', '/api/contacts/{contactId}'],
      ['GET', '/api/post-requests'],
      ['DELETE', '/api/post-requests/{requestId}'],
      ['DELETE', '/api/products/{id}'],
      ['DELETE', '/api/collections/{id}'],
      ['GET', '/api/activity'],
      ['POST', '/api/activity/revert'],
      ['GET', '/api/stats'],
      ['GET', '/api/contacts/stats'],
      ['POST', '/api/contacts/batch'],
      ['POST', '/api/contacts/tags'],
      ['GET', '/api/events'],
      ['GET', '/api/views'],
      ['POST', '/api/views'],
      ['PUT', '/api/views/{viewId}'],
      ['DELETE', '/api/views/{viewId}'],
    ] as const) {
      expect(operation(method, path)?.summary, `${method} ${path}`).toMatch(/\w/);
    }
    for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }>>)) {
      for (const method of ['post', 'patch']) {
        const op = methods[method];
        if (!op) continue;
        expect(op.parameters?.some((p) => p.name === 'idempotency-key' && p.in === 'header'), `${method} ${path}`).toBe(true);
        expect(op.responses['422'], `${method} ${path}`).toBeDefined();
      }
    }
    expect(operation('DELETE', '/api/post-requests/{requestId}').responses['409']).toBeDefined();
    expect(operation('PUT', '/api/views/{viewId}').responses['409']).toBeDefined();
  });

  it('documents GET /events as a text/event-stream with Last-Event-ID and its 429 (docs/decisions.md section 13)', () => {
    const events = operation('GET', '/api/events');
    expect(Object.keys(events.responses['200'].content)).toEqual(['text/event-stream']);
    expect(events.responses['429']).toBeDefined();
    expect(events.parameters.some((p: { name: string; in: string }) => p.name === 'last-event-id' && p.in === 'header')).toBe(true);
  });

  it('documents the X-Api-Version header and the list parameters with their caps', () => {
    const parameters = operation('GET', '/api/posts').parameters as { name: string; in: string; schema: any }[];
    expect(parameters.find((p) => p.name === 'x-api-version')?.in).toBe('header');
    const names = parameters.filter((p) => p.in === 'query').map((p) => p.name).sort();
    expect(names).toEqual(['$filter', '$limit', '$offset', '$orderBy']);
    expect(parameters.find((p) => p.name === '$limit')?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 30 });
    expect(parameters.find((p) => p.name === '$offset')?.schema).toMatchObject({ type: 'integer', minimum: 0, maximum: 100 });
    const contactLimit = operation('GET', '/api/contacts').parameters.find((p: { name: string }) => p.name === '$limit');
    expect(contactLimit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(operation('GET', '/api/products').parameters.map((p: { name: string }) => p.name)).not.toContain('$orderBy');
    const publicLimit = operation('GET', '/api/public-posts').parameters.find((p: { name: string }) => p.name === 'limit');
    expect(publicLimit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 30 });
  });

  it('documents the CSV and xlsx representations of GET /contacts', () => {
    const content = operation('GET', '/api/contacts').responses['200'].content;
    expect(Object.keys(content).sort()).toEqual(['application/json', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv']);
  });

  it('gives every operation a summary and a description', () => {
    const missing: string[] = [];
    for (const [path, operations] of Object.entries<Record<string, { summary?: string; description?: string }>>(document.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        if (!op.summary?.trim() || !op.description?.trim()) missing.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it.each([
    ['/api/contacts', contactFilterFields, contactSortFields, DEFAULT_PAGE_CAPS],
    ['/api/products', productFilterFields, [], DEFAULT_PAGE_CAPS],
    ['/api/collections', collectionFilterFields, [], DEFAULT_PAGE_CAPS],
    ['/api/posts', postFilterFields, postSortFields, POSTS_PAGE_CAPS],
    ['/api/{workspaceId}/posts', postFilterFields, postSortFields, POSTS_PAGE_CAPS],
    ['/api/workspaces', workspaceFilterFields, workspaceSortFields, DEFAULT_PAGE_CAPS],
  ] as const)('describes GET %s with its filterable and sortable fields and its caps', (path, filterable, sortable, caps) => {
    const description: string = operation('GET', path).description;
    const [filterPart = '', sortPart = ''] = description.split('**Sortable fields**');
    for (const field of Object.keys(filterable)) expect(filterPart, field).toContain(`\`${field}\``);
    if (sortable.length) for (const field of sortable) expect(sortPart.split('\n')[0], field).toContain(`\`${field}\``);
    else expect(sortPart).toMatch(/^: none; `\$orderBy` is refused/);
    expect(description).toContain(`\`$limit\` from 1 to ${caps.maxLimit} (default ${caps.defaultLimit})`);
    if (caps.maxOffset !== undefined) expect(description).toContain(`\`$offset\` from 0 to ${caps.maxOffset}`);
  });

  it('is rendered at /api/docs', async () => {
    const response = await fetch(`${server.baseUrl}/docs`, { redirect: 'follow' });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('swagger');
  });
});

describe('the document of a server that also serves the dashboard', () => {
  it('lists only the API: no dashboard route, /app-config.json or /healthz', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wsa-openapi-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(dir, 'embed.html'), '<!doctype html><title>embed</title>');
    const app = await buildApp({ database: server.database, rateLimitPerMinute: 0, dashboardDir: dir, schedulerIntervalMs: 0 });
    try {
      await app.ready();
      const paths = Object.keys((app.swagger() as { paths: Record<string, unknown> }).paths);
      expect(paths.filter((path) => !path.startsWith('/api/'))).toEqual([]);
      expect(paths.length).toBe(26); // 15 operations on 12 paths, and the extensions' 18 operations adding 14 paths
      // The routes exist and answer; they are only left out of the reference.
      expect((await app.inject({ url: '/app-config.json' })).statusCode).toBe(200);
      expect((await app.inject({ url: '/w/x/contacts' })).statusCode).toBe(200);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
