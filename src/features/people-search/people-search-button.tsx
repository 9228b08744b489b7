/**
 * The header's button that opens the search across workspaces (issue 24 point 6); the dialog's code loads when it is
 * first opened.
 */
import { ActionIcon } from '@mantine/core';
import { Suspense, lazy, useState } from 'react';
import { SearchIcon } from '@/components/icons';
import { messages } from './messages';

const PeopleSearchDialog = lazy(() => import('./people-search-dialog').then((m) => ({ default: m.PeopleSearchDialog })));

export function PeopleSearchButton() {
  const [opened, setOpened] = useState(false);
  const [loaded, setLoaded] = useState(false);
  return (
    <>
      <ActionIcon
        variant="default"
        size="lg"
        aria-label={messages.open}
        title={messages.open}
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
