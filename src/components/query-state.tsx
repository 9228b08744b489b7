import { useT } from '@/i18n/react';
import { Alert, Button, Group, Loader } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LazyErrorMessage } from './lazy-error-message';

/**
 * A failed query in words, with its details and trace id, and a retry button (issue 4: "an error shows the message
 * and a retry"; issue 13: a sentence, not the wire text).
 */
export function QueryError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const t = useT();
  return (
    <Alert color="red" title={t('common.couldNotLoad')} role="alert">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <LazyErrorMessage error={error} />
        <Button size="xs" variant="light" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Group>
    </Alert>
  );
}

/** A centred loader with an accessible label. */
export function Loading({ label }: { label?: string }) {
  const t = useT();
  return (
    <Group justify="center" p="xl">
      <Loader aria-label={label ?? t('common.loading')} />
    </Group>
  );
}

/** A query's three states in one place: a loader (named "Loading <label>" in the language shown), the error with a retry, or `children(data)`. */
export function QueryView<Data>({ query, label, children }: { query: UseQueryResult<Data>; label: string; children: (data: Data) => ReactNode }) {
  const t = useT();
  if (query.isPending) return <Loading label={t('common.loadingWhat', { what: label })} />;
  if (query.isError) return <QueryError error={query.error} onRetry={() => void query.refetch()} />;
  return children(query.data);
}
