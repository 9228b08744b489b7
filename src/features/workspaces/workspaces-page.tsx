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
import { Link, useSearchParams } from 'react-router';
import { QueryView } from '@/components/query-state';
import { SimpleTable } from '@/components/simple-table';
import { useWorkspaceApi } from '@/lib/api';
import { type SavedConnection, useConnections } from '@/lib/connections';
import { allows } from '@/lib/permissions';
import { revealTop, useShown } from '@/lib/list-view';
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
const SavedViews = lazy(() => import('@/components/saved-views').then((m) => ({ default: m.SavedViews })));

/** `feeds: read-write · posts: read-only`: a saved key's permissions in a few words. */
function permissionSummary(connection: SavedConnection): string {
  const entries = Object.entries(connection.permissions);
  return entries.length ? entries.map(([resource, level]) => `${resource}: ${level}`).join(' · ') : 'no scopes';
}

/** The workspaces page (see the module comment). */
export function WorkspacesPage() {
  const { api, workspaceId } = useWorkspaceApi();
  const queryClient = useQueryClient();
  const connections = useConnections();
  const [params, setParams] = useSearchParams();
  const search = parseWorkspacesSearch(params);
  const update = (patch: Partial<WorkspacesSearch>, resetPage = false) => setParams(workspacesSearchParams({ ...search, ...patch, ...(resetPage ? { page: 1 } : {}) }));

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
      <Title order={1}>Workspaces</Title>
      <Stack gap={4}>
        <Text size="sm">Every workspace of the organization. Embed a workspace’s public posts on any site with its iframe snippet, like this one for the current workspace:</Text>
        <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {iframeSnippet(origin, { id: workspaceId, name: saved.get(workspaceId)?.workspaceName ?? 'this workspace' })}
        </Code>
      </Stack>
      <Suspense fallback={null}>
        <SavedViews list="workspaces" />
      </Suspense>
      <Group align="flex-end" gap="sm" role="search" aria-label="Filter workspaces">
        <TextInput label="Search by name" value={text} onChange={(event) => setText(event.currentTarget.value)} w={260} />
        <NativeSelect
          label="Sort by"
          value={search.sort}
          onChange={(event) => update({ sort: event.currentTarget.value as WorkspaceSort }, true)}
          data={Object.entries(WORKSPACE_SORTS).map(([value, { label }]) => ({ value, label }))}
        />
        <NativeSelect
          label="Workspaces per page"
          value={String(search.size)}
          onChange={(event) => update({ size: Number(event.currentTarget.value) as WorkspacesSearch['size'] }, true)}
          data={WORKSPACE_PAGE_SIZES.map(String)}
        />
      </Group>
      <QueryView query={list} label="workspaces">
        {(data) => (
          <Stack ref={tableTop}>
            <Text size="sm" c="dimmed" aria-live="polite">
              {data.meta.maxResults.toLocaleString()} {data.meta.maxResults === 1 ? 'workspace' : 'workspaces'}
              {search.q ? ' match' : ''}
              {pages > 1 ? ` · page ${Math.min(shownPage, pages)} of ${pages}` : ''}
              {list.isPlaceholderData && shownPage !== search.page ? ` · loading page ${search.page}…` : ''}
            </Text>
            {data.items.length === 0 ? (
              <Text>{search.q ? 'No workspace name contains these words.' : 'The organization has no workspaces.'}</Text>
            ) : (
              <SimpleTable aria-label="Workspaces of the organization" striped>
                <thead>
                  <tr>
                    <th scope="col">Workspace</th>
                    <th scope="col">Created</th>
                    <th scope="col">Key on this device</th>
                    <th scope="col">Open</th>
                    <th scope="col">Public page</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((workspace) => {
                    const connection = saved.get(workspace.id);
                    const current = workspace.id === workspaceId;
                    const target = connection && allows(connection.permissions, 'feeds:read-only') ? 'workspaces' : 'contacts';
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
                                  current workspace
                                </Text>
                              ) : null}
                            </div>
                          </Group>
                        </th>
                        <td style={{ whiteSpace: 'nowrap' }}>
                          <time dateTime={workspace.created}>{new Date(workspace.created).toLocaleDateString(undefined, { dateStyle: 'medium' })}</time>
                        </td>
                        <td>
                          {connection ? (
                            <Stack gap={2}>
                              <Badge color="green" variant="light">
                                Key saved
                              </Badge>
                              <Text size="xs" c="dimmed">
                                {permissionSummary(connection)}
                              </Text>
                            </Stack>
                          ) : (
                            <Badge color="gray" variant="outline">
                              No key
                            </Badge>
                          )}
                        </td>
                        <td>
                          {current ? (
                            <Text size="sm" c="dimmed">
                              Open now
                            </Text>
                          ) : connection ? (
                            <Button component={Link} to={`/w/${workspace.id}/${target}`} size="xs" variant="light" aria-label={`Switch to ${workspace.name}`}>
                              Switch
                            </Button>
                          ) : (
                            <Button
                              component={Link}
                              to={`/connect?workspace=${encodeURIComponent(workspace.id)}&reason=missing&return=${encodeURIComponent(`/w/${workspace.id}/workspaces`)}`}
                              size="xs"
                              variant="default"
                              aria-label={`Add a key for ${workspace.name}`}
                            >
                              Add key
                            </Button>
                          )}
                        </td>
                        <td>
                          <Group gap="xs" wrap="wrap">
                            <Anchor style={{ whiteSpace: 'nowrap' }} href={`/embed/${encodeURIComponent(workspace.id)}`} target="_blank" rel="noreferrer" size="sm" aria-label={`Public page of ${workspace.name}`}>
                              Public page
                            </Anchor>
                            <CopyButton value={iframeSnippet(origin, workspace)} timeout={2000}>
                              {({ copied, copy }) => (
                                <Button size="xs" variant={copied ? 'filled' : 'default'} color={copied ? 'teal' : undefined} onClick={copy} aria-label={`${copied ? 'Copied' : 'Copy'} the iframe snippet for ${workspace.name}`}>
                                  {copied ? 'Copied' : 'Copy iframe'}
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
              <nav aria-label="Pages of workspaces">
                <Pagination
                  total={pages}
                  value={Math.min(shownPage, pages)}
                  onChange={(page) => {
                    update({ page });
                    revealTop(tableTop.current);
                  }}
                  getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
                  getControlProps={(control) => ({ 'aria-label': { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' }[control] })}
                />
              </nav>
            ) : null}
          </Stack>
        )}
      </QueryView>
    </Stack>
  );
}
