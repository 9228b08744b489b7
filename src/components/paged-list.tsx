/**
 * A list page of the console over a server-paged endpoint (issue 6: products and collections): the heading with
 * the count (`2 matching products`), the actions, the filters, the table (DataTable: the previous page stays on
 * screen, dimmed, while the next loads), an empty state that offers to clear the filters, and the pagination
 * bar. The page keeps the list's state in the URL and hands it in.
 *
 * Issue 14, point 1: the pagination bar describes the rows on screen (while another page loads behind them, it
 * says which), and paging scrolls back to the top of the table. `rowLink` makes each row's title a link to its
 * record (point 2 and 5). Texts: the page's own words (`texts`) and the `lists` catalog area (issue 23; the products
 * and collections sections load it with their pages, src/app/sections.ts).
 */
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { RowData } from '@tanstack/react-table';
import { type ReactNode, useRef } from 'react';
import type { ListEnvelope } from '@/api/common';
import { useT } from '@/i18n/react';
import { LIST_PAGE_SIZES } from '@/lib/list-facets';
import { countText, notLoadedText } from '@/lib/list-count';
import { useRequestsWaiting } from '@/lib/use-rate-budget';
import { revealTop, useShown } from '@/lib/list-view';
import { FilterSheet } from './filter-sheet';
import { DataTable, type DataTableColumn, type DataTableProps } from './data-table';
import { PaginationBar } from './pagination-bar';
import { QueryError } from './query-state';

export type PagedListProps<Row extends RowData> = {
  /** The page's heading and the table's name: `Products`. */
  title: string;
  /**
   * The page's own words (issue 23: a noun cannot be pluralized or declined by the list in every language): the
   * count (`2 matching products`; `matching` when a filter narrows the list) and the empty states.
   */
  texts: { count: (total: number, matching: boolean) => string; noMatch: string; none: string };
  actions: ReactNode;
  filters: ReactNode;
  list: UseQueryResult<ListEnvelope<Row>>;
  columns: DataTableColumn<Row>[];
  getRowId: (row: Row) => string;
  onRowClick?: ((row: Row) => void) | undefined;
  rowLink?: DataTableProps<Row>['rowLink'];
  /** The columns a phone keeps (DataTable's `primaryColumns`). */
  primaryColumns?: DataTableProps<Row>['primaryColumns'];
  page: number;
  size: number;
  /** True when a filter narrows the list. */
  filtered: boolean;
  onClearFilters: () => void;
  onPageChange: (page: number) => void;
  onSizeChange: (size: number) => void;
  /** Row selection (a checkbox column) when given, with `selectionBar` shown above the table while rows are selected (issue 22: bulk delete). */
  selection?: DataTableProps<Row>['selection'];
  onSelectionChange?: DataTableProps<Row>['onSelectionChange'];
  rowLabel?: DataTableProps<Row>['rowLabel'];
  selectionBar?: ReactNode;
};

export function PagedList<Row extends RowData>(props: PagedListProps<Row>) {
  const t = useT();
  const { title, texts, actions, filters, list, columns, getRowId, onRowClick, rowLink, primaryColumns, page, size, filtered, onClearFilters, onPageChange, onSizeChange, selection, onSelectionChange, rowLabel, selectionBar } = props;
  const total = list.data?.meta.maxResults;
  const failed = list.isError && !list.data;
  const shownPage = useShown(page, list.isPlaceholderData);
  const shownSize = useShown(size, list.isPlaceholderData);
  const top = useRef<HTMLDivElement>(null);
  const waiting = useRequestsWaiting();
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{title}</Title>
          <Text size="sm" c="dimmed" aria-live="polite">
            {total === undefined ? (waiting ? t('lists.waitingForBudget') : t('shell.loadingEllipsis')) : countText(texts.count(total, filtered && !(waiting && list.isPlaceholderData)), waiting && list.isPlaceholderData)}
          </Text>
        </div>
        <Group gap="xs">{actions}</Group>
      </Group>
      <FilterSheet active={filtered}>{filters}</FilterSheet>
      {selectionBar}
      {failed ? <QueryError error={list.error} onRetry={() => void list.refetch()} /> : null}
      <div ref={top}>
        <DataTable
          label={title}
          columns={columns}
          rows={failed ? [] : list.data?.items}
          getRowId={getRowId}
          pageSize={size}
          fetching={list.isPlaceholderData}
          onRowClick={onRowClick}
          rowLink={rowLink}
          primaryColumns={primaryColumns}
          selection={selection}
          onSelectionChange={onSelectionChange}
          rowLabel={rowLabel}
          empty={
            failed ? (
              <Text>{notLoadedText()}</Text>
            ) : filtered ? (
              <Stack align="center" gap="xs">
                <Text>{texts.noMatch}</Text>
                <Button variant="light" size="xs" onClick={onClearFilters}>
                  {t('lists.clearFilters')}
                </Button>
              </Stack>
            ) : (
              <Text>{texts.none}</Text>
            )
          }
        />
      </div>
      <PaginationBar
        page={shownPage}
        pageSize={shownSize}
        pendingPage={list.isPlaceholderData ? page : undefined}
        total={total}
        pageSizes={LIST_PAGE_SIZES}
        onPageChange={(next) => {
          onPageChange(next);
          revealTop(top.current);
        }}
        onPageSizeChange={onSizeChange}
      />
    </Stack>
  );
}
