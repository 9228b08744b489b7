/**
 * Query options and the mutation of the posts area (docs/style.md, queries): one factory whose keys start with the
 * workspace id, `all -> lists() -> list(params)`, plus the public summaries and the composer's recipient
 * look-ups. Publishing invalidates `all`, so every list of the workspace refetches.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '@/api/client';
import type { Post } from '@/api/posts';
import { type FilterNode, compare, or, literalLike } from '@/api/filter/ast';
import { LIST_STALE_MS } from '@/lib/query-client';
import { resourceQueries } from '@/lib/resource-queries';

/** Contacts whose name or email contains `search` (`name like` / `email like`), built from the AST. */
export function contactSearchFilter(search: string): FilterNode | undefined {
  const value = literalLike(search);
  return value ? or(compare('name', 'like', value), compare('email', 'like', value)) : undefined;
}

/** `list` (a page of `GET /posts`, endpoint 12): the console's shared one (src/lib/resource-queries.ts). */
const posts = resourceQueries<Post>('posts', (api, params) => api.listPosts(params), LIST_STALE_MS.posts);

/** Query options of the posts area, keyed `['ws', workspaceId, 'posts', ...]`. */
export const postQueries = {
  ...posts,
  /** `GET /public-posts?limit=` (endpoint 13), as the public sees them. */
  publicPosts: (api: ApiClient, workspaceId: string, limit: number) =>
    queryOptions({
      queryKey: [...posts.all(workspaceId), 'public', limit],
      queryFn: ({ signal }) => api.listPublicPosts({ limit, signal }),
      placeholderData: keepPreviousData,
    }),
  /** The workspace's contact tags, offered as recipients (`GET /contacts/contacts-tags`). */
  recipientTags: (api: ApiClient, workspaceId: string) =>
    queryOptions({
      queryKey: [...posts.all(workspaceId), 'recipients', 'tags'],
      queryFn: ({ signal }) => api.listContactTags({ signal }),
      staleTime: 60_000,
    }),
  /** Up to 20 contacts matching `search` by name or email, offered as recipients. */
  recipientContacts: (api: ApiClient, workspaceId: string, search: string) =>
    queryOptions({
      queryKey: [...posts.all(workspaceId), 'recipients', 'contacts', search],
      queryFn: ({ signal }) => api.listContacts({ filter: contactSearchFilter(search), orderBy: [{ field: 'name', direction: 'asc' }], limit: 20, signal }),
      placeholderData: keepPreviousData,
      staleTime: 30_000,
    }),
};
