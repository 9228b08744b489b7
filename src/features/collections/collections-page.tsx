/**
 * `/w/:workspaceId/collections` (issue 6): the server-paginated collections table with a title search and
 * created and updated ranges, all state in the URL; the previous page stays on screen while the next loads, and
 * the next page is prefetched. "New collection" and a collection's title (or row) open the upsert drawer (lazy).
 * Writing needs `products:read-write` (the scope of `POST /collections`): without it the button is disabled and
 * says why, and titles are plain text. No sorting: `GET /collections` takes no `$orderBy`.
 */
import { Button } from '@mantine/core';
import { Suspense, lazy, useMemo, useState } from 'react';
import type { Collection } from '@/api/catalog';
import { DeferredTooltip } from '@/components/deferred-tooltip';
import { PagedList } from '@/components/paged-list';
import { useWorkspaceApi } from '@/lib/api';
import { useListSearch } from '@/lib/list-search';
import { usePagedQuery } from '@/lib/paged-query';
import { allows } from '@/lib/permissions';
import { collectionColumns } from './collection-columns';
import { CollectionFilters } from './collection-filters';
import { CLEAR_COLLECTION_FILTERS, collectionFilter, collectionSearchSchema, isCollectionFiltered } from './collection-search';
import { type CollectionListParams, collectionQueries } from './queries';

const CollectionDrawer = lazy(() => import('./collection-drawer').then((m) => ({ default: m.CollectionDrawer })));

export function CollectionsPage() {
  const { api, workspaceId, connection } = useWorkspaceApi();
  const [search, update] = useListSearch(collectionSearchSchema);
  const filter = useMemo(() => collectionFilter(search), [search]);
  const params = useMemo(() => ({ offset: (search.page - 1) * search.size, limit: search.size, filter }), [search.page, search.size, filter]);
  const list = usePagedQuery((page: CollectionListParams) => collectionQueries.list(api, workspaceId, page), params, (page) => update({ page }));
  const canWrite = allows(connection.permissions, 'products:read-write');
  /** The drawer: `{ collection: null }` creates, `{ collection }` edits. */
  const [editing, setEditing] = useState<{ collection: Collection | null } | null>(null);
  const edit = canWrite ? (collection: Collection) => setEditing({ collection }) : undefined;
  const columns = useMemo(() => collectionColumns(canWrite ? (collection) => setEditing({ collection }) : undefined), [canWrite]);

  return (
    <>
      <PagedList
        title="Collections"
        noun="collection"
        actions={
          <DeferredTooltip position="bottom" label="Needs products:read-write" disabled={canWrite}>
            <Button onClick={() => setEditing({ collection: null })} disabled={!canWrite} data-disabled={!canWrite || undefined}>
              New collection
            </Button>
          </DeferredTooltip>
        }
        filters={<CollectionFilters search={search} update={update} />}
        list={list}
        columns={columns}
        getRowId={(collection) => collection.id}
        onRowClick={edit}
        page={search.page}
        size={search.size}
        filtered={isCollectionFiltered(search)}
        onClearFilters={() => update(CLEAR_COLLECTION_FILTERS)}
        onPageChange={(page) => update({ page })}
        onSizeChange={(size) => update({ size })}
      />
      <Suspense fallback={null}>{editing ? <CollectionDrawer collection={editing.collection} onClose={() => setEditing(null)} /> : null}</Suspense>
    </>
  );
}
