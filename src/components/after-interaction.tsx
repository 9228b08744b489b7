/**
 * A lazy widget whose code loads at the page's first interaction (src/lib/first-interaction.ts; issue 16), not
 * with the first screen: `fallback` (a light stand-in that looks the same: a plain button, a read-only input)
 * shows until then and while the code loads; `children` (the `React.lazy` component) after. A drop-in for
 * `<Suspense fallback={...}>`.
 *
 * Nothing the person does on the stand-in is lost: a click on it (or Enter/Space, which click a button) is
 * replayed on the loaded widget's first control, and focus moves there when the stand-in had it, so a menu
 * clicked before its code arrived opens once it does.
 */
import { type ReactNode, Suspense, useEffect, useRef } from 'react';
import { useFirstInteraction } from '@/lib/first-interaction';

const CONTROL = 'button:not([disabled]), input:not([disabled]):not([type="hidden"]), [role="combobox"], a[href]';

/** Which control of the stand-in was clicked and which had the focus (indexes among its controls), if any. */
type Pending = { click: number | null; focus: number | null };

/** The index of the control holding `target` among the controls of `root`, or null. */
function controlIndex(root: Element | null | undefined, target: EventTarget | null): number | null {
  if (!root || !(target instanceof Node) || !root.contains(target)) return null;
  const index = [...root.querySelectorAll(CONTROL)].findIndex((control) => control.contains(target));
  return index < 0 ? null : index;
}

/**
 * Runs once the loaded children are in (a sibling in their Suspense boundary) and replays what the stand-in got,
 * a frame later, so the widget's own effects (a popover's positioning, its transition) have run first.
 */
function Replay({ wrapper, pending }: { wrapper: React.RefObject<HTMLSpanElement | null>; pending: React.RefObject<Pending> }) {
  useEffect(() => {
    const { click, focus } = pending.current;
    pending.current = { click: null, focus: null };
    if (click === null && focus === null) return;
    const frame = requestAnimationFrame(() => {
      const controls = wrapper.current?.querySelectorAll<HTMLElement>(CONTROL);
      if (!controls) return;
      if (click !== null) {
        controls[click]?.focus();
        controls[click]?.click();
        return;
      }
      // The stand-in had the focus when it went away (the focus fell back to the body): its replacement takes it.
      if (focus !== null && (!document.activeElement || document.activeElement === document.body)) controls[focus]?.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [wrapper, pending]);
  return null;
}

export function AfterInteraction({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  const interacted = useFirstInteraction();
  const wrapper = useRef<HTMLSpanElement>(null);
  const pending = useRef<Pending>({ click: null, focus: null });
  // Only events on the stand-in are remembered: once the widget is in, they reach it directly.
  const onStandIn = (kind: keyof Pending) => (event: React.SyntheticEvent) => {
    const index = controlIndex(wrapper.current?.querySelector('[data-stand-in]'), event.target);
    if (index !== null) pending.current[kind] = index;
  };
  return (
    <span ref={wrapper} style={{ display: 'contents' }} onClickCapture={onStandIn('click')} onFocusCapture={onStandIn('focus')}>
      {interacted ? (
        <Suspense fallback={<StandIn>{fallback}</StandIn>}>
          {children}
          <Replay wrapper={wrapper} pending={pending} />
        </Suspense>
      ) : (
        <StandIn>{fallback}</StandIn>
      )}
    </span>
  );
}

function StandIn({ children }: { children: ReactNode }) {
  return (
    <span data-stand-in style={{ display: 'contents' }}>
      {children}
    </span>
  );
}
