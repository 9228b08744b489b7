/** `GET /workspaces` (endpoint 15): the key's organization's workspaces, `feeds:read-only`. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { workspaceFilterFields, workspaceSortFields } from '../../src/api/filter/fields';
import { workspaceListQuery, workspaceListSchema } from '../../src/api/workspaces';
import { DEFAULT_WORKSPACE_ORDER, listWorkspaces } from '../db/workspaces';
import { keyPrincipal } from '../plugins/auth';
import type { RouteContext } from './context';
import { listParams } from './list-params';

export function workspaceRoutes({ database }: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/workspaces',
      { config: { auth: 'key', scope: 'feeds:read-only' }, schema: { querystring: workspaceListQuery, response: { 200: workspaceListSchema } } },
      async (request) => {
        const params = listParams(request.query, workspaceFilterFields, workspaceSortFields, DEFAULT_WORKSPACE_ORDER);
        const { items, maxResults } = await listWorkspaces(database.db, database.dialect, keyPrincipal(request).organizationId, params);
        return { items, meta: { maxResults } };
      },
    );
  };
}
