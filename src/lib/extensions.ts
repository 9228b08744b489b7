/**
 * Which of our service's extensions (docs/decisions.md section 10, issue 22 point 6) the service on screen has: asked
 * once per key with `GET /extensions` and kept for the session (never stale, never refetched); a 404 (a service
 * without extensions, such as the hosted one) or any error means none, so nothing is offered and nothing breaks.
 * The workspace layout asks on connecting; every place that offers an extension reads the same cached answer.
 */
import { useQuery } from '@tanstack/react-query';
import type { ExtensionName } from '@/api/extensions';
import { useWorkspaceApi } from './api';
import { extensionQuery } from './extension-query';

/** The extensions of the workspace's service: `has(name)` is false until the answer is known, and for a service without it. */
export function useExtensions(): { has: (name: ExtensionName) => boolean; known: boolean } {
  const { api, connection } = useWorkspaceApi();
  const query = useQuery(extensionQuery(api, connection.baseUrl, connection.workspaceId));
  const names = query.data ?? [];
  return { has: (name) => names.includes(name), known: query.isSuccess };
}
