/**
 * The typed client against a hosted-style service (issue 15): real HTTP to the stand-in of
 * server/test/hosted-stand-in.ts, whose answers differ from ours where the hosted service has been seen to:
 * 403 for a wrong key, error bodies without traceId/path/timestamp and with `message` arrays, 429 without
 * Retry-After, a tags envelope, extra fields, an unsupported version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostedStandIn, HOSTED_KEY, HOSTED_WORKSPACE, startHostedStandIn } from '../../server/test/hosted-stand-in';
import { ApiError, isAuthError } from './api-error';
import { apiErrorFromResponse } from './api-error-response';
import { createApiClient } from './client';

let hosted: HostedStandIn;
beforeAll(async () => {
  hosted = await startHostedStandIn();
});
afterAll(() => hosted.close());

const client = (apiKey = HOSTED_KEY, version?: string) => createApiClient({ baseUrl: hosted.baseUrl, apiKey, version });

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (reason: unknown) => reason,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('a hosted-style service', () => {
  it('turns 403 Forbidden resource for a wrong key into an auth error with that message', async () => {
    const error = await failure(client('wsk_wrong').authorization());
    expect(error.status).toBe(403);
    expect(isAuthError(error)).toBe(true);
    expect(error.message).toBe('Forbidden resource');
    expect(error.body).toBeNull();
    expect(error.traceId).toBeNull();
  });

  it('joins a message array into sentences, never [object Object]', async () => {
    const error = await failure(client().createContact({ email: 'nope' }));
    expect(error.status).toBe(400);
    expect(error.message).toBe('email must be an email; phone must be a valid phone number');
  });

  it('reads sentences out of class-validator objects and falls back to `error`', () => {
    const nested = { statusCode: 400, message: [{ property: 'email', constraints: { isEmail: 'email must be an email', maxLength: 'email is too long' } }], error: 'Bad Request' };
    const parse = (body: unknown, status = 400) => apiErrorFromResponse(new Response(JSON.stringify(body), { status }), JSON.stringify(body), 'POST /contacts', 'http://h/api/contacts').message;
    expect(parse(nested)).toBe('email must be an email; email is too long');
    expect(parse({ statusCode: 404, error: 'Not Found' }, 404)).toBe('Not Found');
    expect(parse({ statusCode: 400, message: { detail: 'bad', code: 7 } })).toBe('bad; 7');
  });

  it('gives a 429 without Retry-After a null retryAfter and its message', async () => {
    hosted.throttleNext = 1;
    const error = await failure(client().listWorkspaces());
    expect(error.status).toBe(429);
    expect(error.retryAfter).toBeNull();
    expect(error.message).toBe('ThrottlerException: Too Many Requests');
    expect((await client().listWorkspaces()).items[0]).toMatchObject({ ...HOSTED_WORKSPACE, tier: 'gold' });
  });

  it('reads contacts-tags as an envelope and keeps extra fields of lists and items', async () => {
    expect(await client().listContactTags()).toEqual([{ name: 'vip', count: 1, color: 'gold' }]);
    const contacts = await client().listContacts({ limit: 20 });
    expect(contacts.meta).toMatchObject({ maxResults: 1, pageSize: 20 });
    expect(contacts.items[0]).toMatchObject({ id: 'hosted-contact-1', score: 7 });
    expect((await client().authorization()).feed).toEqual({ ...HOSTED_WORKSPACE, imageUrl: null });
  });

  it('shows an unsupported API version as the service words it', async () => {
    const error = await failure(client(HOSTED_KEY, '2099-01').authorization());
    expect(error.status).toBe(400);
    expect(error.message).toBe('API version 2099-01 is not supported.');
  });
});
