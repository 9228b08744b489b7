/**
 * The drawer at a record's address (issue 14, point 2; the address itself is src/lib/record-route.ts), loaded
 * when a record opens. It finds the record: the row of the list page on screen when that page holds it (no
 * request), else a look-up through the list endpoint with `$filter=id eq '<id>'` (the interface has no GET by
 * id), else the last version shown while a look-up runs (a row that left the page after an edit stays on screen).
 * Found, it renders `children(record)` (the feature's drawer); otherwise it shows "Opening contact…" while the
 * look-up runs, "Contact not found" (naming the id) when the look-up answers `null`, or the look-up's error with
 * a retry.
 */
import { Button, Drawer, Stack, Text } from '@mantine/core';
import { type QueryKey, type UseQueryOptions, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Loading, QueryError } from './query-state';

export type RecordDrawerProps<T extends { id: string }, Key extends QueryKey> = {
  /** The record's noun, lower case: `contact`. */
  noun: string;
  id: string;
  /** The rows of the list page on screen. */
  rows: readonly T[] | undefined;
  /** The look-up by id; resolves to `null` for an id the service does not know. */
  lookup: (id: string) => UseQueryOptions<T | null, Error, T | null, Key>;
  onClose: () => void;
  children: (record: T) => ReactNode;
};

export function RecordDrawer<T extends { id: string }, Key extends QueryKey>({ noun, id, rows, lookup, onClose, children }: RecordDrawerProps<T, Key>) {
  const onPage = rows?.find((row) => row.id === id);
  const query = useQuery({ ...lookup(id), enabled: !onPage });
  const current = onPage ?? query.data ?? undefined;
  const [last, setLast] = useState<T | undefined>(undefined);
  if (current && current !== last) setLast(current);
  const record = current ?? (last?.id === id ? last : undefined);
  if (record) return children(record);

  const missing = query.data === null;
  const Noun = noun[0]!.toUpperCase() + noun.slice(1);
  const title = missing ? `${Noun} not found` : query.isError ? `${Noun} not loaded` : `Opening ${noun}…`;
  return (
    <Drawer opened onClose={onClose} position="right" size="md" title={title} closeButtonProps={{ 'aria-label': `Close ${noun}` }}>
      {missing ? (
        <Stack align="flex-start">
          <Text role="alert">
            This workspace has no {noun} with the id “{id}”. It may have been deleted, or the address belongs to another workspace.
          </Text>
          <Button variant="default" onClick={onClose}>
            Back to the list
          </Button>
        </Stack>
      ) : query.isError ? (
        <QueryError error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Loading label={`Loading ${noun}`} />
      )}
    </Drawer>
  );
}
