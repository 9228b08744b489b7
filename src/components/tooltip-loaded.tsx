/** The loaded half of DeferredTooltip: a named import, so the bundler keeps only the Tooltip of @mantine/core. */
import { Tooltip } from '@mantine/core';
import type { ReactElement } from 'react';

export function LoadedTooltip({ label, children }: { label: string; children: ReactElement }) {
  return (
    <Tooltip label={label} position="right">
      {children}
    </Tooltip>
  );
}
