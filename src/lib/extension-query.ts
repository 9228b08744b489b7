/**
 * The query of a key's extension list (`GET /extensions`, docs/decisions.md section 10), apart from src/lib/extensions.ts
 * so that connecting (src/lib/connect-key.ts) can ask it without the workspace's client module: the answer it caches is
 * the one every place that offers an extension reads.
 */
import type { ApiClient } from '@/api/client';
import { isApiError } from '@/api/api-error';
import { retryDelay, shouldRetry } from './query-client';

/**
 * Query options of the extension list of one key: the console keeps one key per workspace, so `baseUrl` and
 * `workspaceId` name it (the key itself stays out of query keys). Outside the `['ws', id]` prefix, so a workspace's
 * invalidations never ask again. An error means none (issue 22 point 6), except a 429, which says nothing of the
 * extensions: it is asked again after its `Retry-After` as any read (query-client.ts), and the screen meanwhile offers
 * none, as while the first answer is on its way (issue 19's budget: a 429 here must not hide them for the session).
 */
export const extensionQuery = (api: ApiClient, baseUrl: string, workspaceId: string) => ({
  queryKey: ['extensions', baseUrl, workspaceId] as const,
  queryFn: async (): Promise<string[]> => {
    try {
      return await api.extensions();
    } catch (error) {
      if (isApiError(error) && error.status === 429) throw error;
      return []; // an error means none (issue 22 point 6)
    }
  },
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
  retry: shouldRetry,
  retryDelay,
});
