/** The loaded half of DeferredTooltip: a named import, so the bundler keeps only the Tooltip of @mantine/core. */
import { Tooltip } from '@mantine/core';
import { type ReactElement, type RefObject, useState } from 'react';

/** `anchor` wraps the element: when the pointer or the focus is on it as the code arrives, the tooltip opens. */
export function LoadedTooltip({ label, children, position, anchor }: { label: string; children: ReactElement; position: 'right' | 'top' | 'bottom' | 'left'; anchor: RefObject<HTMLElement | null> }) {
  const [active] = useState(() => Boolean(anchor.current?.matches(':hover, :focus-within')));
  return (
    <Tooltip label={label} position={position} defaultOpened={active}>
      {children}
    </Tooltip>
  );
}
