/**
 * `/w/:workspaceId/workspaces` (issue 7): the organization's workspaces (`GET /workspaces`) with a name search,
 * sorting by name or creation and pages, all in the URL. Each shows whether this device holds a key for it
 * (and its scopes), "Switch" or "Add key", a link to its public embed page and a copyable `<iframe>` snippet.
 * The pager describes the rows on screen and paging scrolls back to the table (issue 14, point 1).
 */
import { Anchor, Avatar, Badge, Button, Code, CopyButton, Group, NativeSelect, Pagination, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useSearchParamsWriter } from '@/lib/list-search';
import { QueryView } from '@/components/query-state';
import { FilterSheet } from '@/components/filter-sheet';
import { SimpleTable } from '@/components/simple-table';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { type SavedConnection, useConnections } from '@/lib/connections';
import { allows } from '@/lib/permissions';
import { revealTop, useShown } from '@/lib/list-view';
import { formatDate } from '@/i18n/format';
import { useArea, useT } from '@/i18n/react';
import { permissionSummary } from '@/lib/permission-words';
import { workspaceQueries } from './queries';
import {
  WORKSPACE_PAGE_SIZES,
  WORKSPACE_SORTS,
  type WorkspaceSort,
  type WorkspacesSearch,
  iframeSnippet,
  parseWorkspacesSearch,
  workspacesSearchParams,
} from './workspaces-search';
import { prefetchSpeculative } from '@/lib/query-client';

// Saved views load after the first paint (issue 14 point 7).
const SavedViews = lazy(() => import('@/components/saved-views-row').then((m) => ({ default: m.SavedViews })));

/**
 * `see posts and list the workspaces`: what a saved key allows, in words (issue 34 point 9; src/lib/permission-words.ts,
 * the `tools` catalog area, loaded with this page); null with none.
 */
function keySummary(connection: SavedConnection): string | null {
  return Object.keys(connection.permissions).length ? permissionSummary(connection.permissions) : null;
}

/** Where "Switch" opens a workspace: this page when its key may list workspaces, else its contacts. */
function openingSection(connection: SavedConnection | undefined): string {
  return connection && allows(connection.permissions, 'feeds:read-only') ? 'workspaces' : 'contacts';
}

