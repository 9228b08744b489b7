/**
 * The drawer at a record's address (issue 14, point 2; the address itself is src/lib/record-route.ts), loaded
 * when a record opens. It finds the record: the row of the list page on screen when that page holds it (no
 * request), else a look-up through the list endpoint with `$filter=id eq '<id>'` (the interface has no GET by
 * id), else the last version shown while a look-up runs (a row that left the page after an edit stays on screen).
 * Found, it renders `children(record)` (the feature's drawer); otherwise it shows "Opening contact…" while the
 * look-up runs, "Contact not found" (naming the id) when the look-up answers `null`, or the look-up's error with
 * a retry. Those states' texts are in the `tools` catalog area, fetched when one is first shown.
 */
import { Button, Drawer, Stack, Text } from '@mantine/core';
import { type QueryKey, type UseQueryOptions, type UseQueryResult, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { WithArea, useT } from '@/i18n/react';
import { Loading, QueryError } from './query-state';

/** The nouns of the records with addresses (src/lib/record-route.ts). */
export type RecordNoun = 'contact' | 'product' | 'collection';

export type RecordDrawerProps<T extends { id: string }, Key extends QueryKey> = {
  /** Which kind of record: `contact`. */
  noun: RecordNoun;
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
  return <WithArea area="tools" render={() => <NoRecord noun={noun} id={id} query={query} onClose={onClose} />} />;
}

/** The drawer while the record is looked up, when the look-up failed, or when the service has no such record. */
function NoRecord({ noun, id, query, onClose }: { noun: RecordNoun; id: string; query: UseQueryResult<unknown>; onClose: () => void }) {
  const t = useT();
  const missing = query.data === null;
  const title = missing ? t('tools.recordNotFound', { noun }) : query.isError ? t('tools.recordNotLoaded', { noun }) : t('tools.recordOpening', { noun });
  return (
    <Drawer opened onClose={onClose} position="right" size="md" title={title} closeButtonProps={{ 'aria-label': t('tools.recordClose', { noun }) }}>
      {missing ? (
        <Stack align="flex-start">
          <Text role="alert">{t('tools.recordMissing', { noun, id })}</Text>
          <Button variant="default" onClick={onClose}>
            {t('tools.backToList')}
          </Button>
        </Stack>
      ) : query.isError ? (
        <QueryError error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Loading label={t('tools.recordLoading', { noun })} />
      )}
    </Drawer>
  );
}
