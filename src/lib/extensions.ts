/**
 * Which of our service's extensions (docs/decisions.md section 10, issue 22 point 6) the service on screen has: asked
 * once per key with `GET /extensions` and kept for the session (never stale, never refetched); a 404 (a service
 * without extensions, such as the hosted one) or any error means none, so nothing is offered and nothing breaks.
 * The workspace layout asks on connecting; every place that offers an extension reads the same cached answer.
 */
import { useQuery } from '@tanstack/react-query';
import type { ApiClient } from '@/api/client';
import type { ExtensionName } from '@/api/extensions';
import { useWorkspaceApi } from './api';

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

/** The extensions of the workspace's service: `has(name)` is false until the answer is known, and for a service without it. */
export function useExtensions(): { has: (name: ExtensionName) => boolean; known: boolean } {
  const { api, connection } = useWorkspaceApi();
  const query = useQuery(extensionQuery(api, connection.baseUrl, connection.workspaceId));
  const names = query.data ?? [];
  return { has: (name) => names.includes(name), known: query.isSuccess };
}
