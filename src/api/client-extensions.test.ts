/**
 * The typed client's extension methods (docs/decisions.md sections 9 and 10) against the real service
 * (server/test/harness.ts), and `extensions()` against the hosted-service stand-in, which has none (a 404: `[]`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startServer } from '../../server/test/harness';
import { HOSTED_KEY, type HostedStandIn, startHostedStandIn } from '../../server/test/hosted-stand-in';
import { isApiError } from './api-error';
import { type ApiClient, createApiClient } from './client';
import { EXTENSION_NAMES } from './extensions';
import { compare } from './filter/ast';

let server: TestServer;
let api: ApiClient;
const sent: Headers[] = [];
beforeAll(async () => {
  server = await startServer();
  api = createApiClient({
    baseUrl: server.baseUrl,
    apiKey: server.a.key,
    fetch: async (input, init) => {
      sent.push(new Headers(init?.headers));
      return fetch(input, init);
    },
  });
});
afterAll(() => server.close());

describe('extension methods of the typed client', () => {
  it('lists the service’s extensions', async () => {
    expect(await api.extensions()).toEqual([...EXTENSION_NAMES]);
  });

  it('corrects a contact, sending its Idempotency-Key, and erases it', async () => {
    const created = await api.createContact({ name: 'Ola', email: 'ola@exmaple.com' });
    const corrected = await api.updateContact(created.id, { email: 'ola@example.com', city: null }, { idempotencyKey: 'fix-ola-1' });
    expect(corrected).toMatchObject({ id: created.id, email: 'ola@example.com', city: null });
    expect(sent.at(-1)?.get('idempotency-key')).toBe('fix-ola-1');
    await expect(api.eraseContact(created.id)).resolves.toBeUndefined();
    const again = await api.eraseContact(created.id).catch((error: unknown) => error);
    expect(isApiError(again) && again.status).toBe(404);
  });

  it('lists post requests with a filter and withdraws a scheduled one', async () => {
    const { body } = await api.createPostRequest({ action: 'schedule', header: 'Later', publishDate: new Date(Date.now() + 3_600_000).toISOString() });
    const listed = await api.listPostRequests({ filter: compare('state', 'eq', 'scheduled') });
    expect(listed.items.map((item) => item.requestId)).toContain(body.requestId);
    await api.withdrawPostRequest(body.requestId);
    expect((await api.listPostRequests()).items.map((item) => item.requestId)).not.toContain(body.requestId);
  });

  it('deletes a product and a collection', async () => {
    const collection = await api.upsertCollection({ title: 'Gone soon' });
    const product = await api.upsertProduct({ title: 'Gone soon', collectionIds: [collection.id] });
    await api.deleteCollection(collection.id);
    await api.deleteProduct(product.id);
    expect((await api.listProducts({ filter: compare('id', 'eq', product.id) })).meta.maxResults).toBe(0);
  });
});

describe('extensions() against a service without them', () => {
  let hosted: HostedStandIn;
  beforeAll(async () => {
    hosted = await startHostedStandIn();
  });
  afterAll(() => hosted.close());

  it('resolves to [] when GET /extensions is a 404', async () => {
    const client = createApiClient({ baseUrl: hosted.baseUrl, apiKey: HOSTED_KEY });
    expect(await client.extensions()).toEqual([]);
  });
});
