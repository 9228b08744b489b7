/**
 * The contacts page's "Import" button (issue 20 point 5): it opens the import dialog, whose code (reader, mapping,
 * libphonenumber-js, the worker) is a lazy chunk fetched on the click, never part of the page's first screen
 * (scripts/first-screens.json). `onStart` receives the import's job (`ImportJob`, for the runner's `enqueueStoredJob`,
 * docs/jobs.md); without it the dialog shows the plan but cannot start it.
 */
import { Button } from '@mantine/core';
import { Suspense, lazy, useRef, useState } from 'react';
import { DeferredTooltip } from '@/components/deferred-tooltip';
import type { ImportJob } from './import-contacts-dialog';
import { useT } from '@/i18n/react';
import { loadArea, loadAreaSettled } from '@/i18n/i18n';

// The dialog's texts (the `contacts-import` catalog) come with it; the button's are the contacts page's (`contacts`).
// `sentences` writes the contract's refusals of a row in the language shown (contact-import.ts `cleanRow`).
const ImportContactsDialog = lazy(() =>
  Promise.all([import('./import-contacts-dialog'), loadArea('contacts-import'), loadAreaSettled('sentences')]).then(([m]) => ({ default: m.ImportContactsDialog })),
);

export function ImportButton({ canImport, onStart }: { canImport: boolean; onStart?: (job: ImportJob) => Promise<void> }) {
  const [opened, setOpened] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const t = useT();
  return (
    <>
      <DeferredTooltip position="bottom" label={t('contacts.importNeedsWrite', { scope: 'feeds:read-write' })} disabled={canImport}>
        <Button ref={button} variant="default" onClick={() => setOpened(true)} disabled={!canImport} data-disabled={!canImport || undefined}>
          {t('contacts.import')}
        </Button>
      </DeferredTooltip>
      {opened ? (
        <Suspense fallback={null}>
          <ImportContactsDialog
            onClose={() => {
              setOpened(false);
              setTimeout(() => button.current?.focus(), 0);
            }}
            {...(onStart ? { onStart } : {})}
          />
        </Suspense>
      ) : null}
    </>
  );
}
