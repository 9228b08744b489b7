/**
 * The console's server-driven table (issues 5 and 6), on TanStack Table 9 in manual mode: the server sorts and
 * pages, the table renders. Sortable headers are buttons with `aria-sort` (shift-click adds a sort key), an
 * optional selection column selects the page, loading shows skeleton rows of the page's height, a refetch keeps
 * the previous rows on screen (dimmed, never a flash), and an empty result shows `empty`.
 *
 * Keyboard (issue 14, point 5; WAI-ARIA's table pattern, a static table with links and buttons in its cells rather
 * than a grid): with `rowLink`, one cell of each row is a real link to the row's record (`data-row-link` holds the
 * row id, so closing the record can return focus to it), so rows are reached with Tab, open with Enter and can
 * open in a new tab; Shift+Enter (or Shift+Space) on a sortable heading adds it as the next sort key, and a
 * sortable table says on screen, in its caption, how it is sorted and how to sort by several columns.
 */
import { t } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import { Skeleton, UnstyledButton } from '@mantine/core';
import {
  type ColumnDef,
  type ColumnVisibilityState,
  type RowData,
  type RowSelectionState,
  type SortingState,
  columnVisibilityFeature,
  rowSelectionFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
} from '@tanstack/react-table';
import { type ReactNode, useEffect, useRef } from 'react';
import { Link, type To } from 'react-router';
import classes from './data-table.module.css';

export const dataTableFeatures = tableFeatures({ rowSortingFeature, rowSelectionFeature, columnVisibilityFeature });
export type DataTableFeatures = typeof dataTableFeatures;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a column of any value type, as TanStack Table declares ColumnDef arrays
export type DataTableColumn<Row extends RowData> = ColumnDef<DataTableFeatures, Row, any>;

export type DataTableProps<Row extends RowData> = {
  /** Accessible name of the table. */
  label: string;
  columns: DataTableColumn<Row>[];
  /** The page's rows; undefined while the first page loads. */
  rows: Row[] | undefined;
  getRowId: (row: Row) => string;
  /** Rows to show as skeletons while loading. */
  pageSize: number;
  /** True while a new page is being fetched behind the shown one. */
  fetching?: boolean;
  sorting?: SortingState;
  onSortingChange?: (sorting: SortingState) => void;
  selection?: RowSelectionState;
  onSelectionChange?: (selection: RowSelectionState) => void;
  columnVisibility?: ColumnVisibilityState;
  onRowClick?: (row: Row) => void;
  /** Describes a row for the selection checkbox's name (`Select Ann Example`). */
  rowLabel?: (row: Row) => string;
  empty: ReactNode;
  /** Makes the cell of `column` in each row a link to `to(row)` (with history `state`). */
  rowLink?: { column: string; to: (row: Row) => To; state?: unknown } | undefined;
  /**
   * The columns (ids) a phone keeps (issue 23 point 6): below 48em the others are hidden by CSS
   * (data-table.module.css), so the record's main fields fit without sideways scrolling. All columns show when unset.
   */
  primaryColumns?: readonly string[];
};

const noRows: never[] = [];

/** A native checkbox (light, accessible) that can show the indeterminate state. */
function RowCheckbox({ label, checked, indeterminate = false, disabled, onChange }: { label: string; checked: boolean; indeterminate?: boolean; disabled?: boolean; onChange: (event: unknown) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = indeterminate;
  }, [indeterminate]);
  return <input ref={ref} type="checkbox" className={classes.checkbox} aria-label={label} checked={checked} disabled={disabled} onChange={onChange} />;
}

/** The caption of a sortable table: the current order in words, then how to change it. */
function sortCaption(sorting: SortingState, labelOf: (id: string) => string): ReactNode {
  const order = sorting.map((sort, index) => t(sort.desc ? 'lists.sortDescending' : 'lists.sortAscending', { column: labelOf(sort.id), then: index ? 'then' : 'first' })).join(', ');
  // The keyboard's part (Shift+click, Shift+Enter) is left out on a touch screen (issue 34 point 8: global.css).
  return (
    <>
      {order ? `${t('lists.sortedBy', { order })} ` : ''}
      <span className="key-hint">{t('lists.sortHelp')}</span>
    </>
  );
}

function ariaSort(direction: false | 'asc' | 'desc'): 'ascending' | 'descending' | 'none' {
  return direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none';
}

