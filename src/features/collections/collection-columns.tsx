/**
 * The collections table's columns (issue 6): title (the page makes it a link to the collection's address),
 * handle, external id, source, created and updated. `GET /collections` takes no `$orderBy` (decisions.md
 * section 6), so no column sorts.
 */
import { createColumnHelper } from '@tanstack/react-table';
import type { Collection } from '@/api/catalog';
import type { DataTableFeatures } from '@/components/data-table';
import { RelativeTime } from '@/components/relative-time';

const column = createColumnHelper<DataTableFeatures, Collection>();
const unsorted = { enableSorting: false } as const;

/** The columns; the title column's id is `title`. */
export function collectionColumns() {
  return column.columns([
    column.accessor('title', {
      id: 'title',
      header: 'Title',
      ...unsorted,
      cell: (info) => info.getValue() || '(untitled)',
    }),
    column.accessor('handle', { id: 'handle', header: 'Handle', ...unsorted, cell: (info) => info.getValue() ?? '' }),
    column.accessor('externalId', { id: 'externalId', header: 'External id', ...unsorted, cell: (info) => info.getValue() ?? '' }),
    column.accessor('source', { id: 'source', header: 'Source', ...unsorted, cell: (info) => info.getValue() ?? '' }),
    column.accessor('created', { id: 'created', header: 'Created', ...unsorted, cell: (info) => <RelativeTime iso={info.getValue()} /> }),
    column.accessor('updated', { id: 'updated', header: 'Updated', ...unsorted, cell: (info) => <RelativeTime iso={info.getValue()} /> }),
  ]);
}
