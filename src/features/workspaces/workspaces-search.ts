/**
 * The workspaces page's state in the URL (docs/style.md, lists): name search, sort, page and page size, parsed with
 * zod so a bad URL falls back to defaults.
 */
import * as z from 'zod/mini';
import { t } from '@/i18n/i18n';
import type { WorkspaceOrder } from './queries';

/** Sort choices: the catalog key of the label (issue 23) and `$orderBy`. */
export const WORKSPACE_SORTS = {
  'name-asc': { labelKey: 'workspaces.sortNameAsc', orderBy: 'name asc' },
  'name-desc': { labelKey: 'workspaces.sortNameDesc', orderBy: 'name desc' },
  'created-desc': { labelKey: 'workspaces.sortNewest', orderBy: 'created desc' },
  'created-asc': { labelKey: 'workspaces.sortOldest', orderBy: 'created asc' },
} as const satisfies Record<string, { labelKey: string; orderBy: WorkspaceOrder }>;
export type WorkspaceSort = keyof typeof WORKSPACE_SORTS;

export const WORKSPACE_PAGE_SIZES = [10, 20, 50] as const;

const searchSchema = z.object({
  q: z.catch(z.string().check(z.maxLength(200)), ''),
  sort: z.catch(z.enum(Object.keys(WORKSPACE_SORTS) as [WorkspaceSort, ...WorkspaceSort[]]), 'name-asc'),
  page: z.catch(z.coerce.number().check(z.int(), z.gte(1), z.lte(100_000)), 1),
  size: z.catch(z.pipe(z.coerce.number(), z.union(WORKSPACE_PAGE_SIZES.map((size) => z.literal(size)))), 20),
});
export type WorkspacesSearch = z.infer<typeof searchSchema>;
export const WORKSPACES_SEARCH_DEFAULTS: WorkspacesSearch = searchSchema.parse({});

/** Reads the URL's search parameters; anything missing or invalid takes its default. */
export function parseWorkspacesSearch(params: URLSearchParams): WorkspacesSearch {
  return searchSchema.parse(Object.fromEntries(params));
}

/** The search parameters for `search`, defaults left out. */
export function workspacesSearchParams(search: WorkspacesSearch): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of Object.keys(WORKSPACES_SEARCH_DEFAULTS) as (keyof WorkspacesSearch)[]) {
    if (search[key] !== WORKSPACES_SEARCH_DEFAULTS[key]) params.set(key, String(search[key]));
  }
  return params;
}

/**
 * The `<iframe>` snippet that embeds a workspace's public page on another site; its `title` ("Posts from …") in the
 * language shown when it is copied (the `workspaces` catalog).
 */
export function iframeSnippet(origin: string, workspace: { id: string; name: string }): string {
  const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const src = `${origin.replace(/\/$/, '')}/embed/${encodeURIComponent(workspace.id)}`;
  return `<iframe src="${attr(src)}" title="${attr(t('workspaces.iframeTitle', { name: workspace.name }))}" width="100%" height="640" style="border:0;max-width:680px" loading="lazy"></iframe>`;
}
