/**
 * The query of a key's extension list (`GET /extensions`, docs/decisions.md section 10), apart from src/lib/extensions.ts
 * so that connecting (src/lib/connect-key.ts) can ask it without the workspace's client module: the answer it caches is
 * the one every place that offers an extension reads.
 */
import type { ApiClient } from '@/api/client';

/**
 * Query options of the extension list of one key: the console keeps one key per workspace, so `baseUrl` and
 * `workspaceId` name it (the key itself stays out of query keys). Outside the `['ws', id]` prefix, so a workspace's
 * invalidations never ask again.
 */
export const extensionQuery = (api: ApiClient, baseUrl: string, workspaceId: string) => ({
  queryKey: ['extensions', baseUrl, workspaceId] as const,
  queryFn: async (): Promise<string[]> => {
    try {
      return await api.extensions();
    } catch {
      return []; // an error means none (issue 22 point 6)
    }
  },
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
  retry: false,
});

