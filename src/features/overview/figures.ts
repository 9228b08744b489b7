/**
 * What the overview counts and where its figures link (issue 24 points 1 to 3): every `$filter` built with the
 * shared AST builders and printed by the shared printer (docs/style.md: never concatenated by hand), on the fields
 * docs/decisions.md section 6 allows for each endpoint, and the console addresses that open the matching list.
 */
import { type FilterNode, and, compare } from '@/api/filter/ast';
import { printFilter } from '@/api/filter/print';
import type { WeekBucket } from './week-buckets';

/** Contacts in `state` (`pending` or `active`, docs/decisions.md section 7). */
export function stateFilter(state: string): FilterNode {
  return compare('state', 'eq', state);
}

/** Contacts created in `week`: `created ge <start> and created lt <end>` (instants in ISO 8601, UTC). */
export function weekFilter(week: WeekBucket): FilterNode {
  return and(compare('created', 'ge', week.start.toISOString()), compare('created', 'lt', week.end.toISOString()));
}

/** Contacts that have the tag `name` (`eq` on a string array means "has", docs/decisions.md section 6). */
export function tagFilter(name: string): FilterNode {
  return compare('tags', 'eq', name);
}

/** Posts published at or after `since`. */
export function publishedSinceFilter(since: Date): FilterNode {
  return compare('publishedDate', 'ge', since.toISOString());
}

/** The instant `days` days of 24 hours before `now`. */
export function daysBefore(now: Date, days: number): Date {
  return new Date(now.getTime() - days * 86_400_000);
}

/** Products for sale (`true`) or not (`false`). */
export function forSaleFilter(forSale: boolean): FilterNode {
  return compare('isForSale', 'eq', forSale);
}

/** Products in the collection `collectionId` (`eq` on `collectionIds` means "has"). */
export function inCollectionFilter(collectionId: string): FilterNode {
  return compare('collectionIds', 'eq', collectionId);
}

/**
 * The contacts list of `workspaceId` showing the contacts `filter` matches: `/w/<id>/contacts?filter=<$filter text>`,
 * the advanced filter the contacts page reads from its URL (src/features/contacts/list/contact-search.ts, `filter`).
 */
export function contactsListHref(workspaceId: string, filter: FilterNode): string {
  return `/w/${encodeURIComponent(workspaceId)}/contacts?${new URLSearchParams({ filter: printFilter(filter) }).toString()}`;
}

/** The products list of `workspaceId` narrowed to one collection (`?collection=<id>`, the products page's facet). */
export function collectionProductsHref(workspaceId: string, collectionId: string): string {
  return `/w/${encodeURIComponent(workspaceId)}/products?${new URLSearchParams({ collection: collectionId }).toString()}`;
}
