/** The loaded half of DeferredTooltip: a named import, so the bundler keeps only the Tooltip of @mantine/core. */
import { Tooltip } from '@mantine/core';
import type { ReactElement } from 'react';

export function LoadedTooltip({ label, children, position }: { label: string; children: ReactElement; position: 'right' | 'top' | 'bottom' | 'left' }) {
  return (
    <Tooltip label={label} position={position}>
      {children}
    </Tooltip>
  );
}
