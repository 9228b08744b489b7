/**
 * "Import CSV" on the products page (issue 6). The button is all the page loads: the dialog (Mantine Modal, the
 * mapping and report code, papaparse) is a lazy chunk fetched on the first click. Disabled, with the reason in a tooltip, for a key without products:read-write.
 */
import { Button } from '@mantine/core';
import { Suspense, lazy, useState } from 'react';
import { DeferredTooltip } from '@/components/deferred-tooltip';
import { useWorkspaceApi } from '@/lib/api';
import { allows } from '@/lib/permissions';

const ImportProductsDialog = lazy(() => import('./import-products-dialog').then((m) => ({ default: m.ImportProductsDialog })));

export function ImportProductsButton() {
  const { connection } = useWorkspaceApi();
  const canWrite = allows(connection.permissions, 'products:read-write');
  const [opened, setOpened] = useState(false);
  return (
    <>
      <DeferredTooltip position="bottom" label="Needs products:read-write" disabled={canWrite}>
        <Button variant="default" onClick={() => setOpened(true)} disabled={!canWrite} data-disabled={!canWrite || undefined}>
          Import CSV
        </Button>
      </DeferredTooltip>
      {opened ? (
        <Suspense fallback={null}>
          <ImportProductsDialog onClose={() => setOpened(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
