/**
 * The count line and failure text of a server-paged list page (src/components/paged-list.tsx: products and
 * collections), in the language shown (issue 23). Kept apart from list-facets.ts, which the contacts page's first
 * screen loads, so that screen does not carry these texts' code.
 */
import { t } from '@/i18n/i18n';

/**
 * A list's count line: `count` as the page words it (`1 product`, `2 500 produkter passer`, in the language shown);
 * `lastKnown` (the list shows an earlier answer while the person's request waits for the budget, issue 19) adds
 * ` (last known: waiting)` from the `lists` catalog area.
 */
export function countText(count: string, lastKnown = false): string {
  return lastKnown ? t('lists.lastKnown', { count }) : count;
}

/** What a list's table says when its list failed to load, in place of "No ... match" (issue 19: never a false empty list). */
export const notLoadedText = (): string => t('lists.listNotLoaded');
