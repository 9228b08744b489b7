/**
 * The page's first interaction (issue 16): the first time the person moves or presses the pointer, touches the
 * screen, presses a key, scrolls with the wheel or moves the focus. Widgets no one can use before that (popovers,
 * menus, tooltips, the tag picker) load their code then, not with the first screen, whose JavaScript budget
 * counts everything fetched until the screen is usable and the network is idle (scripts/first-screens.json).
 *
 * Only events the browser marks as trusted count, so a script focusing an element does not load anything. Once
 * it happened it stays true for the life of the page (client-side navigations included).
 */
import { useSyncExternalStore } from 'react';

// Not `pointerover`: Chromium fires it when the page renders under a pointer that did not move.
const EVENTS = ['pointerdown', 'pointermove', 'touchstart', 'keydown', 'wheel', 'focusin'] as const;

let interacted = false;
const listeners = new Set<() => void>();

function onInteraction(event: Event) {
  if (!event.isTrusted || interacted) return;
  interacted = true;
  for (const name of EVENTS) window.removeEventListener(name, onInteraction, true);
  for (const listener of listeners) listener();
  listeners.clear();
}

if (typeof window !== 'undefined') {
  for (const name of EVENTS) window.addEventListener(name, onInteraction, { capture: true, passive: true });
}

/** True once the person has interacted with the page (see the module's docstring). */
export function hasInteracted(): boolean {
  return interacted;
}

function subscribe(listener: () => void): () => void {
  if (interacted) return () => undefined;
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** React view of `hasInteracted()`: re-renders once, at the first interaction. */
export function useFirstInteraction(): boolean {
  return useSyncExternalStore(subscribe, hasInteracted, () => false);
}
