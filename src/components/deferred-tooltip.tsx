/**
 * A Mantine Tooltip whose code (floating-ui, a large share of the console's JavaScript) loads at the page's first
 * interaction (src/lib/first-interaction.ts; issue 16): a tooltip is never needed before the person points at
 * something. Until it loads, the native `title` attribute carries the same text; when it loads under the pointer
 * (or the focus), it opens at once.
 */
import { type ReactElement, Suspense, cloneElement, lazy, useRef } from 'react';
import { useFirstInteraction } from '@/lib/first-interaction';

const LoadedTooltip = lazy(() => import('./tooltip-loaded').then((m) => ({ default: m.LoadedTooltip })));

export function DeferredTooltip({ label, children, disabled, position = 'right' }: { label: string; children: ReactElement<{ title?: string }>; disabled?: boolean; position?: 'right' | 'top' | 'bottom' | 'left' }) {
  const interacted = useFirstInteraction();
  const anchor = useRef<HTMLSpanElement>(null);
  if (disabled) return children;
  const standIn = cloneElement(children, { title: label });
  return (
    <span ref={anchor} style={{ display: 'contents' }}>
      {interacted ? (
        <Suspense fallback={standIn}>
          <LoadedTooltip label={label} position={position} anchor={anchor}>
            {children}
          </LoadedTooltip>
        </Suspense>
      ) : (
        standIn
      )}
    </span>
  );
}