export function DataTable<Row extends RowData>(props: DataTableProps<Row>) {
  const { label, columns, rows, getRowId, pageSize, fetching, sorting = [], onSortingChange, selection = {}, onSelectionChange, columnVisibility = {}, onRowClick, rowLabel, empty, rowLink, primaryColumns } = props;
  const secondary = (id: string) => (primaryColumns && !primaryColumns.includes(id)) || undefined;
  useT();
  const table = useTable({
    features: dataTableFeatures,
    columns,
    data: rows ?? noRows,
    getRowId: (row: Row) => getRowId(row),
    manualSorting: true,
    enableMultiSort: true,
    isMultiSortEvent: (event: unknown) => Boolean((event as { shiftKey?: boolean }).shiftKey),
    state: { sorting, rowSelection: selection, columnVisibility },
    onSortingChange: (updater) => onSortingChange?.(typeof updater === 'function' ? updater(sorting) : updater),
    onRowSelectionChange: (updater) => onSelectionChange?.(typeof updater === 'function' ? updater(selection) : updater),
    onColumnVisibilityChange: () => undefined,
    enableRowSelection: Boolean(onSelectionChange),
  });
  const selectable = Boolean(onSelectionChange);
  const visibleColumns = table.getVisibleLeafColumns().length + (selectable ? 1 : 0);

  return (
    <div className={classes.wrapper}>
      <table className={classes.table} aria-label={label} aria-busy={fetching || rows === undefined || undefined} data-fetching={fetching || undefined}>
        {onSortingChange ? (
          <caption className={classes.caption}>
            {sortCaption(sorting, (id) => {
              const header = table.getColumn(id)?.columnDef.header;
              return typeof header === 'string' ? header : id;
            })}
          </caption>
        ) : null}
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {selectable ? (
                <th scope="col" className={classes.select}>
                  <RowCheckbox
                    label={t('lists.selectAllRows')}
                    checked={rows !== undefined && rows.length > 0 && table.getIsAllPageRowsSelected()}
                    indeterminate={table.getIsSomePageRowsSelected()}
                    onChange={table.getToggleAllPageRowsSelectedHandler()}
                    disabled={!rows?.length}
                  />
                </th>
              ) : null}
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                const sortIndex = header.column.getSortIndex();
                const content = header.isPlaceholder ? null : <table.FlexRender header={header} />;
                return (
                  <th key={header.id} scope="col" data-secondary={secondary(header.column.id)} aria-sort={header.column.getCanSort() ? ariaSort(sorted) : undefined}>
                    {header.column.getCanSort() ? (
                      <UnstyledButton
                        className={classes.sort}
                        onClick={header.column.getToggleSortingHandler()}
                        onKeyDown={(event) => {
                          if (!event.shiftKey || (event.key !== 'Enter' && event.key !== ' ')) return;
                          event.preventDefault();
                          header.column.toggleSorting(undefined, true);
                        }}
                      >
                        {content}
                        <span aria-hidden="true" className={classes.arrow}>
                          {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                          {sorting.length > 1 && sortIndex >= 0 ? <sup>{sortIndex + 1}</sup> : null}
                        </span>
                      </UnstyledButton>
                    ) : (
                      content
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {rows === undefined
            ? Array.from({ length: pageSize }, (_, index) => (
                <tr key={`skeleton-${index}`} aria-hidden="true">
                  {Array.from({ length: visibleColumns }, (_, cell) => (
                    <td key={cell}>
                      <Skeleton height={14} radius="sm" />
                    </td>
                  ))}
                </tr>
              ))
            : null}
          {rows !== undefined && rows.length === 0 ? (
            <tr>
              <td colSpan={visibleColumns} className={classes.empty}>
                {empty}
              </td>
            </tr>
          ) : null}
          {table.getRowModel().rows.map((row) => (
            <tr
              key={row.id}
              data-selected={row.getIsSelected() || undefined}
              className={onRowClick ? classes.clickable : undefined}
              onClick={onRowClick ? (event) => {
                if ((event.target as HTMLElement).closest('button, a, input, label')) return;
                onRowClick(row.original);
              } : undefined}
            >
              {selectable ? (
                <td className={classes.select}>
                  <RowCheckbox label={t('lists.selectRow', { row: rowLabel ? rowLabel(row.original) : row.id })} checked={row.getIsSelected()} onChange={row.getToggleSelectedHandler()} />
                </td>
              ) : null}
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} data-secondary={secondary(cell.column.id)}>
                  {rowLink && cell.column.id === rowLink.column ? (
                    <Link to={rowLink.to(row.original)} state={rowLink.state} className={classes.rowLink} data-row-link={row.id}>
                      <table.FlexRender cell={cell} />
                    </Link>
                  ) : (
                    <table.FlexRender cell={cell} />
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Tags in a cell, as light chips. */
export function CellChips({ values }: { values: readonly string[] }) {
  return (
    <span className={classes.chips}>
      {values.map((value) => (
        <span key={value} className={classes.chip}>
          {value}
        </span>
      ))}
    </span>
  );
}

/** A status word in a cell (`active`), green when `positive`. */
export function CellStatus({ value, positive }: { value: string; positive: boolean }) {
  return (
    <span className={classes.status} data-tone={positive ? 'positive' : undefined}>
      {value}
    </span>
  );
}
