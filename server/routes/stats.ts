/**
 * Aggregates (docs/decisions.md section 12, extension `stats`; issue 35 point 1): `GET /stats`, a workspace's
 * figures for the overview in one request, and `GET /contacts/stats`, a filtered list's facets in one request.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { contactFilterFields, contactSortFields } from '../../src/api/filter/fields';
import { grants } from '../../src/api/scopes';
import { contactStatsQuery, contactStatsSchema, statsSchema } from '../../src/api/stats';
import { DEFAULT_CONTACT_ORDER } from '../db/contacts';
import { workspaceStats } from '../db/stats';
import { keyPrincipal } from '../plugins/auth';
import type { RouteContext } from './context';
import { listParams } from './list-params';

export function statsRoutes({ database, contacts }: RouteContext): FastifyPluginAsyncZod {
  return async (app) => {
    // Any valid key; a section for each resource it can read (products:read-only also gives collections).
    app.get('/stats', { config: { auth: 'key' }, schema: { response: { 200: statsSchema } } }, async (request) => {
      const { workspaceId, scopes } = keyPrincipal(request);
      const sections = { contacts: grants(scopes, 'contacts:read-only'), products: grants(scopes, 'products:read-only'), posts: grants(scopes, 'posts:read-only') };
      return workspaceStats(database.db, contacts, workspaceId, sections);
    });

    app.get(
      '/contacts/stats',
      { config: { auth: 'key', scope: 'contacts:read-only' }, schema: { querystring: contactStatsQuery, response: { 200: contactStatsSchema } } },
      async (request) => {
        // The `$filter` grammar and 400 messages of GET /contacts (docs/contract.md section 6).
        const { filter } = listParams({ ...request.query, $offset: 0, $limit: 1 }, contactFilterFields, contactSortFields, DEFAULT_CONTACT_ORDER);
        return contacts.stats(keyPrincipal(request).workspaceId, filter);
      },
    );
  };
}
