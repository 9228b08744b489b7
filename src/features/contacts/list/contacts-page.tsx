/**
 * `/w/:workspaceId/contacts` (issue 5): the server-paginated contacts table. Page, size, sort and filters live
 * in the URL; the previous page stays on screen while the next loads and the next page is prefetched; rows
 * open a drawer; selected rows, or every contact matching the filter (issue 13), can be tagged in bulk;
 * everything matching can be exported.
 *
 * Issue 20: "Import" opens the contacts import (./import/), a lazy dialog.
 *
 * Issue 14: a contact opens at its address, `/w/:workspaceId/contacts/:contactId` over the list (its name is a
 * link; src/lib/record-route.ts); the pager describes the rows on screen, and paging scrolls back to the table.
 */
import { loadArea } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { AfterInteraction } from '@/components/after-interaction';
import { DeferredTooltip } from '@/components/deferred-tooltip';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { RowSelectionState, SortingState } from '@tanstack/react-table';
import { Suspense, lazy, use, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DataTable } from '@/components/data-table';
import type { RecordDrawer as RecordDrawerType } from '@/components/record-drawer';
import { PaginationBar } from '@/components/pagination-bar';
import { QueryError } from '@/components/query-state';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { useLiveChanges } from '@/lib/extensions';
import { useListSearch } from '@/lib/list-search';
import { useRequestsWaiting } from '@/lib/use-rate-budget';
import { useLocalState } from '@/lib/local-state';
import { allows } from '@/lib/permissions';
import { useRecordRoute } from '@/lib/record-route';
import { revealTop, useShown } from '@/lib/list-view';
import { HIDEABLE_COLUMNS, useContactColumns } from './contact-columns';
import { FilterSheet } from '@/components/filter-sheet';
import { ContactFilters } from './contact-filters';
import { ImportButton } from '../import/import-button';
import type { ImportJob } from '../import/import-contacts-dialog';
import { CLEAR_FILTERS, CONTACT_PAGE_SIZES, contactFilter, contactSearchSchema, isFiltered, orderByOf, sortOf } from './contact-search';
import { contactQueries } from '../queries';
import { contactFilterParser, loadFilterParser } from './filter-parser';
import { ContactCards } from './contact-cards';
import { useNarrow } from '@/lib/narrow';
import { SavedViewsStandIn, savedViewsNeeded } from '@/components/saved-views-stand-in';
import { prefetchSpeculative } from '@/lib/query-client';

// What the first paint does not show loads when it is needed: drawers and dialogs when they open, the menus at
// the page's first interaction (AfterInteraction; issue 16).
// The record's, the forms' and the erasure's texts (the `contact-record` catalog) come with them (issue 23).
const ContactDrawer = lazy(() => Promise.all([import('../record/contact-drawer'), loadArea('contact-record')]).then(([m]) => ({ default: m.ContactDrawer })));
const NewContactDrawer = lazy(() => Promise.all([import('../record/new-contact-drawer'), loadArea('contact-record')]).then(([m]) => ({ default: m.NewContactDrawer })));
// Its texts and the bulk dialog's (the `bulk` catalog, issue 23) come with it.
const SelectionBar = lazy(() => Promise.all([import('./selection-bar'), loadArea('bulk')]).then(([m]) => ({ default: m.SelectionBar })));
const ExportButton = lazy(() => Promise.all([import('../export/export-button'), loadArea('contacts-export')]).then(([m]) => ({ default: m.ExportButton })));
// Loaded when a record opens; `lazy` loses the component's type parameters, which the cast restores.
const RecordDrawer = lazy(() => import('@/components/record-drawer').then((m) => ({ default: m.RecordDrawer }))) as unknown as typeof RecordDrawerType;
const SavedViews = lazy(() => import('@/components/saved-views-row').then((m) => ({ default: m.SavedViews })));
const ColumnMenu = lazy(() => import('@/components/column-menu').then((m) => ({ default: m.ColumnMenu })));
// "3 new contacts: show" (issue 36): loaded once the console follows the workspace's changes (useLiveChanges).
const CreatedElsewhere = lazy(() => import('../record/created-elsewhere').then((m) => ({ default: m.CreatedElsewhere })));

/** The table's column ids (Name always shown), for the export's "Visible columns" (issue 23 point 10). */
/** What a phone shows of each contact (issue 23 point 6): the name, the email and the state. */
const PHONE_COLUMNS = ['name', 'email', 'state'];
const TABLE_COLUMN_IDS = ['name', ...HIDEABLE_COLUMNS.map((column) => column.id)];

