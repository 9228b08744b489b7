/**
 * Endpoint 14, `GET /{workspaceId}/posts` (no key): a workspace's published posts. The typed client's method
 * (src/api/client.ts) and the public embed page's one call (src/embed/main.ts), which builds it on the transport
 * alone so that it carries no other endpoint's schemas (issue 38 point 3).
 */
import type * as z from 'zod/mini';
import { postListSchema } from './posts';
import type { ListCallParams } from './query-string';
import { type ApiClientOptions, type Transport, createTransport } from './transport';
import { pathSegment } from './url';

type PostList = z.infer<typeof postListSchema>;

/** The workspace's published posts, as `ApiClient.listWorkspacePosts` documents them. */
export async function listWorkspacePosts(transport: Pick<Transport, 'json' | 'listCall'>, workspaceId: string, params: ListCallParams = {}): Promise<PostList> {
  return (await transport.json(transport.listCall('GET /{workspaceId}/posts', `/${pathSegment(workspaceId)}/posts`, 'none', params), postListSchema)).data;
}

/** A client of endpoint 14 alone (the embed page's): `listWorkspacePosts` with the typed client's behaviour. */
export function createPublicPostsClient(options: ApiClientOptions) {
  const transport = createTransport(options);
  return { listWorkspacePosts: (workspaceId: string, params?: ListCallParams) => listWorkspacePosts(transport, workspaceId, params) };
}
