/**
 * A list page of the console over a server-paged endpoint (issue 6: products and collections): the heading with
 * the count (`2 matching products`), the actions, the filters, the table (DataTable: the previous page stays on
 * screen, dimmed, while the next loads), an empty state that offers to clear the filters, and the pagination
 * bar. The page keeps the list's state in the URL and hands it in.
 */
import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { RowData } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import type { ListEnvelope } from '@/api/common';
import { LIST_PAGE_SIZES, countText } from '@/lib/list-facets';
import { DataTable, type DataTableColumn } from './data-table';
import { PaginationBar } from './pagination-bar';
import { QueryError } from './query-state';

export type PagedListProps<Row extends RowData> = {
  /** The page's heading and the table's name: `Products`. */
  title: string;
  /** One row's noun, for the count and the empty state: `product`. */
  noun: string;
  actions: ReactNode;
  filters: ReactNode;
  list: UseQueryResult<ListEnvelope<Row>>;
  columns: DataTableColumn<Row>[];
  getRowId: (row: Row) => string;
  onRowClick?: ((row: Row) => void) | undefined;
  page: number;
  size: number;
  /** True when a filter narrows the list. */
  filtered: boolean;
  onClearFilters: () => void;
  onPageChange: (page: number) => void;
  onSizeChange: (size: number) => void;
};

export function PagedList<Row extends RowData>(props: PagedListProps<Row>) {
  const { title, noun, actions, filters, list, columns, getRowId, onRowClick, page, size, filtered, onClearFilters, onPageChange, onSizeChange } = props;
  const total = list.data?.meta.maxResults;
  const failed = list.isError && !list.data;
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{title}</Title>
          <Text size="sm" c="dimmed" aria-live="polite">
            {total === undefined ? 'Loading…' : countText(total, filtered, noun)}
          </Text>
        </div>
        <Group gap="xs">{actions}</Group>
      </Group>
      {filters}
      {failed ? <QueryError error={list.error} onRetry={() => void list.refetch()} /> : null}
      <DataTable
        label={title}
        columns={columns}
        rows={failed ? [] : list.data?.items}
        getRowId={getRowId}
        pageSize={size}
        fetching={list.isPlaceholderData}
        onRowClick={onRowClick}
        empty={
          filtered ? (
            <Stack align="center" gap="xs">
              <Text>No {noun}s match these filters.</Text>
              <Button variant="light" size="xs" onClick={onClearFilters}>
                Clear filters
              </Button>
            </Stack>
          ) : (
            <Text>No {noun}s yet.</Text>
          )
        }
      />
      <PaginationBar page={page} pageSize={size} total={total} pageSizes={LIST_PAGE_SIZES} onPageChange={onPageChange} onPageSizeChange={onSizeChange} />
    </Stack>
  );
}

/** A row's title cell: a link-styled button that opens the row's editor when `onEdit` is given, else plain text. */
export function TitleCell({ title, onEdit }: { title: string | null; onEdit?: (() => void) | undefined }) {
  const text = title || '(untitled)';
  if (!onEdit) return text;
  return (
    <Anchor component="button" type="button" size="sm" fw={500} ta="left" onClick={onEdit}>
      {text}
    </Anchor>
  );
}
