/**
 * A lazy widget whose code loads at the page's first interaction (src/lib/first-interaction.ts; issue 16), not
 * with the first screen: `fallback` (a light stand-in that looks the same: a plain button, a read-only input)
 * shows until then and while the code loads; `children` (the `React.lazy` component) after. A drop-in for
 * `<Suspense fallback={...}>`.
 *
 * Nothing the person does on the stand-in is lost: a click on it (or Enter/Space, which click a button) is
 * replayed on the loaded widget's first control, and focus moves there when the stand-in had it, so a menu
 * clicked before its code arrived opens once it does; what was typed into a stand-in's read-only input is typed into
 * the loaded widget's input (a search field's first letters, typed while its code loaded). A press that went down
 * on the stand-in and comes up on the widget that replaced it meanwhile is a click too: the browser sends that click
 * to neither (the element pressed is gone), so it is replayed when the press ends on the widget's control.
 */
import { type ReactNode, Suspense, useEffect, useRef } from 'react';
import { useFirstInteraction } from '@/lib/first-interaction';

const CONTROL = 'button:not([disabled]), input:not([disabled]):not([type="hidden"]), [role="combobox"], a[href]';

/**
 * Which control of the stand-in was clicked, which is pressed without its click yet, which had the focus (indexes
 * among its controls), if any, and the text typed into it meanwhile.
 */
type Pending = { click: number | null; press: number | null; focus: number | null; text: string };

const NO_PENDING: Pending = { click: null, press: null, focus: null, text: '' };

/**
 * Puts `text` into `input` as typing would: through the native value setter and an `input` event, so React's
 * onChange (the widget's own state) sees it.
 */
function typeInto(input: HTMLInputElement, text: string): void {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  setter?.call(input, input.value + text);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

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
    const { click, press, focus, text } = pending.current;
    // A press still down waits for its end on the widget (AfterInteraction's onPointerUp).
    pending.current = { ...NO_PENDING, press };
    if (click === null && focus === null) return;
    const frame = requestAnimationFrame(() => {
      const controls = wrapper.current?.querySelectorAll<HTMLElement>(CONTROL);
      if (!controls) return;
      // What was typed into the stand-in goes into the input of the control that had the focus.
      const typeInput = (index: number) => {
        const control = controls[index];
        const input = control instanceof HTMLInputElement ? control : control?.querySelector('input');
        if (text && input && !input.readOnly) typeInto(input, text);
      };
      if (click !== null) {
        controls[click]?.focus();
        controls[click]?.click();
        typeInput(focus ?? click);
        return;
      }
      // The stand-in had the focus when it went away (the focus fell back to the body): its replacement takes it.
      if (focus !== null && (!document.activeElement || document.activeElement === document.body)) {
        controls[focus]?.focus();
        typeInput(focus);
      }
    });
    return () => cancelAnimationFrame(frame);
  }, [wrapper, pending]);
  return null;
}

export function AfterInteraction({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  const interacted = useFirstInteraction();
  const wrapper = useRef<HTMLSpanElement>(null);
  const pending = useRef<Pending>(NO_PENDING);
  const standIn = () => wrapper.current?.querySelector('[data-stand-in]');
  // Only events on the stand-in are remembered: once the widget is in, they reach it directly.
  const onStandIn = (kind: 'click' | 'focus') => (event: React.SyntheticEvent) => {
    const index = controlIndex(standIn(), event.target);
    if (index === null) return;
    // A click ends the press it came from: nothing of that is left to replay.
    pending.current = kind === 'click' ? { ...pending.current, click: index, press: null } : { ...pending.current, focus: index };
  };
  // Every press in the wrapper replaces the last: one on the widget itself (or off any control) leaves none pending, so
  // a press that once began on the stand-in and ended elsewhere is never replayed later.
  const onPointerDown = (event: React.PointerEvent) => {
    pending.current = { ...pending.current, press: controlIndex(standIn(), event.target) };
  };
  // The end of a press that began on the stand-in. While the stand-in is there its click follows (onStandIn). Once the
  // widget replaced it, the press lost its click (the element pressed is gone): when it ends on the widget's control
  // in the stand-in's place, that control is clicked, once this event and the browser's own click are over.
  const onPointerUp = (event: React.PointerEvent) => {
    const { press } = pending.current;
    if (press === null || standIn()) return;
    pending.current = { ...pending.current, press: null };
    const control = wrapper.current?.querySelectorAll<HTMLElement>(CONTROL)[press];
    if (!control || !(event.target instanceof Node) || !control.contains(event.target)) return;
    setTimeout(() => {
      control.focus();
      control.click();
    });
  };
  // Letters typed into a read-only input of the stand-in (Backspace takes the last back), for the widget's input.
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (!(event.target instanceof HTMLInputElement) || controlIndex(standIn(), event.target) === null) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const { text } = pending.current;
    if (event.key.length === 1) pending.current = { ...pending.current, text: text + event.key };
    else if (event.key === 'Backspace') pending.current = { ...pending.current, text: text.slice(0, -1) };
  };
  return (
    <span ref={wrapper} style={{ display: 'contents' }} onPointerDownCapture={onPointerDown} onPointerUpCapture={onPointerUp} onClickCapture={onStandIn('click')} onFocusCapture={onStandIn('focus')} onKeyDownCapture={onKeyDown}>
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
