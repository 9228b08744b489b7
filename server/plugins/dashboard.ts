/**
 * Serves the built dashboard (docs/decisions.md section 0); its security headers come from security-headers.ts:
 * - client-side routes answer the app's HTML, `/embed/*` the embed page's; a missing file stays a 404;
 * - `/app-config.json`: `{ apiBaseUrl, demo, upstream }`, where `demo` lists the demo workspaces' keys only when
 *   the server seeds demo data (`DEMO_SEED=auto`) and they exist; never with `DEMO_SEED=off`, never in proxy
 *   mode; `upstream` is null in direct mode and `{ "apiUrl": UPSTREAM_API_URL }` in proxy mode (issue 15), so
 *   the console can say where `/api` leads;
 * - files under assets/ (content-hashed) are cached a year as immutable, everything else revalidated (`no-cache`).
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DemoSeedResult } from '../db/seed';

/** Cache-Control of a content-hashed file: a year, never revalidated (RFC 8246). */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export type DashboardOptions = {
  /** Folder of the built dashboard (`dist/`); nothing but `/app-config.json` is served when it lacks index.html. */
  root: string;
  /** The demo credentials to offer on /connect, or null. */
  demo: () => DemoSeedResult | null;
  /** Proxy mode: the upstream API base `/api` is forwarded to (issue 15). */
  upstreamApiUrl?: string;
};

export default fp(
  async function dashboardPlugin(app: FastifyInstance, options: DashboardOptions) {
    app.get('/app-config.json', async (_request, reply) => {
      const demo = options.demo();
      reply.header('Cache-Control', 'no-store');
      return {
        apiBaseUrl: '/api',
        demo: demo && { organization: demo.organization, workspaces: demo.workspaces.map(({ id, name, key, accessKey, secret }) => ({ id, name, key, accessKey, secret })) },
        upstream: options.upstreamApiUrl ? { apiUrl: options.upstreamApiUrl } : null,
      };
    });

    if (!options.root || !isAbsolute(options.root) || !existsSync(join(options.root, 'index.html'))) return;
    const assets = join(options.root, 'assets', sep);
    await app.register(fastifyStatic, {
      root: options.root,
      wildcard: false,
      index: false,
      // Our own Cache-Control (the plugin's would replace what `setHeaders` sets): files under assets/ are named by a hash
      // of their content (Vite's build), so a browser keeps them a year without asking again, and a page reloaded or
      // opened anew in the same tab loads its scripts from its cache instead of a request each; every other file (the
      // HTML, favicon, samples) is asked for again each time, answered 304 while unchanged (ETag, Last-Modified).
      cacheControl: false,
      setHeaders: (response, path) => response.setHeader('Cache-Control', path.startsWith(assets) ? IMMUTABLE : 'no-cache'),
    });
    const hasEmbed = existsSync(join(options.root, 'embed.html'));

    app.get('/embed/*', (_request, reply) =>
      reply.type('text/html; charset=utf-8').sendFile(hasEmbed ? 'embed.html' : 'index.html'),
    );
    // Client-side routes get the app; a missing file (a path with an extension) or API path stays a 404.
    app.get('/*', (request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      if (path.startsWith('/api/') || /\.[A-Za-z0-9]+$/.test(path)) return reply.callNotFound();
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    });
    app.get('/', (_request, reply) => reply.type('text/html; charset=utf-8').sendFile('index.html'));
  },
  { name: 'dashboard' },
);