export function ContactsPage() {
  const { api, workspaceId, connection } = useWorkspaceApi();
  /** Stores the import's plan as a job and starts it (in this tab or the one running the workspace's jobs). */
  const startImport = async (job: ImportJob) => {
    const { enqueueStoredJob } = await import('@/lib/jobs/workspace-runner');
    await enqueueStoredJob(connection, job, job.steps, job.add);
  };
  const queryClient = useQueryClient();
  // An advanced filter in the address needs the `$filter` parser (loaded on demand, filter-parser.ts) to be read.
  const [searchParams] = useSearchParams();
  if (searchParams.has('filter') && !contactFilterParser()) use(loadFilterParser());
  const [search, update] = useListSearch(contactSearchSchema);
  // Saved views to show (or a view's `hide=` to apply): the row loads at once, else at the first interaction.
  const viewsNeeded = savedViewsNeeded(workspaceId, 'contacts', searchParams);
  const filter = useMemo(() => contactFilter(search), [search]);
  const orderBy = useMemo(() => orderByOf(search.sort), [search.sort]);
  const params = useMemo(
    () => ({ offset: (search.page - 1) * search.size, limit: search.size, filter, orderBy: orderBy.length ? orderBy : undefined }),
    [search.page, search.size, filter, orderBy],
  );
  const list = useQuery(contactQueries.list(api, workspaceId, params));
  // What "Share with the workspace" saves (issue 36 point 8, docs/decisions.md section 13): the request shown now.
  const shareSource = useMemo(() => ({ resource: 'contacts' as const, filter, orderBy, pageSize: search.size, columns: TABLE_COLUMN_IDS }), [filter, orderBy, search.size]);
  const live = useLiveChanges();
  const total = list.data?.meta.maxResults;
  const waiting = useRequestsWaiting();
  const failed = list.isError && !list.data;

  useEffect(() => {
    if (total === undefined || list.isPlaceholderData) return;
    if (params.offset + params.limit < total) void prefetchSpeculative(queryClient, contactQueries.list(api, workspaceId, { ...params, offset: params.offset + params.limit }));
    else if (total > 0 && params.offset >= total) update({ page: Math.ceil(total / params.limit) });
  }, [total, list.isPlaceholderData, params, api, workspaceId, queryClient, update]);

  const [hidden, setHidden] = useLocalState<string[]>(`workspace-admin.contacts.hidden-columns.${workspaceId}`, []);
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [creating, setCreating] = useState(false);
  const newButton = useRef<HTMLButtonElement>(null);
  const tableTop = useRef<HTMLDivElement>(null);
  useEffect(() => setSelection({}), [workspaceId]);
  // The drawer follows the cached row, so tag edits and settings show at once; when the row leaves the page
  // (it no longer matches the filter), the drawer keeps its last known version.
  const t = useT();
  const columns = useContactColumns();
  const records = useRecordRoute('contacts');
  const shownPage = useShown(search.page, list.isPlaceholderData);
  const shownSize = useShown(search.size, list.isPlaceholderData);

  const sorting: SortingState = orderBy.map((item) => ({ id: item.field, desc: item.direction === 'desc' }));
  const canCreate = allows(connection.permissions, 'feeds:read-write');
  const canTag = allows(connection.permissions, 'contacts:read-write');
  const selectedIds = Object.keys(selection).filter((id) => selection[id]);
  // A phone shows a card a contact (issue 34 point 8); wider screens the table.
  const narrow = useNarrow();
  const empty = failed ? (
    <Text>{t('contacts.notLoaded')}</Text>
  ) : isFiltered(search) ? (
    <Stack align="center" gap="xs">
      <Text>{t('contacts.noMatch')}</Text>
      <Button variant="light" size="xs" onClick={() => update(CLEAR_FILTERS)}>
        {t('lists.clearFilters')}
      </Button>
    </Stack>
  ) : (
    <Text>{t('contacts.none')}</Text>
  );

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{t('contacts.title')}</Title>
          {/* Of fixed height, so that "N new contacts: show" appearing beside the count moves nothing (issue 36). */}
          <Group gap="xs" mih={26}>
            <Text size="sm" c="dimmed" aria-live="polite">
              {total === undefined
                ? t(waiting ? 'contacts.waitingBudget' : 'shell.loadingEllipsis')
                : waiting && list.isPlaceholderData
                  ? t('contacts.countLastKnown', { count: total })
                  : t(isFiltered(search) ? 'contacts.countMatching' : 'contacts.count', { count: total })}
            </Text>
            {live ? (
              <Suspense fallback={null}>
                <CreatedElsewhere fetching={list.isFetching} />
              </Suspense>
            ) : null}
          </Group>
        </div>
        <Group gap="xs">
          <DeferredTooltip position="bottom" label={t('shell.needsScope', { scope: 'feeds:read-write' })} disabled={canCreate}>
            <Button ref={newButton} onClick={() => setCreating(true)} disabled={!canCreate} data-disabled={!canCreate || undefined}>
              {t('contacts.new')}
            </Button>
          </DeferredTooltip>
          {/* Issue 20: the import's plan runs as a durable job (src/lib/jobs/, loaded when it starts). */}
          <ImportButton canImport={canCreate} onStart={startImport} />
          <AfterInteraction fallback={<Button variant="default" disabled={!total}>{t('contacts.export')}</Button>}>
            <ExportButton filter={filter} orderBy={params.orderBy} total={total} selectedIds={selectedIds} tableColumns={TABLE_COLUMN_IDS} hiddenColumns={hidden} />
          </AfterInteraction>
          {/* A phone shows the primary columns only (PHONE_COLUMNS): the column choice is for wider screens. */}
          <div className="wide-only">
            <AfterInteraction fallback={<Button variant="default" size="xs">{t('lists.columns')}</Button>}>
              <ColumnMenu columns={HIDEABLE_COLUMNS} hidden={hidden} onChange={setHidden} />
            </AfterInteraction>
          </div>
        </Group>
      </Group>
      <FilterSheet active={isFiltered(search)}>
        {viewsNeeded ? (
          <Suspense fallback={null}>
            <SavedViews list="contacts" hidden={hidden} onHiddenChange={setHidden} shared={shareSource} />
          </Suspense>
        ) : (
          // No view to show: the row's code loads at the first interaction (a click on "Save view" is replayed).
          <AfterInteraction fallback={<SavedViewsStandIn />}>
            <SavedViews list="contacts" hidden={hidden} onHiddenChange={setHidden} shared={shareSource} />
          </AfterInteraction>
        )}
        <ContactFilters search={search} update={update} />
      </FilterSheet>
      {selectedIds.length ? (
        <Suspense fallback={null}>
          <SelectionBar
            selectedIds={selectedIds}
            rows={list.data?.items}
            total={total}
            params={params}
            canTag={canTag}
            onClear={() => setSelection({})}
          />
        </Suspense>
      ) : null}
      {failed ? <QueryError error={list.error} onRetry={() => void list.refetch()} /> : null}
      <div ref={tableTop}>
        {narrow ? (
          <ContactCards
            label={t('contacts.title')}
            rows={failed ? [] : list.data?.items}
            pageSize={search.size}
            fetching={list.isPlaceholderData}
            selection={selection}
            onSelectionChange={setSelection}
            linkTo={(contact) => records.linkTo(contact.id)}
            linkState={records.state}
            empty={empty}
          />
        ) : (
          <DataTable
            label={t('contacts.title')}
            columns={columns}
            rows={failed ? [] : list.data?.items}
            getRowId={(contact) => contact.id}
            pageSize={search.size}
            fetching={list.isPlaceholderData}
            sorting={sorting}
            onSortingChange={(next) => update({ sort: sortOf(next.map((sort) => ({ field: sort.id, direction: sort.desc ? 'desc' : 'asc' }))) })}
            selection={selection}
            onSelectionChange={setSelection}
            columnVisibility={Object.fromEntries(hidden.map((id) => [id, false]))}
            onRowClick={(contact) => records.open(contact.id)}
            primaryColumns={PHONE_COLUMNS}
            rowLink={{ column: 'name', to: (contact) => records.linkTo(contact.id), state: records.state }}
            rowLabel={(contact) => contact.name ?? contact.email ?? contact.id}
            empty={empty}
          />
        )}
      </div>
      <PaginationBar
        page={shownPage}
        pageSize={shownSize}
        pendingPage={list.isPlaceholderData ? search.page : undefined}
        total={total}
        pageSizes={CONTACT_PAGE_SIZES}
        onPageChange={(page) => {
          update({ page });
          revealTop(tableTop.current);
        }}
        onPageSizeChange={(size) => update({ size })}
      />
      <Suspense fallback={null}>
        {records.recordId ? (
          <RecordDrawer noun="contact" id={records.recordId} rows={list.data?.items} lookup={(id) => contactQueries.detail(api, workspaceId, id)} onClose={records.close}>
            {(contact) => <ContactDrawer contact={contact} onClose={records.close} />}
          </RecordDrawer>
        ) : null}
        {creating ? (
          <NewContactDrawer
            onClose={() => {
              setCreating(false);
              setTimeout(() => newButton.current?.focus(), 0);
            }}
          />
        ) : null}
      </Suspense>
    </Stack>
  );
}
