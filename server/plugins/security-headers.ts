/**
 * Security headers on every answer, API and errors included (issue 4): a Content-Security-Policy with no inline
 * script and `frame-ancestors 'none'` (plus X-Frame-Options DENY) everywhere except the public embed pages
 * `/embed/*`, which any site may frame; nosniff, no referrer across origins, and helmet's other defaults.
 * `connect-src` is `'self'` plus exactly the origins of `API_ORIGINS` (issue 15: a console whose connect page
 * points at a service on another origin), never a wildcard; server/config.ts has checked they are origins.
 *
 * helmet computes each header set once, at start; every answer then gets it as one constant object
 * (`reply.headers`). @fastify/helmet rebuilt the policy and set each header on every request, a measurable
 * share of an API page (issue 2 benchmark).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

const directives = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  // Mantine writes its CSS variables into a <style> element at run time.
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
  connectSrc: ["'self'"] as string[],
  fontSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

/** The headers helmet sets with `options` (it sets the same ones on every response: no nonces here). */
function helmetHeaders(options: Parameters<typeof helmet>[0]): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = { setHeader: (name: string, value: string) => void (headers[name] = value), removeHeader: (name: string) => void delete headers[name] };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

const common = { crossOriginEmbedderPolicy: false, crossOriginResourcePolicy: { policy: 'cross-origin' }, hsts: false } as const;
const EMBED_PATH = /^\/embed\//;

export type SecurityHeadersOptions = {
  /** `API_ORIGINS`: origins (`https://api.example.com`) the console may call besides its own; none by default. */
  connectOrigins?: readonly string[];
};

export default fp(
  async function securityHeaders(app: FastifyInstance, options: SecurityHeadersOptions) {
    const policy = { ...directives, connectSrc: [...directives.connectSrc, ...(options.connectOrigins ?? [])] };
    const everywhere = helmetHeaders({ ...common, contentSecurityPolicy: { directives: policy }, frameguard: { action: 'deny' } });
    const embeddable = helmetHeaders({ ...common, contentSecurityPolicy: { directives: { ...policy, frameAncestors: ['*'] } }, frameguard: false });
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(EMBED_PATH.test(request.url) ? embeddable : everywhere);
      done();
    });
  },
  { name: 'security-headers' },
);
