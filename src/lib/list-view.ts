/**
 * What a paged list shows, and where (issue 14, point 1): `useShown` keeps a pager describing the rows on screen,
 * `revealTop` scrolls back to the top of the table after paging. Shared by every list page.
 */
import { useState } from 'react';

/**
 * While `pending` is true (a query keeps the previous rows on screen as placeholder data while the requested ones
 * load, e.g. through a 429's wait), the `value` of the last render that was not pending; otherwise `value`. A pager
 * fed `useShown(page, list.isPlaceholderData)` describes the rows on screen, never the page requested.
 */
export function useShown<T>(value: T, pending: boolean): T {
  const [shown, setShown] = useState(value);
  if (!pending && !Object.is(shown, value)) setShown(value);
  return pending ? shown : value;
}

/**
 * Scrolls the window up so the top of `element` shows just under what stays stuck at the top of the screen (every
 * element marked `data-sticky-top`: the header, the throttle notice); does nothing when that top is in view.
 */
export function revealTop(element: Element | null): void {
  if (!element) return;
  let covered = 0;
  for (const sticky of document.querySelectorAll<HTMLElement>('[data-sticky-top]')) covered += sticky.offsetHeight;
  const top = element.getBoundingClientRect().top;
  if (top < covered) window.scrollBy({ top: top - covered - 8 });
}
