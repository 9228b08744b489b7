/**
 * The React Query client and its retry policy (issue 4): never retry a 4xx, except 429, which is retried up
 * to 4 times after the `Retry-After` the service sent (reported to the throttle notice); other failures are
 * retried twice with backoff.
 */
import { QueryClient } from '@tanstack/react-query';
import { isApiError } from '@/api/api-error';
import { clearThrottle, reportThrottle } from './throttle';

/** True when a failed request should be tried again. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error)) {
    if (error.status === 429) return failureCount < 4;
    if (error.status >= 400 && error.status < 500) return false;
  }
  return failureCount < 2;
}

/** Milliseconds to wait before retry `attempt`: `Retry-After` for a 429, else exponential backoff. */
export function retryDelay(attempt: number, error: unknown): number {
  if (isApiError(error) && error.status === 429) {
    const seconds = error.retryAfter ?? 2 ** attempt;
    reportThrottle(seconds);
    return seconds * 1000 + 100;
  }
  return Math.min(1000 * 2 ** attempt, 8000);
}

export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, retryDelay, staleTime: 15_000, refetchOnWindowFocus: false },
      mutations: { retry: (count, error) => isApiError(error) && error.status === 429 && count < 4, retryDelay },
    },
  });
  client.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'success') clearThrottle();
  });
  return client;
}
