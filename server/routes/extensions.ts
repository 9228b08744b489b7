/**
 * `GET /extensions` (docs/decisions.md section 10, issue 22): the names of our service's own extensions, so a console
 * can offer each only where the service it talks to has it (a service answering 404 here has none). `without`: the
 * names this deployment turned off (`ACTIVITY_LOG=off` leaves out `activity`).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { EXTENSION_NAMES, extensionsSchema } from '../../src/api/extensions';

export function extensionRoutes(without: readonly string[] = []): FastifyPluginAsyncZod {
  const names = EXTENSION_NAMES.filter((name) => !without.includes(name));
  return async (app) => {
    app.get('/extensions', { config: { auth: 'key' }, schema: { response: { 200: extensionsSchema } } }, async () => ({ extensions: [...names] }));
  };
}
