/**
 * The extension list's query (issue 22 point 6): an error means none, except a 429, which is asked again after its
 * Retry-After, so a throttled first answer does not hide the extensions for the session.
 */
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '@/api/client';
import { ApiError } from '@/api/api-error';
import { extensionQuery } from './extension-query';
import { clearThrottle } from './throttle';

const refused = (status: number, retryAfter: number | null = null) =>
  new ApiError({ status, message: `HTTP ${status}`, retryAfter, endpoint: 'GET /extensions', url: 'http://h/api/extensions' });

/** A client whose `extensions()` gives each of `answers` in turn (an error is thrown), and how often it was asked. */
function clientAnswering(...answers: (string[] | ApiError)[]) {
  const calls = { count: 0 };
  const api = {
    extensions: async () => {
      const next = answers[Math.min(calls.count++, answers.length - 1)]!;
      if (next instanceof ApiError) throw next;
      return next;
    },
  } as unknown as ApiClient;
  return { api, calls };
}

afterEach(() => clearThrottle());

describe('the extension list query', () => {
  it('asks again after a 429 and keeps the answer that follows', async () => {
    const { api, calls } = clientAnswering(refused(429, 0), ['stats', 'events']);
    const names = await new QueryClient().fetchQuery(extensionQuery(api, 'http://h/api', 'ws1'));
    expect(names).toEqual(['stats', 'events']);
    expect(calls.count).toBe(2);
  });

  it.each([[500], [403], [400]])('takes any other refusal (%i) as no extensions, asked once', async (status) => {
    const { api, calls } = clientAnswering(refused(status));
    expect(await new QueryClient().fetchQuery(extensionQuery(api, 'http://h/api', 'ws1'))).toEqual([]);
    expect(calls.count).toBe(1);
  });
});
