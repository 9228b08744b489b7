/** `GET /authorization` (endpoint 1): answers any valid key with its workspace, organization and permissions. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authorizationSchema } from '../../src/api/authorization';
import { permissionsOf } from '../../src/api/scopes';
import { findOrganization, findWorkspace } from '../db/workspaces';
import { keyPrincipal } from '../plugins/auth';
import type { RouteContext } from './context';

export function authorizationRoutes({ database }: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/authorization', { config: { auth: 'key' }, schema: { response: { 200: authorizationSchema } } }, async (request) => {
      const principal = keyPrincipal(request);
      const [workspace, organization] = await Promise.all([
        findWorkspace(database.db, principal.workspaceId),
        findOrganization(database.db, principal.organizationId),
      ]);
      return {
        status: 'OK',
        feed: { id: principal.workspaceId, name: workspace?.name ?? '' },
        organization: { id: principal.organizationId, name: organization?.name ?? '' },
        permissions: permissionsOf(principal.scopes),
      };
    });
  };
}
