/**
 * Server-side pagination controls (issues 5 and 6): "21–40 of 2,000", a page size choice, first / previous /
 * next / last, and a page number input. Pages are 1-based. `maxPage` caps how far the interface lets a list go
 * (posts: `$offset` at most 100), with `capNote` explaining it.
 *
 * The bar describes the rows on screen (issue 14, point 1): `page` is the page shown, and a page requested but
 * not yet shown (`pendingPage`, e.g. waiting out a 429) is announced as "loading page 5…"; the buttons move from
 * the page shown.
 */
import { formatNumber } from '@/i18n/format';
import { useT } from '@/i18n/react';
import { ActionIcon, Group, NativeSelect, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';

export type PaginationBarProps = {
  page: number;
  pageSize: number;
  total: number | undefined;
  pageSizes: readonly number[];
  onPageChange: (page: number) => void;
  onPageSizeChange: (size: number) => void;
  /** The last page the interface can reach, when lower than the total implies. */
  maxPage?: number;
  capNote?: string;
  /** The page requested while `page`'s rows stay on screen, if any. */
  pendingPage?: number | undefined;
};

export function PaginationBar({ page, pageSize, total, pageSizes, onPageChange, onPageSizeChange, maxPage, capNote, pendingPage }: PaginationBarProps) {
  const t = useT();
  const totalPages = Math.max(1, Math.ceil((total ?? 0) / pageSize));
  const lastPage = Math.min(totalPages, maxPage ?? totalPages);
  const [typed, setTyped] = useState(String(page));
  useEffect(() => setTyped(String(page)), [page]);
  const first = total ? (page - 1) * pageSize + 1 : 0;
  const last = total ? Math.min(page * pageSize, total) : 0;
  const go = (target: number) => onPageChange(Math.min(Math.max(1, target), lastPage));

  return (
    <Group justify="space-between" gap="sm" wrap="wrap">
      <Text size="sm" aria-live="polite">
        {total === undefined ? t('shell.loadingEllipsis') : total === 0 ? t('lists.noResults') : t('lists.range', { first: formatNumber(first), last: formatNumber(last), total: formatNumber(total) })}
        {capNote && totalPages > lastPage ? ` · ${capNote}` : ''}
        {pendingPage !== undefined && pendingPage !== page ? ` · ${t('lists.loadingPage', { page: formatNumber(pendingPage) })}` : ''}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <NativeSelect
          aria-label={t('lists.rowsPerPage')}
          size="xs"
          value={String(pageSize)}
          data={pageSizes.map((size) => ({ value: String(size), label: t('lists.perPage', { size }) }))}
          onChange={(event) => onPageSizeChange(Number(event.currentTarget.value))}
        />
        <ActionIcon className="roomy-only" variant="default" aria-label={t('lists.firstPage')} onClick={() => go(1)} disabled={page <= 1}>
          «
        </ActionIcon>
        <ActionIcon variant="default" aria-label={t('lists.previousPage')} onClick={() => go(page - 1)} disabled={page <= 1}>
          ‹
        </ActionIcon>
        <TextInput
          aria-label={t('lists.pageNumber')}
          size="xs"
          w={72}
          inputMode="numeric"
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value.replace(/\D/g, ''))}
          onBlur={() => go(Number(typed) || 1)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') go(Number(typed) || 1);
          }}
        />
        <Text size="sm" aria-hidden="true">
          {t('lists.ofPages', { pages: formatNumber(lastPage) })}
        </Text>
        <ActionIcon variant="default" aria-label={t('lists.nextPage')} onClick={() => go(page + 1)} disabled={page >= lastPage}>
          ›
        </ActionIcon>
        <ActionIcon className="roomy-only" variant="default" aria-label={t('lists.lastPage')} onClick={() => go(lastPage)} disabled={page >= lastPage}>
          »
        </ActionIcon>
      </Group>
    </Group>
  );
}
