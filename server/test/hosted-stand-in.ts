/**
 * A stand-in for a hosted service of the interface (issue 15): a few Fastify routes under `/api` answering the
 * way the real hosted service has been seen to, where it differs from ours (docs/decisions.md keeps ours):
 * - a wrong or revoked key: 403 `{"statusCode":403,"message":"Forbidden resource","error":"Forbidden"}`;
 * - error bodies without `traceId`/`path`/`timestamp`, `message` an array of strings (`POST /contacts`);
 * - 429 `{"statusCode":429,"message":"ThrottlerException: Too Many Requests"}` with no `Retry-After`
 *   (the next `throttleNext` GETs other than `/authorization`);
 * - `GET /contacts/contacts-tags` as an envelope `{ items, meta }`, list answers with extra fields;
 * - an `X-Api-Version` outside `acceptedVersions`: 400 `{"message":"API version X is not supported."}`.
 * Plus, for the proxy tests: `/api/echo/*` answers what it received (method, URL, headers, body as text), and
 * `GET /api/hang` never answers. Used by the client tests, the proxy tests and the browser tests; not a mock of
 * our service, which every other test runs for real.
 */
import Fastify from 'fastify';

export const HOSTED_KEY = 'hosted-key-0123456789';
export const FORBIDDEN_BODY = { statusCode: 403, message: 'Forbidden resource', error: 'Forbidden' };
export const THROTTLED_BODY = { statusCode: 429, message: 'ThrottlerException: Too Many Requests' };
export const VALIDATION_BODY = { statusCode: 400, message: ['email must be an email', 'phone must be a valid phone number'], error: 'Bad Request' };

export const HOSTED_WORKSPACE = { id: 'hosted-ws-1', name: 'Hosted Shop' };
export const HOSTED_ORGANIZATION = { id: 'hosted-org-1', name: 'Hosted Organization' };

export type HostedStandIn = {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `<origin>/api` */
  baseUrl: string;
  /** `X-Api-Version` values answered; any other is a 400. Default `['2026-07']`. */
  acceptedVersions: string[];
  /** How many of the next GETs (but `GET /authorization`) answer 429 without `Retry-After`. */
  throttleNext: number;
  close(): Promise<void>;
};

const contact = {
  id: 'hosted-contact-1',
  feedId: HOSTED_WORKSPACE.id,
  name: 'Hosted Person',
  email: 'person@hosted.test',
  phone: null,
  image: null,
  bio: null,
  address: null,
  city: 'Oslo',
  postalCode: null,
  region: null,
  source: 'api',
  systemSource: null,
  customMessage: null,
  state: 'active',
  tags: ['vip'],
  statusTags: null,
  follows: null,
  notificationSettings: { email: true, sms: false, push: false },
  created: '2026-01-02T03:04:05.000Z',
  updated: '2026-01-02T03:04:05.000Z',
  score: 7,
};

/** Starts the stand-in on a free loopback port. */
export async function startHostedStandIn(): Promise<HostedStandIn> {
  const app = Fastify({ forceCloseConnections: true });
  const standIn = { acceptedVersions: ['2026-07'], throttleNext: 0 };
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/api/echo')) return;
    const version = request.headers['x-api-version'];
    if (typeof version === 'string' && !standIn.acceptedVersions.includes(version)) {
      return reply.code(400).send({ message: `API version ${version} is not supported.` });
    }
    if (request.headers['x-api-key'] !== HOSTED_KEY) return reply.code(403).send(FORBIDDEN_BODY);
    if (standIn.throttleNext > 0 && request.method === 'GET' && request.url !== '/api/authorization') {
      standIn.throttleNext--;
      return reply.code(429).send(THROTTLED_BODY);
    }
  });

  app.get('/api/authorization', async () => ({
    status: 'OK',
    feed: { ...HOSTED_WORKSPACE, imageUrl: null },
    organization: HOSTED_ORGANIZATION,
    permissions: { contacts: 'read-write', products: 'read-only', posts: 'read-write', feeds: 'read-write' },
    plan: 'enterprise',
  }));
  app.get('/api/contacts', async () => ({ items: [contact], meta: { maxResults: 1, pageSize: 20 }, links: { next: null } }));
  app.get('/api/contacts/contacts-tags', async () => ({ items: [{ name: 'vip', count: 1, color: 'gold' }], meta: { maxResults: 1 } }));
  app.post('/api/contacts', async (_request, reply) => reply.code(400).send(VALIDATION_BODY));
  app.get('/api/workspaces', async () => {
    return { items: [{ ...HOSTED_WORKSPACE, imageUrl: null, organizationId: HOSTED_ORGANIZATION.id, created: '2026-01-01T00:00:00.000Z', tier: 'gold' }], meta: { maxResults: 1 } };
  });
  app.get('/api/hang', () => new Promise(() => {}));
  app.all('/api/echo/*', async (request) => ({
    method: request.method,
    url: request.url,
    headers: request.headers,
    body: Buffer.isBuffer(request.body) ? request.body.toString('utf8') : null,
  }));

  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return Object.assign(standIn, { origin, baseUrl: `${origin}/api`, close: () => app.close() });
}
