/**
 * A Mantine Tooltip loaded after the first paint: popover code (floating-ui) is a large share of the console's
 * JavaScript, and a tooltip is never needed before the user points at something. Until it loads, the native
 * `title` attribute carries the same text.
 */
import { type ReactElement, Suspense, cloneElement, lazy } from 'react';

const LoadedTooltip = lazy(() => import('./tooltip-loaded').then((m) => ({ default: m.LoadedTooltip })));

export function DeferredTooltip({ label, children, disabled, position = 'right' }: { label: string; children: ReactElement<{ title?: string }>; disabled?: boolean; position?: 'right' | 'top' | 'bottom' | 'left' }) {
  if (disabled) return children;
  return (
    <Suspense fallback={cloneElement(children, { title: label })}>
      <LoadedTooltip label={label} position={position}>
        {children}
      </LoadedTooltip>
    </Suspense>
  );
}
