/**
 * `GET /activity` and `POST /activity/revert`, our service's extension `activity` (docs/decisions.md section 11,
 * issue 33). A key lists the entries of the resources it can read; a revert needs read-write on every resource
 * its entries touch (db/revert.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { activityFilterFields, activityListQuery, activityListSchema, activitySortFields, revertRequestSchema, revertResultSchema } from '../../src/api/activity';
import { type Scope, grants } from '../../src/api/scopes';
import { DEFAULT_ACTIVITY_ORDER, type LoggedResource } from '../db/activity';
import { keyPrincipal } from '../plugins/auth';
import { actorOf } from './actor';
import type { RouteContext } from './context';
import { listParams } from './list-params';

/** The read scope that shows each resource's entries (a shared view's with contacts, docs/decisions.md section 13). */
export const READ_SCOPES: [LoggedResource, Scope][] = [
  ['contact', 'contacts:read-only'],
  ['view', 'contacts:read-only'],
  ['product', 'products:read-only'],
  ['collection', 'products:read-only'],
  ['post-request', 'posts:read-only'],
];

export function activityRoutes({ activity, reverter }: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/activity',
      { config: { auth: 'key' }, schema: { querystring: activityListQuery, response: { 200: activityListSchema } } },
      async (request, reply) => {
        const principal = keyPrincipal(request);
        const params = listParams(request.query, activityFilterFields, activitySortFields, DEFAULT_ACTIVITY_ORDER);
        const resources = READ_SCOPES.filter(([, scope]) => grants(principal.scopes, scope)).map(([resource]) => resource);
        const { items, maxResults } = await activity.list(principal.workspaceId, resources, params);
        // The page comes as JSON text, written by the database (db/activity.ts, ActivityStore.list).
        return reply.type('application/json; charset=utf-8').send(`{"items":${items},"meta":{"maxResults":${maxResults}}}` as never);
      },
    );

    app.post(
      '/activity/revert',
      { config: { auth: 'key' }, schema: { body: revertRequestSchema, response: { 200: revertResultSchema } } },
      async (request) => {
        const principal = keyPrincipal(request);
        return reverter.revert(principal.workspaceId, principal.scopes, actorOf(request), request.body);
      },
    );
  };
}
