/**
 * "Import CSV" on the products page (issue 6). The button is all the page loads: the dialog (Mantine Modal, the
 * mapping and report code, papaparse) is a lazy chunk fetched on the first click, with its texts (the
 * `catalog-import` catalog area, issue 23). Disabled, with the reason in a tooltip, for a key without
 * products:read-write. The button's own texts: the `products` area, loaded with the page.
 */
import { Button } from '@mantine/core';
import { Suspense, lazy, useState } from 'react';
import { DeferredTooltip } from '@/components/deferred-tooltip';
import { loadArea, loadAreaSettled } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { allows } from '@/lib/permissions';

// `sentences` writes the contract's refusals of a row in the language shown (product-csv.ts `convertRow`).
const ImportProductsDialog = lazy(() =>
  Promise.all([import('./import-products-dialog'), loadArea('catalog-import'), loadAreaSettled('sentences')]).then(([m]) => ({ default: m.ImportProductsDialog })),
);

export function ImportProductsButton() {
  const t = useT();
  const { connection } = useWorkspaceApi();
  const canWrite = allows(connection.permissions, 'products:read-write');
  const [opened, setOpened] = useState(false);
  return (
    <>
      <DeferredTooltip position="bottom" label={t('shell.needsScope', { scope: 'products:read-write' })} disabled={canWrite}>
        <Button variant="default" onClick={() => setOpened(true)} disabled={!canWrite} data-disabled={!canWrite || undefined}>
          {t('products.importCsv')}
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
