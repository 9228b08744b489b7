/**
 * The workspace sections of the console: route path, navigation label, the scope a key needs to open it
 * (interface document, endpoint table), the lazily loaded page, and whether its records have addresses
 * (`<path>/:recordId`, issue 14 point 2: see src/lib/record-route.ts).
 */
import { type ComponentType, lazy } from 'react';
import type { Scope } from '@/api/scopes';

/** The navigation label of the workspace's home, the overview (`/w/:workspaceId`, issue 24). */
export const OVERVIEW_LABEL = 'Overview';

/** The stand-in of the header's search across workspaces (issue 24), shown until the header tools load. */
export const PEOPLE_SEARCH_LABEL = 'Search people in every workspace';

/** `scope`: what a key needs to open the section; null for any valid key (the jobs page, issue 20). */
export type Section = { path: string; label: string; scope: Scope | null; Page: ComponentType; records?: boolean };

export const SECTIONS: Section[] = [
  { path: 'contacts', label: 'Contacts', scope: 'contacts:read-only', Page: lazy(() => import('@/features/contacts/contacts-page').then((m) => ({ default: m.ContactsPage }))), records: true },
  { path: 'products', label: 'Products', scope: 'products:read-only', Page: lazy(() => import('@/features/products/products-page').then((m) => ({ default: m.ProductsPage }))), records: true },
  { path: 'collections', label: 'Collections', scope: 'products:read-only', Page: lazy(() => import('@/features/collections/collections-page').then((m) => ({ default: m.CollectionsPage }))), records: true },
  { path: 'posts', label: 'Posts', scope: 'posts:read-only', Page: lazy(() => import('@/features/posts/posts-page').then((m) => ({ default: m.PostsPage }))) },
  { path: 'jobs', label: 'Jobs', scope: null, Page: lazy(() => import('@/features/jobs/jobs-page').then((m) => ({ default: m.JobsPage }))) },
  { path: 'workspaces', label: 'Workspaces', scope: 'feeds:read-only', Page: lazy(() => import('@/features/workspaces/workspaces-page').then((m) => ({ default: m.WorkspacesPage }))) },
];
