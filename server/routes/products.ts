/** Products and collections, endpoints 7 to 10: upserts (201 created, 200 updated) and lists without `$orderBy`. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import {
  collectionListQuery,
  collectionListSchema,
  collectionUpsertSchema,
  productListQuery,
  productListSchema,
  productUpsertSchema,
  upsertResponseSchema,
} from '../../src/api/catalog';
import { collectionFilterFields, productFilterFields } from '../../src/api/filter/fields';
import { keyPrincipal } from '../plugins/auth';
import { writeOf } from './actor';
import type { RouteContext } from './context';
import { listParams } from './list-params';

const idParams = z.strictObject({ id: z.string().min(1).max(200) });

const NEWEST_FIRST = [{ field: 'created', direction: 'desc' as const }];

export function catalogRoutes({ catalog }: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/products',
      { config: { auth: 'key', scope: 'products:read-only' }, schema: { querystring: productListQuery, response: { 200: productListSchema } } },
      async (request) => {
        const { filter, offset, limit } = listParams(request.query, productFilterFields, [], NEWEST_FIRST);
        const { items, maxResults } = await catalog.listProducts(keyPrincipal(request).workspaceId, { filter, offset, limit });
        return { items, meta: { maxResults } };
      },
    );

    app.post(
      '/products',
      { config: { auth: 'key', scope: 'products:read-write' }, schema: { body: productUpsertSchema, response: { 200: upsertResponseSchema, 201: upsertResponseSchema } } },
      async (request, reply) => {
        const { id, created } = await catalog.upsertProduct(keyPrincipal(request).workspaceId, request.body, writeOf(request));
        return reply.status(created ? 201 : 200).send({ id });
      },
    );

    app.get(
      '/collections',
      { config: { auth: 'key', scope: 'products:read-only' }, schema: { querystring: collectionListQuery, response: { 200: collectionListSchema } } },
      async (request) => {
        const { filter, offset, limit } = listParams(request.query, collectionFilterFields, [], NEWEST_FIRST);
        const { items, maxResults } = await catalog.listCollections(keyPrincipal(request).workspaceId, { filter, offset, limit });
        return { items, meta: { maxResults } };
      },
    );

    app.post(
      '/collections',
      { config: { auth: 'key', scope: 'products:read-write' }, schema: { body: collectionUpsertSchema, response: { 200: upsertResponseSchema, 201: upsertResponseSchema } } },
      async (request, reply) => {
        const { id, created } = await catalog.upsertCollection(keyPrincipal(request).workspaceId, request.body, writeOf(request));
        return reply.status(created ? 201 : 200).send({ id });
      },
    );

    // Our extension (docs/decisions.md section 10, `catalog-delete`): links are removed on both sides.
    app.delete('/products/:id', { config: { auth: 'key', scope: 'products:read-write' }, schema: { params: idParams } }, async (request, reply) => {
      await catalog.deleteProduct(keyPrincipal(request).workspaceId, request.params.id, writeOf(request));
      return reply.status(204).send();
    });

    app.delete('/collections/:id', { config: { auth: 'key', scope: 'products:read-write' }, schema: { params: idParams } }, async (request, reply) => {
      await catalog.deleteCollection(keyPrincipal(request).workspaceId, request.params.id, writeOf(request));
      return reply.status(204).send();
    });
  };
}
