/**
 * The catalog's list page (issue 38 point 4: one list layer for products and collections, in the spirit of
 * react-admin's `<List>` over its dataProvider): the server-paginated table of a resource (src/lib/resource-queries.ts
 * `list`, the next page prefetched), "New …" opening the resource's upsert drawer, a record's title (a link) or row
 * opening it at its address over the list (`/w/:workspaceId/<resource>/:id`, src/lib/record-route.ts), and Delete
 * over a selection where the service names `catalog-delete` (issue 22 point 9). Writing needs `products:read-write`
 * (the scope of both resources' writes, docs/decisions.md section 4): without it "New …" is disabled and says why,
 * and a record opens read-only. The feature gives its words, columns, filters and drawer; the page's state (page,
 * size, filters) lives in the address, read by the feature (src/lib/list-search.ts).
 */
import { Button } from '@mantine/core';
import type { RowSelectionState } from '@tanstack/react-table';
import { type ReactNode, Suspense, lazy, useEffect, useMemo, useState } from 'react';
import type { ApiClient } from '@/api/client';
import type { FilterNode } from '@/api/filter/ast';
import { useT } from '@/i18n/react';
import { useExtensions } from '@/lib/extensions';
import { usePagedQuery } from '@/lib/paged-query';
import { allows } from '@/lib/permissions';
import { useRecordRoute } from '@/lib/record-route';
import type { PageParams, resourceQueries } from '@/lib/resource-queries';
import { useWorkspaceApi } from '@/lib/workspace-api';
import type { DataTableColumn } from './data-table';
import { DeferredTooltip } from './deferred-tooltip';
import { PagedList, type PagedListProps } from './paged-list';
import type { RecordDrawer as RecordDrawerType } from './record-drawer';

const SavedViews = lazy(() => import('./saved-views-row').then((m) => ({ default: m.SavedViews })));
// Loaded when a record opens; `lazy` loses the component's type parameters, which the cast restores.
const RecordDrawer = lazy(() => import('./record-drawer').then((m) => ({ default: m.RecordDrawer }))) as unknown as typeof RecordDrawerType;
const DeleteSelectionBar = lazy(() => import('./catalog-delete').then((m) => ({ default: m.DeleteSelectionBar })));

/** What the upsert drawer of a resource is given: the record (`null`: a new one), and the page's rows on screen. */
export type CatalogDrawerProps<Row> = { record: Row | null; readOnly: boolean; onClose: () => void; rows: readonly Row[] | undefined };

export type CatalogListPageProps<Row extends { id: string; title?: string | null }> = {
  /** The resource: its section of the address, its saved views' list and its delete call. */
  resource: 'products' | 'collections';
  /** The record's noun (the record drawer's and the delete bar's words). */
  noun: 'product' | 'collection';
  /** The page's words: its title, "New …", the count and the empty states (PagedList's `texts`). */
  texts: PagedListProps<Row>['texts'] & { title: string; new: string };
  columns: DataTableColumn<Row>[];
  /** The columns a phone keeps (issue 23 point 6). */
  phoneColumns: string[];
  /** The page, size and filter the address asks for, whether a filter narrows the list, and how to change them. */
  page: number;
  size: number;
  filter: FilterNode | undefined;
  filtered: boolean;
  onClearFilters: () => void;
  onPage: (patch: { page?: number; size?: number }) => void;
  /** The feature's filter bar, shown after the saved views. */
  filters: ReactNode;
  /** More actions beside "New …" (the products' import). */
  actions?: ReactNode;
  /** The resource's page and record query options (src/lib/resource-queries.ts). */
  queries: Pick<ReturnType<typeof resourceQueries<Row>>, 'list' | 'detail'>;
  /** Deletes one record (`DELETE /<resource>/{id}`, the `catalog-delete` extension). */
  remove: (api: ApiClient, id: string) => Promise<void>;
  /** The resource's upsert drawer (lazy in the feature). */
  drawer: (props: CatalogDrawerProps<Row>) => ReactNode;
};

export function CatalogListPage<Row extends { id: string; title?: string | null }>(props: CatalogListPageProps<Row>) {
  const { resource, noun, texts, columns, phoneColumns, page, size, filter, queries, drawer } = props;
  const t = useT();
  const { api, workspaceId, connection } = useWorkspaceApi();
  const params = useMemo(() => ({ offset: (page - 1) * size, limit: size, filter }), [page, size, filter]);
  const list = usePagedQuery((next: PageParams) => queries.list(api, workspaceId, next), params, (next) => props.onPage({ page: next }));
  const canWrite = allows(connection.permissions, 'products:read-write');
  const [creating, setCreating] = useState(false);
  const records = useRecordRoute(resource);
  // Delete over a selection (issue 22 point 9), where the service has catalog-delete and the key may write.
  const deletable = useExtensions().has('catalog-delete') && canWrite;
  const [selection, setSelection] = useState<RowSelectionState>({});
  useEffect(() => setSelection({}), [workspaceId, params]);
  const selectedIds = Object.keys(selection).filter((id) => selection[id]);
  const rows = list.data?.items;

  return (
    <>
      <PagedList
        title={texts.title}
        texts={texts}
        actions={
          <>
            <DeferredTooltip position="bottom" label={t('shell.needsScope', { scope: 'products:read-write' })} disabled={canWrite}>
              <Button onClick={() => setCreating(true)} disabled={!canWrite} data-disabled={!canWrite || undefined}>
                {texts.new}
              </Button>
            </DeferredTooltip>
            {props.actions}
          </>
        }
        filters={
          <>
            <Suspense fallback={null}>
              <SavedViews list={resource} />
            </Suspense>
            {props.filters}
          </>
        }
        list={list}
        columns={columns}
        selection={deletable ? selection : undefined}
        onSelectionChange={deletable ? setSelection : undefined}
        rowLabel={(row) => row.title ?? row.id}
        selectionBar={
          deletable && selectedIds.length ? (
            <Suspense fallback={null}>
              <DeleteSelectionBar
                ids={selectedIds}
                kind={noun}
                remove={(id) => props.remove(api, id)}
                onClear={() => setSelection({})}
                onDeleted={() => setSelection({})}
              />
            </Suspense>
          ) : null
        }
        getRowId={(row) => row.id}
        onRowClick={(row) => records.open(row.id)}
        primaryColumns={phoneColumns}
        rowLink={{ column: 'title', to: (row) => records.linkTo(row.id), state: records.state }}
        page={page}
        size={size}
        filtered={props.filtered}
        onClearFilters={props.onClearFilters}
        onPageChange={(next) => props.onPage({ page: next })}
        onSizeChange={(next) => props.onPage({ size: next })}
      />
      <Suspense fallback={null}>
        {creating ? drawer({ record: null, readOnly: false, onClose: () => setCreating(false), rows }) : null}
        {records.recordId ? (
          <RecordDrawer noun={noun} id={records.recordId} rows={rows} lookup={(id) => queries.detail(api, workspaceId, id)} onClose={records.close}>
            {(record) => drawer({ record, readOnly: !canWrite, onClose: records.close, rows })}
          </RecordDrawer>
        ) : null}
      </Suspense>
    </>
  );
}
