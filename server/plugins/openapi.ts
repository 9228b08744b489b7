/**
 * The OpenAPI 3.1 document of the API (docs/decisions.md section 0), generated from the same zod schemas the routes
 * validate with: `/api/openapi.json`, rendered at `/api/docs` (@fastify/swagger-ui, assets served locally).
 *
 * Before each API route is registered, `describeRoute` adds what every route of its kind carries: its summary and
 * description from the contract (operation-docs.ts), the security scheme (`x-api-key` header or Basic), the optional
 * `X-Api-Version` header, and the error body for each status of docs/decisions.md section 3 that the route can answer.
 * Routes outside `/api/` are hidden. Register this plugin before the routes.
 *
 * In proxy mode (issue 15) there are no local API routes: `document` (from app.ts `apiDocument`, the same routes
 * described without a database) is served as it is, so the document and its page stay local.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { API_VERSION, INTEGER_PARAM, errorBodySchema } from '../../src/api/common';
import { CSV_MEDIA_TYPE, XLSX_MEDIA_TYPE } from '../../src/api/contacts';
import { operationDocs } from './operation-docs';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request: malformed JSON, a field of the wrong type or format, a bad $filter/$orderBy, a value above a cap, an unknown parameter or field, or an unknown X-Api-Version',
  401: 'No, unknown or revoked credentials',
  403: 'The key lacks the scope this endpoint needs',
  404: 'Not found in the key workspace',
  409: 'Would duplicate a unique value, conflicts with the record\'s state, or the same Idempotency-Key is in progress',
  413: 'Body over 2 MB',
  415: 'Body is not application/json',
  422: 'The Idempotency-Key was used with a different request',
  429: 'Over the rate limit; see Retry-After',
  500: 'Unexpected error; details in the server log under traceId',
};

const versionHeader = z.looseObject({
  'x-api-version': z.string().optional().describe(`API version date; only ${API_VERSION} is accepted, and it is the default`),
});

/** `GET /events` also takes `Last-Event-ID` (docs/decisions.md section 13). */
const eventHeaders = versionHeader.extend({
  'last-event-id': z.string().optional().describe('The `id` of the last event received: what followed it is replayed from the activity log, or `event: reset` is sent when it cannot be'),
});

/** PUT (shared views) takes the activity log's headers, not `Idempotency-Key` (docs/decisions.md sections 9 and 13). */
const putHeaders = versionHeader.extend({
  'activity-source': z.string().optional().describe('What wrote, kept in the activity log (1 to 100 printable ASCII characters; default `api`; docs/decisions.md section 11)'),
  'activity-batch': z.string().optional().describe('The batch this write belongs to in the activity log (1 to 255 printable ASCII characters; docs/decisions.md section 11)'),
});

/** POST and PATCH also take `Idempotency-Key` (docs/decisions.md section 9); checked by plugins/idempotency.ts. */
const writeHeaders = versionHeader.extend({
  'idempotency-key': z
    .string()
    .optional()
    .describe('1 to 255 printable ASCII characters: the same key and body within 24 hours replays the first answer (Idempotent-Replayed: true)'),
  'activity-source': z.string().optional().describe('What wrote, kept in the activity log (1 to 100 printable ASCII characters; default `api`; docs/decisions.md section 11)'),
  'activity-batch': z.string().optional().describe('The batch this write belongs to in the activity log, e.g. a job id (1 to 255 printable ASCII characters; docs/decisions.md section 11)'),
});

/** Shows integer query parameters (strings on the wire, see `integerParam`) as integers with their range. */
function showIntegerParams(ctx: { jsonSchema: Record<string, unknown> }) {
  const range = ctx.jsonSchema[INTEGER_PARAM] as { minimum: number; maximum: number } | undefined;
  if (!range) return;
  const { default: fallback, description } = ctx.jsonSchema;
  for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
  Object.assign(ctx.jsonSchema, { type: 'integer', minimum: range.minimum }, range.maximum < Number.MAX_SAFE_INTEGER ? { maximum: range.maximum } : {});
  if (fallback !== undefined) ctx.jsonSchema.default = fallback;
  if (description !== undefined) ctx.jsonSchema.description = description;
}
const zodToJsonConfig = { override: showIntegerParams } as Parameters<typeof createJsonSchemaTransform>[0]['zodToJsonConfig'];

/** The statuses of docs/decisions.md section 3 that a route can answer. */
function errorStatuses(route: RouteOptions): number[] {
  const { auth } = route.config ?? {};
  const method = String(route.method);
  const url = route.url ?? '';
  const statuses = [400, 429, 500];
  if (auth === 'key') statuses.push(401, 403);
  if (auth === 'basic') statuses.push(401);
  if (method === 'POST' || method === 'PATCH') statuses.push(413, 415, 422);
  if (method === 'PUT') statuses.push(413, 415);
  if (url.includes(':') || /\/(products|collections)$/.test(url) && method === 'POST') statuses.push(404);
  if ((method === 'POST' || method === 'PATCH' || method === 'PUT') && auth) statuses.push(409); // a duplicate, or an Idempotency-Key in progress
  else if (method === 'DELETE' && url.includes('post-requests')) statuses.push(409);
  return statuses.sort();
}

