/**
 * Security headers on every answer, API and errors included (issue 4): a Content-Security-Policy with no inline
 * script and `frame-ancestors 'none'` (plus X-Frame-Options DENY) everywhere except the public embed pages
 * `/embed/*`, which any site may frame; nosniff, no referrer across origins, and helmet's other defaults.
 *
 * Each header set is built once with helmet and applied in an onRequest hook; @fastify/helmet rebuilt the policy
 * on every request, a measurable share of an API page (issue 2 benchmark).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

const directives = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  // Mantine writes its CSS variables into a <style> element at run time.
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

const common = { crossOriginEmbedderPolicy: false, crossOriginResourcePolicy: { policy: 'cross-origin' }, hsts: false } as const;
const everywhere = helmet({ ...common, contentSecurityPolicy: { directives }, frameguard: { action: 'deny' } });
const embeddable = helmet({ ...common, contentSecurityPolicy: { directives: { ...directives, frameAncestors: ['*'] } }, frameguard: false });
const EMBED_PATH = /^\/embed\//;

export default fp(
  async function securityHeaders(app: FastifyInstance) {
    app.addHook('onRequest', (request, reply, done) => {
      const headers = EMBED_PATH.test(request.url) ? embeddable : everywhere;
      headers(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
    });
  },
  { name: 'security-headers' },
);
