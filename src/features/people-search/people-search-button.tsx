/**
 * The header's button that opens the search across workspaces (issue 24 point 6); the dialog's code loads when it is
 * first opened.
 */
import { ActionIcon } from '@mantine/core';
import { Suspense, lazy, useState } from 'react';
import { SearchIcon } from '@/components/icons';
import { loadArea } from '@/i18n/i18n';
import { useT } from '@/i18n/react';

// The dialog's texts (the `people` catalog, issue 23) are fetched beside its code.
const PeopleSearchDialog = lazy(() => Promise.all([import('./people-search-dialog'), loadArea('people')]).then(([m]) => ({ default: m.PeopleSearchDialog })));

export function PeopleSearchButton() {
  const t = useT();
  const [opened, setOpened] = useState(false);
  const [loaded, setLoaded] = useState(false);
  return (
    <>
      <ActionIcon
        variant="default"
        size="lg"
        aria-label={t('shell.peopleSearch')}
        title={t('shell.peopleSearch')}
        onClick={() => {
          setLoaded(true);
          setOpened(true);
        }}
      >
        <SearchIcon />
      </ActionIcon>
      {loaded ? (
        <Suspense fallback={null}>
          <PeopleSearchDialog opened={opened} onClose={() => setOpened(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
