/**
 * The workspace sections of the console: route path, navigation label, the scope a key needs to open it
 * (interface document, endpoint table), the lazily loaded page, and whether its records have addresses
 * (`<path>/:recordId`, issue 14 point 2: see src/lib/record-route.ts).
 */
import { type ComponentType, lazy } from 'react';
import type { Scope } from '@/api/scopes';
import { type Area, loadArea } from '@/i18n/i18n';

/** The navigation label of the workspace's home, the overview (`/w/:workspaceId`, issue 24): its catalog key (issue 23). */
export const OVERVIEW_LABEL_KEY = 'shell.sectionOverview';

/** The stand-in of the header's search across workspaces (issue 24), shown until the header tools load: its catalog key. */
export const PEOPLE_SEARCH_LABEL_KEY = 'shell.peopleSearch';

/**
 * `label` is the English name; `labelKey` its catalog key (issue 23), which the shell shows. `scope`: what a key
 * needs to open the section; null for any valid key (the jobs page, issue 20).
 */
export type Section = { path: string; label: string; labelKey: string; scope: Scope | null; Page: ComponentType; records?: boolean };

/** A page's module and its catalog area (issue 23), fetched together. */
const withTexts = <M>(areas: Area | Area[], module: Promise<M>) =>
  Promise.all([module, ...[areas].flat().map((area) => loadArea(area))]).then(([loaded]) => loaded);

export const SECTIONS: Section[] = [
  { path: 'contacts', label: 'Contacts', labelKey: 'shell.sectionContacts', scope: 'contacts:read-only', Page: lazy(() => withTexts(['contacts', 'lists'], import('@/features/contacts/list/contacts-page')).then((m) => ({ default: m.ContactsPage }))), records: true },
  { path: 'products', label: 'Products', labelKey: 'shell.sectionProducts', scope: 'products:read-only', Page: lazy(() => withTexts(['products', 'lists'], import('@/features/products/products-page')).then((m) => ({ default: m.ProductsPage }))), records: true },
  { path: 'collections', label: 'Collections', labelKey: 'shell.sectionCollections', scope: 'products:read-only', Page: lazy(() => withTexts(['collections', 'lists'], import('@/features/collections/collections-page')).then((m) => ({ default: m.CollectionsPage }))), records: true },
  { path: 'posts', label: 'Posts', labelKey: 'shell.sectionPosts', scope: 'posts:read-only', Page: lazy(() => withTexts(['posts', 'embed', 'lists'], import('@/features/posts/posts-page')).then((m) => ({ default: m.PostsPage }))) },
  { path: 'jobs', label: 'Jobs', labelKey: 'shell.sectionJobs', scope: null, Page: lazy(() => withTexts(['jobs', 'tools'], import('@/features/jobs/jobs-page')).then((m) => ({ default: m.JobsPage }))) },
  { path: 'activity', label: 'Activity', labelKey: 'shell.sectionActivity', scope: null, Page: lazy(() => withTexts(['activity', 'jobs', 'tools'], import('@/features/jobs/jobs-page')).then((m) => ({ default: m.ActivityPage }))) },
  { path: 'workspaces', label: 'Workspaces', labelKey: 'shell.sectionWorkspaces', scope: 'feeds:read-only', Page: lazy(() => withTexts(['workspaces', 'lists'], import('@/features/workspaces/workspaces-page')).then((m) => ({ default: m.WorkspacesPage }))) },
];
