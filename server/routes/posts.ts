/**
 * Post requests and posts, endpoints 11 to 14. Endpoint 14 (`GET /{workspaceId}/posts`) needs no credential,
 * answers `Access-Control-Allow-Origin: *` and is rate limited per client address (docs/decisions.md section 4).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { postRequestListQuery, postRequestListSchema } from '../../src/api/extensions';
import { postFilterFields, postRequestFilterFields, postRequestSortFields, postSortFields } from '../../src/api/filter/fields';
import { postListQuery, postListSchema, postRequestResponseSchema, postRequestSchema, publicPostListSchema, publicPostsQuery } from '../../src/api/posts';
import { DEFAULT_POST_ORDER, DEFAULT_POST_REQUEST_ORDER } from '../db/posts';
import { findWorkspace } from '../db/workspaces';
import { notFound } from '../errors';
import { keyPrincipal } from '../plugins/auth';
import { writeOf } from './actor';
import { type RouteContext, publicBase } from './context';
import { listParams } from './list-params';

const workspaceParams = z.strictObject({ workspaceId: z.string().min(1).max(200) });
const requestIdParams = z.strictObject({ requestId: z.string().min(1).max(200) });

export function postRoutes(context: RouteContext): FastifyPluginAsyncZod {
  const { posts, database } = context;
  return async (app) => {
    app.post(
      '/post-requests',
      { config: { auth: 'key', scope: 'posts:read-write' }, schema: { body: postRequestSchema, response: { 201: postRequestResponseSchema } } },
      async (request, reply) => {
        const { requestId, state } = await posts.create(keyPrincipal(request).workspaceId, request.body, new Date(), writeOf(request));
        return reply.status(201).send({ body: { requestId }, state });
      },
    );

    // Our extensions (docs/decisions.md section 10): every post request, and withdrawing a scheduled or suggested one.
    app.get(
      '/post-requests',
      { config: { auth: 'key', scope: 'posts:read-only' }, schema: { querystring: postRequestListQuery, response: { 200: postRequestListSchema } } },
      async (request) => {
        const params = listParams(request.query, postRequestFilterFields, postRequestSortFields, DEFAULT_POST_REQUEST_ORDER);
        const { items, maxResults } = await posts.listRequests(keyPrincipal(request).workspaceId, params);
        return { items, meta: { maxResults } };
      },
    );

    app.delete(
      '/post-requests/:requestId',
      { config: { auth: 'key', scope: 'posts:read-write' }, schema: { params: requestIdParams } },
      async (request, reply) => {
        await posts.withdraw(keyPrincipal(request).workspaceId, request.params.requestId, new Date(), writeOf(request));
        return reply.status(204).send();
      },
    );

    app.get(
      '/posts',
      { config: { auth: 'key', scope: 'posts:read-only' }, schema: { querystring: postListQuery, response: { 200: postListSchema } } },
      async (request) => {
        const params = listParams(request.query, postFilterFields, postSortFields, DEFAULT_POST_ORDER);
        const { items, maxResults } = await posts.list(keyPrincipal(request).workspaceId, publicBase(context, request), params);
        return { items, meta: { maxResults } };
      },
    );

    app.get(
      '/public-posts',
      { config: { auth: 'key', scope: 'posts:read-only' }, schema: { querystring: publicPostsQuery, response: { 200: publicPostListSchema } } },
      async (request) => posts.publicSummaries(keyPrincipal(request).workspaceId, publicBase(context, request), request.query.limit),
    );

    app.options('/:workspaceId/posts', { config: { auth: 'none' }, schema: { hide: true } }, async (_request, reply) =>
      reply
        .header('Access-Control-Allow-Origin', '*')
        .header('Access-Control-Allow-Methods', 'GET, OPTIONS')
        .header('Access-Control-Allow-Headers', 'X-Api-Version')
        .header('Access-Control-Max-Age', '86400')
        .status(204)
        .send(),
    );

    app.get(
      '/:workspaceId/posts',
      {
        config: { auth: 'none' },
        schema: { params: workspaceParams, querystring: postListQuery, response: { 200: postListSchema } },
      },
      async (request) => {
        const workspace = await findWorkspace(database.db, request.params.workspaceId);
        if (!workspace) throw notFound('Workspace not found');
        const params = listParams(request.query, postFilterFields, postSortFields, DEFAULT_POST_ORDER);
        const { items, maxResults } = await posts.list(workspace.id, publicBase(context, request), params);
        return { items, meta: { maxResults } };
      },
    );
  };
}
