/**
 * `/w/:workspaceId/collections` (issue 6): the catalog's list page (src/components/catalog-list-page.tsx) over the
 * collections, with a title search and created and updated ranges, all state in the URL. "New collection" and a
 * collection's row open the upsert drawer (lazy), at `/w/:workspaceId/collections/:collectionId` for a collection
 * (issue 14). No sorting: `GET /collections` takes no `$orderBy`. Texts (issue 23): the `collections` catalog area,
 * loaded with the page (src/app/sections.ts).
 */
import { lazy, useMemo } from 'react';
import { CatalogListPage } from '@/components/catalog-list-page';
import { useT } from '@/i18n/react';
import { useListSearch } from '@/lib/list-search';
import { useCollectionColumns } from './collection-columns';
import { CollectionFilters } from './collection-filters';
import { CLEAR_COLLECTION_FILTERS, collectionFilter, collectionSearchSchema, isCollectionFiltered } from './collection-search';
import { collectionQueries } from './queries';

const CollectionDrawer = lazy(() => import('./collection-drawer').then((m) => ({ default: m.CollectionDrawer })));

/** What a phone shows of each row (issue 23 point 6): the title and when it changed. */
const PHONE_COLUMNS = ['title', 'updated'];

export function CollectionsPage() {
  const t = useT();
  const columns = useCollectionColumns();
  const [search, update] = useListSearch(collectionSearchSchema);
  const filter = useMemo(() => collectionFilter(search), [search]);
  return (
    <CatalogListPage
      resource="collections"
      noun="collection"
      texts={{
        title: t('collections.title'),
        new: t('collections.new'),
        count: (count, matching) => t(matching ? 'collections.countMatching' : 'collections.count', { count }),
        noMatch: t('collections.noMatch'),
        none: t('collections.none'),
      }}
      columns={columns}
      phoneColumns={PHONE_COLUMNS}
      page={search.page}
      size={search.size}
      filter={filter}
      filtered={isCollectionFiltered(search)}
      onClearFilters={() => update(CLEAR_COLLECTION_FILTERS)}
      onPage={update}
      filters={<CollectionFilters search={search} update={update} />}
      queries={collectionQueries}
      remove={(api, id) => api.deleteCollection(id)}
      drawer={({ record, readOnly, onClose }) => <CollectionDrawer key={record?.id ?? 'new'} collection={record} readOnly={readOnly} onClose={onClose} />}
    />
  );
}