/**
 * Adds security, the version header, tags, summary and description (operation-docs.ts) and error responses to an
 * API route's schema. Every route outside `/api/` (the dashboard's `/`, `/*`, `/embed/*`, `/app-config.json`, the
 * health check `/healthz`) is internal to this server, not part of the interface: it is hidden from the document.
 */
function describeRoute(route: RouteOptions) {
  if (!(route.url ?? '').startsWith('/api/')) {
    route.schema = { ...route.schema, hide: true };
    return;
  }
  const auth = route.config?.auth;
  if (!auth || route.schema?.hide) return;
  const method = String(route.method);
  const errors = Object.fromEntries(errorStatuses(route).map((status) => [status, errorBodySchema.check(z.describe(ERROR_DESCRIPTIONS[status] ?? 'Error'))]));
  const resource = (route.url ?? '').replace(/^\/api\//, '').split('/')[0] ?? '';
  route.schema = {
    ...operationDocs[`${String(route.method)} ${route.url}`],
    tags: [resource.startsWith(':') ? 'posts' : resource === 'post-requests' || resource === 'public-posts' ? 'posts' : resource],
    security: auth === 'key' ? [{ apiKey: [] }] : auth === 'basic' ? [{ basic: [] }] : [],
    ...(method === 'POST' || method === 'PATCH'
      ? { headers: auth === 'basic' ? writeHeaders.omit({ 'x-api-version': true }) : writeHeaders }
      : method === 'PUT'
        ? { headers: putHeaders }
        : auth === 'basic'
          ? {}
          : { headers: route.url === '/api/events' ? eventHeaders : versionHeader }),
    ...route.schema,
    response: { ...errors, ...(route.schema?.response as object | undefined) },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** `METHOD /path` of every API route registered (those with `config.auth`), for checks against the document. */
    apiRoutes: string[];
  }
}

export type OpenApiOptions = {
  /** A finished document to serve instead of describing this app's own routes (proxy mode). */
  document?: OpenApiDocument;
};

/** The generated OpenAPI document, as `app.swagger()` returns it. */
export type OpenApiDocument = ReturnType<FastifyInstance['swagger']>;

export default fp(
  async function openapiPlugin(app: FastifyInstance, options: OpenApiOptions) {
    const apiRoutes: string[] = [];
    app.decorate('apiRoutes', apiRoutes);
    app.addHook('onRoute', (route) => {
      describeRoute(route);
      if (route.config?.auth) for (const method of [route.method].flat()) apiRoutes.push(`${method} ${route.url}`);
    });
    if (options.document) {
      await app.register(swagger, { mode: 'static', specification: { document: options.document as never } });
    } else await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Workspace Content and Contacts Service',
          version: API_VERSION,
          description: 'Contacts, products, collections, posts and workspaces of one workspace per API key. Lists take OData-style `$filter`, `$orderBy`, `$offset` and `$limit`.',
        },
        servers: [{ url: '/' }],
        components: {
          securitySchemes: {
            apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
            basic: { type: 'http', scheme: 'basic', description: 'Access key and secret of the workspace (endpoint 6)' },
          },
        },
      },
      transform: createJsonSchemaTransform({ zodToJsonConfig }),
      transformObject: (documentObject) => {
        const document = createJsonSchemaTransformObject({ zodToJsonConfig })(documentObject) as { paths?: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>> };
        const ok = document.paths?.['/api/contacts']?.get?.responses?.['200'];
        if (ok?.content) {
          ok.content[CSV_MEDIA_TYPE] = { schema: { type: 'string', description: 'UTF-8 CSV with a BOM, CRLF line ends, a header row' } };
          ok.content[XLSX_MEDIA_TYPE] = { schema: { type: 'string', contentMediaType: XLSX_MEDIA_TYPE, description: 'xlsx workbook with one sheet, Contacts' } };
        }
        // GET /events answers a Server-Sent Events stream (docs/decisions.md section 13), which no zod schema describes.
        const events = document.paths?.['/api/events']?.get;
        if (events) {
          events.responses = {
            ...events.responses,
            '200': {
              description: 'A Server-Sent Events stream that stays open',
              content: {
                'text/event-stream': {
                  schema: {
                    type: 'string',
                    description:
                      '`retry: 3000`, then `event: reset` (`data: {}`, `id` the position to resume from) or the replay after `Last-Event-ID`, then `event: change` with `id` (the activity log sequence number) and `data: {"resource","ids","action"}` (`ids` null past 100), and a `: keepalive` comment every 25 s',
                  },
                },
              },
            } as never,
          };
        }
        return document as ReturnType<ReturnType<typeof createJsonSchemaTransformObject>>;
      },
    });
    app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  },
  { name: 'openapi' },
);
