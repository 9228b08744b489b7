/**
 * The OpenAPI document (issue 3): valid OpenAPI 3.1, generated from the zod schemas, covering every API route
 * the server registers with its security, version header, query caps and error responses.
 */
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('documents every API route the server registers, and all 15 endpoints', () => {
    const routes = server.app.apiRoutes.filter((route) => !route.startsWith('OPTIONS ') && !route.startsWith('HEAD '));
    expect(routes.length).toBe(15);
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

  it('is rendered at /api/docs', async () => {
    const response = await fetch(`${server.baseUrl}/docs`, { redirect: 'follow' });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('swagger');
  });
});
