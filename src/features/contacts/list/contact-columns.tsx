/** The contacts table's columns (issue 5): which can sort (docs/decisions.md section 6) and how each cell renders. */
import { useMemo } from 'react';
import { currentLocale, t } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import { Badge } from '@mantine/core';
import { CellChips, CellStatus } from '@/components/data-table';
import { createColumnHelper } from '@tanstack/react-table';
import type { Contact } from '@/api/contacts';
import type { DataTableFeatures } from '@/components/data-table';
import { Avatar } from '@/components/avatar';
import { EmailText } from '@/components/email-text';
import { RelativeTime } from '@/components/relative-time';

const column = createColumnHelper<DataTableFeatures, Contact>();

/** A contact's state in words (`active` -> `Active` / `Aktiv`). */
export const stateLabel = (state: string) => (state === 'active' ? t('contacts.stateActive') : state === 'pending' ? t('contacts.statePending') : state);

export function StateBadge({ state }: { state: string }) {
  return (
    <Badge variant="light" color={state === 'active' ? 'green' : 'gray'}>
      {stateLabel(state)}
    </Badge>
  );
}

/** The columns in the language shown (their headers are read when built). */
const buildColumns = () => column.columns([
  column.accessor('name', {
    id: 'name',
    header: t('contacts.colName'),
    enableSorting: true,
    enableHiding: false,
    cell: (info) => (
      <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
        <Avatar src={info.row.original.image} name={info.getValue()} />
        {info.getValue() ?? t('contacts.noName')}
      </span>
    ),
  }),
  column.accessor('email', { id: 'email', header: t('contacts.colEmail'), enableSorting: true, cell: (info) => <EmailText email={info.getValue()} /> }),
  column.accessor('phone', { id: 'phone', header: t('contacts.colPhone'), enableSorting: true, cell: (info) => info.getValue() ?? '' }),
  column.accessor('state', { id: 'state', header: t('contacts.colState'), enableSorting: true, cell: (info) => <CellStatus value={stateLabel(info.getValue())} positive={info.getValue() === 'active'} /> }),
  column.accessor('tags', {
    id: 'tags',
    header: t('contacts.colTags'),
    enableSorting: false,
    cell: (info) => <CellChips values={info.getValue()} />,
  }),
  column.accessor('city', { id: 'city', header: t('contacts.colCity'), enableSorting: true, cell: (info) => info.getValue() ?? '' }),
  column.accessor('source', { id: 'source', header: t('contacts.colSource'), enableSorting: false, cell: (info) => info.getValue() ?? '' }),
  column.accessor('created', { id: 'created', header: t('contacts.colCreated'), enableSorting: true, cell: (info) => <RelativeTime iso={info.getValue()} /> }),
]);

/** The contacts table's columns in the language shown, rebuilt when it changes (issue 23). */
export function useContactColumns() {
  useT();
  const locale = currentLocale();
  return useMemo(buildColumns, [locale]);
}

/** Columns the user may hide, with their labels (read in the language shown). */
export const HIDEABLE_COLUMNS = [
  { id: 'email', get label() { return t('contacts.colEmail'); } },
  { id: 'phone', get label() { return t('contacts.colPhone'); } },
  { id: 'state', get label() { return t('contacts.colState'); } },
  { id: 'tags', get label() { return t('contacts.colTags'); } },
  { id: 'city', get label() { return t('contacts.colCity'); } },
  { id: 'source', get label() { return t('contacts.colSource'); } },
  { id: 'created', get label() { return t('contacts.colCreated'); } },
];
