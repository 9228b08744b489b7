/** The contacts table's columns (issue 5): which can sort (decisions.md section 6) and how each cell renders. */
import { Badge } from '@mantine/core';
import { CellChips, CellStatus } from '@/components/data-table';
import { createColumnHelper } from '@tanstack/react-table';
import type { Contact } from '@/api/contacts';
import type { DataTableFeatures } from '@/components/data-table';
import { Avatar } from '@/components/avatar';
import { RelativeTime } from '@/components/relative-time';

const column = createColumnHelper<DataTableFeatures, Contact>();

export function StateBadge({ state }: { state: string }) {
  return (
    <Badge variant="light" color={state === 'active' ? 'green' : 'gray'}>
      {state}
    </Badge>
  );
}

export const contactColumns = column.columns([
  column.accessor('name', {
    id: 'name',
    header: 'Name',
    enableSorting: true,
    enableHiding: false,
    cell: (info) => (
      <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
        <Avatar src={info.row.original.image} name={info.getValue()} />
        {info.getValue() ?? '(no name)'}
      </span>
    ),
  }),
  column.accessor('email', { id: 'email', header: 'Email', enableSorting: true, cell: (info) => info.getValue() ?? '' }),
  column.accessor('phone', { id: 'phone', header: 'Phone', enableSorting: true, cell: (info) => info.getValue() ?? '' }),
  column.accessor('state', { id: 'state', header: 'State', enableSorting: true, cell: (info) => <CellStatus value={info.getValue()} positive={info.getValue() === 'active'} /> }),
  column.accessor('tags', {
    id: 'tags',
    header: 'Tags',
    enableSorting: false,
    cell: (info) => <CellChips values={info.getValue()} />,
  }),
  column.accessor('city', { id: 'city', header: 'City', enableSorting: true, cell: (info) => info.getValue() ?? '' }),
  column.accessor('source', { id: 'source', header: 'Source', enableSorting: false, cell: (info) => info.getValue() ?? '' }),
  column.accessor('created', { id: 'created', header: 'Created', enableSorting: true, cell: (info) => <RelativeTime iso={info.getValue()} /> }),
]);

/** Columns the user may hide, with their labels. */
export const HIDEABLE_COLUMNS = [
  { id: 'email', label: 'Email' },
  { id: 'phone', label: 'Phone' },
  { id: 'state', label: 'State' },
  { id: 'tags', label: 'Tags' },
  { id: 'city', label: 'City' },
  { id: 'source', label: 'Source' },
  { id: 'created', label: 'Created' },
];
