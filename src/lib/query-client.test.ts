/**
 * The retry policy for a throttled service (issues 4 and 15): a 429 waits its Retry-After, or, without one, 1 s
 * doubling up to 60 s, each wait reported to the notice (as a guess when the service did not say).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/api/api-error';
import { THROTTLE_RETRIES, createQueryClient, retryDelay, shouldRetry, shouldRetryMutation } from './query-client';
import * as throttle from './throttle';

const throttled = (retryAfter: number | null) =>
  new ApiError({ status: 429, message: 'ThrottlerException: Too Many Requests', retryAfter, endpoint: 'GET /workspaces', url: 'http://h/api/workspaces' });

afterEach(() => {
  vi.restoreAllMocks();
  throttle.clearThrottle();
});

describe('retrying a 429', () => {
  it('backs off 1 s, doubling, at most 60 s when there is no Retry-After, and says the wait is a guess', () => {
    const report = vi.spyOn(throttle, 'reportThrottle');
    const waits = Array.from({ length: THROTTLE_RETRIES }, (_, retry) => retryDelay(retry, throttled(null)));
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60].map((seconds) => seconds * 1000 + 100));
    expect(report.mock.calls).toEqual([1, 2, 4, 8, 16, 32, 60].map((seconds) => [seconds, true]));
  });

  it("waits the service's Retry-After when it sends one", () => {
    const report = vi.spyOn(throttle, 'reportThrottle');
    expect(retryDelay(0, throttled(7))).toBe(7100);
    expect(report).toHaveBeenCalledWith(7, false);
  });

  it('retries queries and mutations until backoff has reached its cap, then gives up without a notice', () => {
    const report = vi.spyOn(throttle, 'reportThrottle');
    expect(shouldRetry(THROTTLE_RETRIES - 1, throttled(null))).toBe(true);
    expect(shouldRetryMutation(THROTTLE_RETRIES - 1, throttled(null))).toBe(true);
    expect(shouldRetry(THROTTLE_RETRIES, throttled(null))).toBe(false);
    expect(shouldRetryMutation(THROTTLE_RETRIES, throttled(null))).toBe(false);
    retryDelay(THROTTLE_RETRIES, throttled(null));
    expect(report).not.toHaveBeenCalled();
  });
});

describe('the throttle notice across queries', () => {
  it('stays while one query waits out a 429, though another query succeeds meanwhile', async () => {
    const client = createQueryClient();
    const clear = vi.spyOn(throttle, 'clearThrottle');
    let calls = 0;
    const slow = client.fetchQuery({
      queryKey: ['slow'],
      queryFn: async () => {
        calls += 1;
        if (calls === 1) throw throttled(1);
        return 'late';
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await client.fetchQuery({ queryKey: ['fast'], queryFn: async () => 'now' });
    expect(clear).not.toHaveBeenCalled();
    expect(await slow).toBe('late');
    expect(clear).toHaveBeenCalled();
  });
});
