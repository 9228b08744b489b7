/**
 * `/w/:workspaceId/collections` (issue 6): the server-paginated collections table with a title search and
 * created and updated ranges, all state in the URL; the previous page stays on screen while the next loads, and
 * the next page is prefetched. "New collection" opens the upsert drawer (lazy); a collection's title (a link) or
 * row opens it at its address, `/w/:workspaceId/collections/:collectionId` over the list (issue 14,
 * src/lib/record-route.ts). Writing needs `products:read-write` (the scope of `POST /collections`): without it
 * the button is disabled and says why, and a collection opens read-only. No sorting: `GET /collections` takes no
 * `$orderBy`. Texts (issue 23): the `collections` catalog area, loaded with the page (src/app/sections.ts).
 */
import { Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { RowSelectionState } from '@tanstack/react-table';
import { Suspense, lazy, useEffect, useMemo, useState } from 'react';
import { DeferredTooltip } from '@/components/deferred-tooltip';
import { useT } from '@/i18n/react';
import { PagedList } from '@/components/paged-list';
import type { RecordDrawer as RecordDrawerType } from '@/components/record-drawer';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { useExtensions } from '@/lib/extensions';
import { useListSearch } from '@/lib/list-search';
import { usePagedQuery } from '@/lib/paged-query';
import { allows } from '@/lib/permissions';
import { useRecordRoute } from '@/lib/record-route';
import { useCollectionColumns } from './collection-columns';
import { CollectionFilters } from './collection-filters';
import { CLEAR_COLLECTION_FILTERS, collectionFilter, collectionSearchSchema, isCollectionFiltered } from './collection-search';
import { type CollectionListParams, collectionQueries } from './queries';

const SavedViews = lazy(() => import('@/components/saved-views-row').then((m) => ({ default: m.SavedViews })));
const CollectionDrawer = lazy(() => import('./collection-drawer').then((m) => ({ default: m.CollectionDrawer })));
// Loaded when a record opens; `lazy` loses the component's type parameters, which the cast restores.
const RecordDrawer = lazy(() => import('@/components/record-drawer').then((m) => ({ default: m.RecordDrawer }))) as unknown as typeof RecordDrawerType;
const DeleteSelectionBar = lazy(() => import('@/components/catalog-delete').then((m) => ({ default: m.DeleteSelectionBar })));

/** What a phone shows of each row (issue 23 point 6): the title and when it changed. */
const PHONE_COLUMNS = ['title', 'updated'];

export function CollectionsPage() {
  const t = useT();
  const columns = useCollectionColumns();
  const { api, workspaceId, connection } = useWorkspaceApi();
  const [search, update] = useListSearch(collectionSearchSchema);
  const filter = useMemo(() => collectionFilter(search), [search]);
  const params = useMemo(() => ({ offset: (search.page - 1) * search.size, limit: search.size, filter }), [search.page, search.size, filter]);
  const list = usePagedQuery((page: CollectionListParams) => collectionQueries.list(api, workspaceId, page), params, (page) => update({ page }));
  const canWrite = allows(connection.permissions, 'products:read-write');
  const [creating, setCreating] = useState(false);
  const records = useRecordRoute('collections');
  // Delete over a selection (issue 22 point 9), where the service has catalog-delete and the key may write.
  const queryClient = useQueryClient();
  const deletable = useExtensions().has('catalog-delete') && canWrite;
  const [selection, setSelection] = useState<RowSelectionState>({});
  useEffect(() => setSelection({}), [workspaceId, params]);
  const selectedIds = Object.keys(selection).filter((id) => selection[id]);

  return (
    <>
      <PagedList
        title={t('collections.title')}
        texts={{
          count: (count, matching) => t(matching ? 'collections.countMatching' : 'collections.count', { count }),
          noMatch: t('collections.noMatch'),
          none: t('collections.none'),
        }}
        actions={
          <DeferredTooltip position="bottom" label={t('shell.needsScope', { scope: 'products:read-write' })} disabled={canWrite}>
            <Button onClick={() => setCreating(true)} disabled={!canWrite} data-disabled={!canWrite || undefined}>
              {t('collections.new')}
            </Button>
          </DeferredTooltip>
        }
        filters={
          <>
            <Suspense fallback={null}>
              <SavedViews list="collections" />
            </Suspense>
            <CollectionFilters search={search} update={update} />
          </>
        }
        list={list}
        columns={columns}
        selection={deletable ? selection : undefined}
        onSelectionChange={deletable ? setSelection : undefined}
        rowLabel={(collection) => collection.title ?? collection.id}
        selectionBar={
          deletable && selectedIds.length ? (
            <Suspense fallback={null}>
              <DeleteSelectionBar
                ids={selectedIds}
                kind="collection"
                remove={(id) => api.deleteCollection(id)}
                onClear={() => setSelection({})}
                onDeleted={() => {
                  setSelection({});
                  void queryClient.invalidateQueries({ queryKey: ['ws', workspaceId] });
                }}
              />
            </Suspense>
          ) : null
        }
        getRowId={(collection) => collection.id}
        onRowClick={(collection) => records.open(collection.id)}
        primaryColumns={PHONE_COLUMNS}
        rowLink={{ column: 'title', to: (collection) => records.linkTo(collection.id), state: records.state }}
        page={search.page}
        size={search.size}
        filtered={isCollectionFiltered(search)}
        onClearFilters={() => update(CLEAR_COLLECTION_FILTERS)}
        onPageChange={(page) => update({ page })}
        onSizeChange={(size) => update({ size })}
      />
      <Suspense fallback={null}>
        {creating ? <CollectionDrawer collection={null} onClose={() => setCreating(false)} /> : null}
        {records.recordId ? (
          <RecordDrawer noun="collection" id={records.recordId} rows={list.data?.items} lookup={(id) => collectionQueries.detail(api, workspaceId, id)} onClose={records.close}>
            {(collection) => <CollectionDrawer key={collection.id} collection={collection} readOnly={!canWrite} onClose={records.close} />}
          </RecordDrawer>
        ) : null}
      </Suspense>
    </>
  );
}
