/**
 * The page's first interaction (issue 16): the first time the person moves or presses the pointer, touches the
 * screen, presses a key, scrolls with the wheel or moves the focus. Widgets no one can use before that (popovers,
 * menus, tooltips, the tag picker) load their code then, not with the first screen, whose JavaScript budget
 * counts everything fetched until the screen is usable and the network is idle (scripts/first-screens.json).
 *
 * Only events the browser marks as trusted count, and not the pointer move Chromium's headless shell sends to every
 * page it loads: at 0,0, with no movement, before anything moved (a person's pointer is never there without having
 * moved to it, and a move of theirs goes on with events that count). Once it happened it stays true for the life of
 * the page (client-side navigations included).
 */
import { useSyncExternalStore } from 'react';

// Not `pointerover`: Chromium fires it when the page renders under a pointer that did not move.
const EVENTS = ['pointerdown', 'pointermove', 'touchstart', 'keydown', 'wheel', 'focusin'] as const;

let interacted = false;
const listeners = new Set<() => void>();

function onInteraction(event: Event) {
  if (!event.isTrusted || interacted) return;
  if (event.type === 'pointermove' && isRestingAtOrigin(event as PointerEvent)) return;
  interacted = true;
  for (const name of EVENTS) window.removeEventListener(name, onInteraction, true);
  for (const listener of listeners) listener();
  listeners.clear();
}

const isRestingAtOrigin = (event: PointerEvent) => event.clientX === 0 && event.clientY === 0 && event.movementX === 0 && event.movementY === 0;

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
