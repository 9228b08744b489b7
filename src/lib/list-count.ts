/**
 * The count line and failure text of a server-paged list page (src/components/paged-list.tsx: products and
 * collections), in the language shown (issue 23). Kept apart from list-facets.ts, which the contacts page's first
 * screen loads, so that screen does not carry these texts' code.
 */
import { t } from '@/i18n/i18n';

/** What the rows of a server-paged list page (src/components/paged-list.tsx) are. */
export type ListNoun = 'product' | 'collection';

/**
 * A list's count line in the language shown (the `lists` catalog area, ICU plurals, the number through Intl):
 * `1 product`, `2,500 matching products` (`2 500 produkter passer`); `lastKnown` (the list shows an earlier answer
 * while the person's request waits for the budget, issue 19) adds ` (last known: waiting)`.
 */
export function countText(total: number, filtered: boolean, noun: ListNoun, lastKnown = false): string {
  const matching = filtered && !lastKnown;
  const count =
    noun === 'product'
      ? matching ? t('lists.countMatchingProducts', { count: total }) : t('lists.countProducts', { count: total })
      : matching ? t('lists.countMatchingCollections', { count: total }) : t('lists.countCollections', { count: total });
  return lastKnown ? t('lists.lastKnown', { count }) : count;
}

/** What a list's table says when its list failed to load, in place of "No ... match" (issue 19: never a false empty list). */
export const notLoadedText = (): string => t('lists.listNotLoaded');
