/**
 * The Activity page of a workspace (`/w/:workspaceId/activity`, issue 33 point 6): our service's activity log
 * (`GET /activity`, docs/decisions.md section 11), server-paginated (previous, next, page size), newest first. Filters (record type,
 * change, source, batch, a date range) live in the address, so a view can be linked and Back works; changing one goes
 * back to the first page. Every entry links to its record (contacts, products and collections have addresses; a post
 * to the posts page); a batch filters the page to it, and a batch that is a job of this browser links to the Jobs
 * page, whose entry links back here. Revert on each entry the service can undo, and on a whole batch. Where the
 * service has no `activity` extension, one line says it keeps no history and nothing is asked.
 */
import { Anchor, Button, Group, NativeSelect, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { ACTIVITY_ACTIONS, ACTIVITY_RESOURCES, type ActivityEntry } from '@/api/activity';
import { type FilterNode, and, compare } from '@/api/filter/ast';
import { ErrorMessage } from '@/components/error-message';
import { RevertOutcome, useRevert } from '@/components/record-history';
import { RelativeTime } from '@/components/relative-time';
import { useArea, useT } from '@/i18n/react';
import { activityQueries, actionText, actorText, changeLines, isRevertible, resourceText, revertScope } from '@/lib/activity';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { useExtensions } from '@/lib/extensions';
import { jobTitle } from '@/lib/jobs/job-title';
import { useJobs } from '@/lib/jobs/use-jobs';
import { allows } from '@/lib/permissions';

const PAGE_SIZES = [20, 50, 100] as const;

/** The page's filters as the address holds them (`?resource=contact&batch=...&from=2026-11-01&page=2`). */
type Filters = { resource: string; action: string; source: string; batch: string; from: string; to: string };
const FILTER_NAMES = ['resource', 'action', 'source', 'batch', 'from', 'to'] as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The `$filter` tree of `filters`; dates are whole days in the browser's time zone. */
function filterOf(filters: Filters): FilterNode | undefined {
  const from = DATE.test(filters.from) ? new Date(`${filters.from}T00:00:00`) : null;
  const to = DATE.test(filters.to) ? new Date(`${filters.to}T00:00:00`) : null;
  if (to) to.setDate(to.getDate() + 1);
  return and(
    filters.resource ? compare('resource', 'eq', filters.resource) : undefined,
    filters.action ? compare('action', 'eq', filters.action) : undefined,
    filters.source.trim() ? compare('source', 'eq', filters.source.trim()) : undefined,
    filters.batch.trim() ? compare('batchId', 'eq', filters.batch.trim()) : undefined,
    from && !Number.isNaN(from.getTime()) ? compare('created', 'ge', from.toISOString()) : undefined,
    to && !Number.isNaN(to.getTime()) ? compare('created', 'lt', to.toISOString()) : undefined,
  );
}

/** The address of an entry's record: its drawer over its list, or the posts page. */
function recordPath(workspaceId: string, entry: ActivityEntry): string {
  const section = entry.resource === 'contact' ? 'contacts' : entry.resource === 'product' ? 'products' : entry.resource === 'collection' ? 'collections' : null;
  return section ? `/w/${workspaceId}/${section}/${encodeURIComponent(entry.resourceId)}` : `/w/${workspaceId}/posts`;
}

function EntryRow({ entry, workspaceId, onBatch }: { entry: ActivityEntry; workspaceId: string; onBatch: (batchId: string) => void }) {
  const t = useT();
  const { connection } = useWorkspaceApi();
  const revert = useRevert();
  const scope = revertScope(entry.resource);
  const canRevert = scope !== null && allows(connection.permissions, scope) && isRevertible(entry);
  const lines = changeLines(entry);
  return (
    <Table.Tr>
      <Table.Td>
        <RelativeTime iso={entry.created} />
      </Table.Td>
      <Table.Td>
        <Anchor component={Link} size="sm" to={recordPath(workspaceId, entry)} aria-label={t('activity.openRecord', { resource: resourceText(entry.resource), id: entry.resourceId })}>
          {resourceText(entry.resource)} <code>{entry.resourceId.slice(0, 8)}</code>
        </Anchor>
      </Table.Td>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>
        <Text size="sm" fw={600}>
          {actionText(entry.action)}
        </Text>
        {lines.map((line) => (
          <Text key={line} size="xs">
            {line}
          </Text>
        ))}
        {revert.data ? <RevertOutcome result={revert.data} /> : null}
        {revert.isError ? <ErrorMessage error={revert.error} /> : null}
      </Table.Td>
      <Table.Td>
        <Text size="xs">{actorText(entry)}</Text>
      </Table.Td>
      <Table.Td>
        {entry.batchId ? (
          <Anchor component="button" type="button" size="xs" onClick={() => onBatch(entry.batchId!)} aria-label={t('activity.showBatch')} title={entry.batchId}>
            <code>{entry.batchId.slice(0, 8)}</code>
          </Anchor>
        ) : (
          '—'
        )}
      </Table.Td>
      <Table.Td>
        {canRevert && !revert.data ? (
          <Button size="compact-xs" variant="default" loading={revert.isPending} onClick={() => revert.mutate({ activityId: entry.activityId })} aria-label={t('activity.revertLabel', { what: [actionText(entry.action), ...lines].join(', ') })}>
            {t('activity.revert')}
          </Button>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}

function BatchRevert({ batchId }: { batchId: string }) {
  const t = useT();
  const revert = useRevert();
  const { workspaceId } = useWorkspaceApi();
  // A batch that is a job of this browser links to it (its entry on the Jobs page links back here).
  const job = useJobs(workspaceId)?.find((candidate) => candidate.id === batchId);
  return (
    <Stack gap="xs">
      {job ? (
        <Anchor component={Link} size="sm" underline="always" to={`/w/${workspaceId}/jobs`}>
          {t('activity.jobLink')}: {jobTitle(job)}
        </Anchor>
      ) : null}
      {!revert.data ? (
        <Button size="xs" variant="default" w="fit-content" loading={revert.isPending} onClick={() => revert.mutate({ batchId })}>
          {t('activity.revertBatch')}
        </Button>
      ) : (
        <RevertOutcome result={revert.data} />
      )}
      {revert.isError ? <ErrorMessage error={revert.error} /> : null}
    </Stack>
  );
}

function ActivityLog() {
  const t = useT();
  const { api, workspaceId } = useWorkspaceApi();
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(FILTER_NAMES.map((name) => [name, params.get(name) ?? ''])) as Filters;
  const pageSize = PAGE_SIZES.find((size) => String(size) === params.get('size')) ?? 20;
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const filter = filterOf(filters);
  const list = useQuery({
    queryKey: [...activityQueries.all(workspaceId), 'list', { ...filters, page, pageSize }],
    queryFn: ({ signal }) => api.listActivity({ filter, offset: (page - 1) * pageSize, limit: pageSize, signal }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const set = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next);
  };
  return (
    <Stack>
      <Group align="flex-end" gap="xs" wrap="wrap" role="search" aria-label={t('activity.page')}>
        <NativeSelect
          label={t('activity.filterResource')}
          value={filters.resource}
          onChange={(event) => set({ resource: event.currentTarget.value })}
          data={[{ value: '', label: t('activity.anyResource') }, ...ACTIVITY_RESOURCES.map((resource) => ({ value: resource, label: resourceText(resource) }))]}
        />
        <NativeSelect
          label={t('activity.filterAction')}
          value={filters.action}
          onChange={(event) => set({ action: event.currentTarget.value })}
          data={[{ value: '', label: t('activity.anyAction') }, ...ACTIVITY_ACTIONS.map((action) => ({ value: action, label: actionText(action) }))]}
        />
        <TextInput label={t('activity.filterSource')} defaultValue={filters.source} key={`source-${filters.source}`} onBlur={(event) => set({ source: event.currentTarget.value })} onKeyDown={(event) => event.key === 'Enter' && set({ source: event.currentTarget.value })} />
        <TextInput label={t('activity.filterBatch')} defaultValue={filters.batch} key={`batch-${filters.batch}`} onBlur={(event) => set({ batch: event.currentTarget.value })} onKeyDown={(event) => event.key === 'Enter' && set({ batch: event.currentTarget.value })} />
        <TextInput type="date" label={t('activity.filterFrom')} value={filters.from} onChange={(event) => set({ from: event.currentTarget.value })} />
        <TextInput type="date" label={t('activity.filterTo')} value={filters.to} onChange={(event) => set({ to: event.currentTarget.value })} />
        {FILTER_NAMES.some((name) => filters[name]) ? (
          <Button size="xs" variant="subtle" onClick={() => setParams(new URLSearchParams())}>
            {t('activity.clearFilters')}
          </Button>
        ) : null}
      </Group>
      {filters.batch ? <BatchRevert key={filters.batch} batchId={filters.batch} /> : null}
      {list.isError ? <ErrorMessage error={list.error} /> : null}
      {list.data ? (
        <>
          <Text size="sm" role="status">
            {t('activity.total', { count: list.data.meta.maxResults })}
          </Text>
          {list.data.items.length === 0 ? (
            <Text>{t('activity.none')}</Text>
          ) : (
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing="xs" aria-label={t('activity.page')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('activity.colWhen')}</Table.Th>
                    <Table.Th>{t('activity.colRecord')}</Table.Th>
                    <Table.Th>{t('activity.colChange')}</Table.Th>
                    <Table.Th>{t('activity.colBy')}</Table.Th>
                    <Table.Th>{t('activity.colBatch')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('activity.revert')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.data.items.map((entry) => (
                    <EntryRow key={entry.activityId} entry={entry} workspaceId={workspaceId} onBatch={(batch) => set({ batch })} />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <Group gap="xs" role="group" aria-label={t('activity.pages')}>
            <Button size="xs" variant="default" disabled={page <= 1} onClick={() => set({ page: String(page - 1) })}>
              {t('activity.previous')}
            </Button>
            <Text size="sm">{t('activity.pageOf', { page, pages: Math.max(1, Math.ceil(list.data.meta.maxResults / pageSize)) })}</Text>
            <Button size="xs" variant="default" disabled={page * pageSize >= list.data.meta.maxResults} onClick={() => set({ page: String(page + 1) })}>
              {t('activity.next')}
            </Button>
            <NativeSelect
              size="xs"
              aria-label={t('activity.pageSize')}
              value={String(pageSize)}
              onChange={(event) => set({ size: event.currentTarget.value })}
              data={PAGE_SIZES.map((size) => String(size))}
            />
          </Group>
        </>
      ) : null}
    </Stack>
  );
}

export function ActivityPage() {
  useArea('activity');
  const t = useT();
  const extensions = useExtensions();
  const keepsHistory = extensions.has('activity');
  return (
    <Stack>
      <Title order={1}>{t('activity.page')}</Title>
      <Text size="sm" c="dimmed">
        {t('activity.pageIntro')}
      </Text>
      {!extensions.known ? null : keepsHistory ? <ActivityLog /> : <Text>{t('activity.noHistoryService')}</Text>}
    </Stack>
  );
}