/** The workspaces page (see the module comment). */
export function WorkspacesPage() {
  // The keys' permissions in words come from the `tools` area (src/lib/permission-words.ts).
  useArea('tools');
  const t = useT();
  const { api, workspaceId } = useWorkspaceApi();
  const queryClient = useQueryClient();
  const connections = useConnections();
  const [params, latest, write] = useSearchParamsWriter();
  const search = parseWorkspacesSearch(params);
  const update = (patch: Partial<WorkspacesSearch>, resetPage = false) => write(workspacesSearchParams({ ...parseWorkspacesSearch(latest()), ...patch, ...(resetPage ? { page: 1 } : {}) }));

  const [text, setText] = useState(search.q);
  const [debounced] = useDebouncedValue(text, 300);
  useEffect(() => setText(search.q), [search.q]);
  useEffect(() => {
    if (debounced.trim() !== search.q.trim()) update({ q: debounced }, true);
    // Only a settled change of the typed text updates the URL.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);

  const listParams = (page: number) => ({ offset: (page - 1) * search.size, limit: search.size, search: search.q || undefined, orderBy: WORKSPACE_SORTS[search.sort].orderBy });
  const list = useQuery(workspaceQueries.list(api, workspaceId, listParams(search.page)));
  const total = list.data?.meta.maxResults ?? 0;
  const pages = Math.max(1, Math.ceil(total / search.size));
  const shownPage = useShown(search.page, list.isPlaceholderData);
  const tableTop = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (list.data && search.page < pages) void prefetchSpeculative(queryClient, workspaceQueries.list(api, workspaceId, listParams(search.page + 1)));
    // `listParams` is derived from the values listed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [list.data, search.page, pages, search.q, search.sort, search.size, api, workspaceId, queryClient]);

  const saved = new Map(connections.map((connection) => [connection.workspaceId, connection]));
  const origin = window.location.origin;
  return (
    <Stack>
      <Title order={1}>{t('workspaces.title')}</Title>
      <Stack gap={4}>
        <Text size="sm">{t('workspaces.intro')}</Text>
        <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {iframeSnippet(origin, { id: workspaceId, name: saved.get(workspaceId)?.workspaceName ?? t('workspaces.thisWorkspace') })}
        </Code>
      </Stack>
      <Suspense fallback={null}>
        <SavedViews list="workspaces" />
      </Suspense>
      <FilterSheet active={Boolean(search.q)}>
        <Group align="flex-end" gap="sm" role="search" aria-label={t('workspaces.filter')}>
          <TextInput label={t('workspaces.searchByName')} value={text} onChange={(event) => setText(event.currentTarget.value)} w={260} />
          <NativeSelect
            label={t('workspaces.sortBy')}
            value={search.sort}
            onChange={(event) => update({ sort: event.currentTarget.value as WorkspaceSort }, true)}
            data={Object.entries(WORKSPACE_SORTS).map(([value, { labelKey }]) => ({ value, label: t(labelKey) }))}
          />
          <NativeSelect
            label={t('workspaces.perPage')}
            value={String(search.size)}
            onChange={(event) => update({ size: Number(event.currentTarget.value) as WorkspacesSearch['size'] }, true)}
            data={WORKSPACE_PAGE_SIZES.map(String)}
          />
        </Group>
      </FilterSheet>
      <QueryView query={list} label={t('workspaces.listLabel')}>
        {(data) => (
          <Stack ref={tableTop}>
            <Text size="sm" c="dimmed" aria-live="polite">
              {search.q ? t('workspaces.countMatching', { count: data.meta.maxResults }) : t('workspaces.count', { count: data.meta.maxResults })}
              {pages > 1 ? ` · ${t('workspaces.pageOf', { page: Math.min(shownPage, pages), pages })}` : ''}
              {list.isPlaceholderData && shownPage !== search.page ? ` · ${t('workspaces.loadingPage', { page: search.page })}` : ''}
            </Text>
            {data.items.length === 0 ? (
              <Text>{search.q ? t('workspaces.noMatch') : t('workspaces.none')}</Text>
            ) : (
              <SimpleTable aria-label={t('workspaces.table')} striped cards>
                <thead>
                  <tr>
                    <th scope="col">{t('workspaces.columnWorkspace')}</th>
                    <th scope="col">{t('workspaces.columnCreated')}</th>
                    <th scope="col">{t('workspaces.columnKey')}</th>
                    <th scope="col">{t('workspaces.columnOpen')}</th>
                    <th scope="col">{t('workspaces.columnPublic')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((workspace) => {
                    const connection = saved.get(workspace.id);
                    const current = workspace.id === workspaceId;
                    const target = openingSection(connection);
                    return (
                      <tr key={workspace.id}>
                        <th scope="row" style={{ fontWeight: 'normal' }}>
                          <Group gap="xs" wrap="nowrap">
                            <Avatar src={workspace.imageUrl} alt="" size="sm" radius="sm" aria-hidden>
                              {workspace.name.slice(0, 1).toUpperCase()}
                            </Avatar>
                            <div>
                              <Text size="sm" fw={600}>
                                {workspace.name}
                              </Text>
                              {current ? (
                                <Text size="xs" c="dimmed">
                                  {t('workspaces.current')}
                                </Text>
                              ) : null}
                            </div>
                          </Group>
                        </th>
                        <td data-nowrap data-label={t('workspaces.columnCreated')}>
                          <time dateTime={workspace.created}>{formatDate(workspace.created)}</time>
                        </td>
                        <td data-label={t('workspaces.columnKey')}>
                          {connection ? (
                            <Stack gap={2}>
                              <Badge color="green" variant="light">
                                {t('workspaces.keySaved')}
                              </Badge>
                              <Text size="xs" c="dimmed">
                                {keySummary(connection) ?? t('workspaces.noScopes')}
                              </Text>
                            </Stack>
                          ) : (
                            <Badge color="gray" variant="outline">
                              {t('workspaces.noKey')}
                            </Badge>
                          )}
                        </td>
                        <td>
                          {current ? (
                            <Text size="sm" c="dimmed">
                              {t('workspaces.openNow')}
                            </Text>
                          ) : connection ? (
                            <Button component={Link} to={`/w/${workspace.id}/${target}`} size="xs" variant="light" aria-label={t('workspaces.switchTo', { name: workspace.name })}>
                              {t('workspaces.switch')}
                            </Button>
                          ) : (
                            <Button
                              component={Link}
                              to={`/connect?workspace=${encodeURIComponent(workspace.id)}&reason=missing&return=${encodeURIComponent(`/w/${workspace.id}/workspaces`)}`}
                              size="xs"
                              variant="default"
                              aria-label={t('workspaces.addKeyFor', { name: workspace.name })}
                            >
                              {t('workspaces.addKey')}
                            </Button>
                          )}
                        </td>
                        <td>
                          <Group gap="xs" wrap="wrap">
                            <Anchor style={{ whiteSpace: 'nowrap' }} href={`/embed/${encodeURIComponent(workspace.id)}`} target="_blank" rel="noreferrer" size="sm" aria-label={t('workspaces.publicPageOf', { name: workspace.name })}>
                              {t('workspaces.publicPage')}
                            </Anchor>
                            <CopyButton value={iframeSnippet(origin, workspace)} timeout={2000}>
                              {({ copied, copy }) => (
                                <Button size="xs" variant={copied ? 'filled' : 'default'} color={copied ? 'teal' : undefined} onClick={copy} aria-label={copied ? t('workspaces.copiedSnippetFor', { name: workspace.name }) : t('workspaces.copySnippetFor', { name: workspace.name })}>
                                  {copied ? t('workspaces.copied') : t('workspaces.copy')}
                                </Button>
                              )}
                            </CopyButton>
                          </Group>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </SimpleTable>
            )}
            {pages > 1 ? (
              <nav aria-label={t('workspaces.pages')}>
                <Pagination
                  total={pages}
                  value={Math.min(shownPage, pages)}
                  onChange={(page) => {
                    update({ page });
                    revealTop(tableTop.current);
                  }}
                  getItemProps={(page) => ({ 'aria-label': t('workspaces.page', { page }) })}
                  getControlProps={(control) => ({ 'aria-label': { first: t('lists.firstPage'), previous: t('lists.previousPage'), next: t('lists.nextPage'), last: t('lists.lastPage') }[control] })}
                />
              </nav>
            ) : null}
          </Stack>
        )}
      </QueryView>
    </Stack>
  );
}
