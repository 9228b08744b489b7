/**
 * Shared views, our service's extension `shared-views` (docs/decisions.md section 13, issue 36; docs/live.md):
 * `GET /views` (contacts:read-only) lists the workspace's views; `POST /views`, `PUT /views/{viewId}` and
 * `DELETE /views/{viewId}` (contacts:read-write) make, replace and delete one. A view's `query.filter` must be a
 * `$filter` of `GET /contacts` and its `query.orderBy` an `$orderBy` of it (docs/decisions.md section 6), else 400.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { contactFilterFields, contactSortFields } from '../../src/api/filter/fields';
import { type ViewInputParsed, viewInputSchema, viewListSchema, viewParamsSchema, viewSchema } from '../../src/api/live';
import { HttpError } from '../errors';
import { DEFAULT_CONTACT_ORDER } from '../db/contacts';
import type { ViewStore } from '../db/views';
import { keyPrincipal } from '../plugins/auth';
import { writeOf } from './actor';
import { listParams } from './list-params';

/** Throws the 400 of docs/decisions.md section 6 when the view's filter or order does not parse or names an unknown field. */
function checkQuery(input: ViewInputParsed): void {
  try {
    listParams(
      { $offset: 0, $limit: 1, ...(input.query.filter === null ? {} : { $filter: input.query.filter }), ...(input.query.orderBy === null ? {} : { $orderBy: input.query.orderBy }) },
      contactFilterFields,
      contactSortFields,
      DEFAULT_CONTACT_ORDER,
    );
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 400) throw new HttpError(400, `query.${error.message.replace(/^\$(filter|orderBy)/, (name) => name.slice(1))}`);
    throw error;
  }
}

/** The routes of shared views over `views`. */
export function viewRoutes(views: ViewStore): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/views', { config: { auth: 'key', scope: 'contacts:read-only' }, schema: { response: { 200: viewListSchema } } }, async (request) => {
      const items = await views.list(keyPrincipal(request).workspaceId);
      return { items, meta: { maxResults: items.length } };
    });

    app.post('/views', { config: { auth: 'key', scope: 'contacts:read-write' }, schema: { body: viewInputSchema, response: { 201: viewSchema } } }, async (request, reply) => {
      checkQuery(request.body);
      const principal = keyPrincipal(request);
      const view = await views.create(principal.workspaceId, request.body, principal.keyHint, writeOf(request));
      return reply.code(201).send(view);
    });

    app.put(
      '/views/:viewId',
      { config: { auth: 'key', scope: 'contacts:read-write' }, schema: { params: viewParamsSchema, body: viewInputSchema, response: { 200: viewSchema } } },
      async (request) => {
        checkQuery(request.body);
        return views.replace(keyPrincipal(request).workspaceId, request.params.viewId, request.body, writeOf(request));
      },
    );

    app.delete('/views/:viewId', { config: { auth: 'key', scope: 'contacts:read-write' }, schema: { params: viewParamsSchema } }, async (request, reply) => {
      await views.delete(keyPrincipal(request).workspaceId, request.params.viewId, writeOf(request));
      return reply.code(204).send();
    });
  };
}
