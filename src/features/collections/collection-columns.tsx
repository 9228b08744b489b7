/**
 * The collections table's columns (issue 6): title (the page makes it a link to the collection's address),
 * handle, external id, source, created and updated. `GET /collections` takes no `$orderBy` (docs/decisions.md
 * section 6), so no column sorts. Texts (issue 23): the `collections` catalog area; times through Intl (RelativeTime).
 */
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo } from 'react';
import { currentLocale, t } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import type { Collection } from '@/api/catalog';
import type { DataTableFeatures } from '@/components/data-table';
import { RelativeTime } from '@/components/relative-time';

const column = createColumnHelper<DataTableFeatures, Collection>();
const unsorted = { enableSorting: false } as const;

/** The columns in the language shown (their headers are read when built); the title column's id is `title`. */
export function useCollectionColumns() {
  useT();
  const locale = currentLocale();
  return useMemo(buildColumns, [locale]);
}

function buildColumns() {
  return column.columns([
    column.accessor('title', {
      id: 'title',
      header: t('collections.colTitle'),
      ...unsorted,
      cell: (info) => info.getValue() || t('collections.untitled'),
    }),
    column.accessor('handle', { id: 'handle', header: t('collections.handle'), ...unsorted, cell: (info) => info.getValue() ?? '' }),
    column.accessor('externalId', { id: 'externalId', header: t('collections.externalId'), ...unsorted, cell: (info) => info.getValue() ?? '' }),
    column.accessor('source', { id: 'source', header: t('collections.source'), ...unsorted, cell: (info) => info.getValue() ?? '' }),
    column.accessor('created', { id: 'created', header: t('collections.created'), ...unsorted, cell: (info) => <RelativeTime iso={info.getValue()} /> }),
    column.accessor('updated', { id: 'updated', header: t('collections.updated'), ...unsorted, cell: (info) => <RelativeTime iso={info.getValue()} /> }),
  ]);
}
