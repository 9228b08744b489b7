/**
 * Whether the window is a phone's (issue 34 point 8): narrower than 48em, the breakpoint of the console's CSS
 * (src/app/global.css). Lists show cards instead of tables there.
 */
import { useSyncExternalStore } from 'react';

/** The media query of a phone's window, as the CSS states it. */
export const NARROW_QUERY = '(max-width: 48em)';

const subscribe = (onChange: () => void) => {
  const query = window.matchMedia(NARROW_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};

/** True while the window is narrower than 48em; follows a rotation or a resize. */
export function useNarrow(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(NARROW_QUERY).matches, () => false);
}
