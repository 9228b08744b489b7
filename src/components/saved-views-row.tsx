/**
 * The saved views of a list page (issue 14 point 7, react-admin's saved queries), one shared component for every
 * list with filters: a row of the views of this workspace and list (lib/saved-view-store.ts), each a link to its URL (one
 * click opens it; the view shown is marked current), with a menu to rename it, copy its link or delete it; and
 * "Save view", which names the current filters, sort, page size and hidden columns. A URL with `hide=<ids>` (a
 * view's link) sets the list's hidden columns through `onHiddenChange` and loses the parameter (replacing the history
 * entry), so the column menu stays in charge afterwards. Pages load it after the first paint (React.lazy).
 *
 * Issue 36 point 8: a list that passes `shared` (contacts, the one resource the service keeps views of) also shows
 * the workspace's shared views where `GET /extensions` names `shared-views` (docs/decisions.md section 13;
 * lib/shared-views.ts): after the personal ones, each marked "Shared by …a1b2" (the key that made it), opened the
 * same way, renamed or deleted (after a confirmation) by any key with contacts:read-write; the naming dialog offers
 * "Share with the workspace". A key with contacts:read-only sees and opens them, and is told why it cannot change
 * them. When `GET /views` fails (after the client's retries) the row says the shared views could not be loaded, with a
 * Retry, rather than showing none. Without the extension the row is as before: nothing is asked of the service.
 *
 * Issue 16: the row itself is light; each view's menu loads at the page's first interaction (a plain button stands
 * in, AfterInteraction) and the naming dialog when it opens (saved-view-popups.tsx), so a list's first screen does
 * not carry Mantine's Menu and Modal (about 45 KB of gzip with floating-ui and the focus trap).
 */
import { ActionIcon, Badge, Button, Group, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, lazy, useEffect, useId, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import type { SharedView } from '@/api/live';
import { loadArea } from '@/i18n/i18n';
import { WithArea, useT } from '@/i18n/react';
import { useWorkspaceApi } from '@/lib/workspace-api';
import { useExtensions } from '@/lib/extensions';
import { allows } from '@/lib/permissions';
import { HIDE_PARAM, type SavedView, hiddenOf, nameProblem, noteSharedViews, renameView, saveView, useSavedViews, viewSearch } from '@/lib/saved-view-store';
import {
  SHARED_VIEW_NAME_MAX,
  type ShareSource,
  createSharedView,
  deleteSharedView,
  renameSharedView,
  isSharedViewShown,
  sharedNameProblem,
  sharedViewQueries,
  sharedViewSearch,
  viewQueryOf,
} from '@/lib/shared-views';
import { AfterInteraction } from './after-interaction';

// The pop-ups' texts (the `tools` catalog area) load with their code.
const popups = () => Promise.all([import('./saved-view-popups'), loadArea('tools')]).then(([m]) => m);
const ViewMenu = lazy(() => popups().then((m) => ({ default: m.ViewMenu })));
const SharedViewMenu = lazy(() => popups().then((m) => ({ default: m.SharedViewMenu })));
const NameDialog = lazy(() => popups().then((m) => ({ default: m.NameDialog })));
const DeleteSharedViewDialog = lazy(() => popups().then((m) => ({ default: m.DeleteSharedViewDialog })));

export type SavedViewsProps = {
  /** The list page: its path under the workspace, `contacts`, `products`, `collections`, `posts` or `workspaces`. */
  list: string;
  /** The ids of the list's hidden columns, for lists with a column choice. */
  hidden?: readonly string[] | undefined;
  /** Sets the hidden columns (from a view's URL); lists without a column choice leave it out. */
  onHiddenChange?: ((hidden: string[]) => void) | undefined;
  /** The list's request and columns, for a list whose views the service can share (issue 36 point 8: contacts). */
  shared?: ShareSource | undefined;
};

type Naming = { mode: 'save' } | { mode: 'rename'; view: SavedView } | { mode: 'rename-shared'; view: SharedView };

const NO_SHARED_VIEWS: SharedView[] = [];

export function SavedViews({ list, hidden = [], onHiddenChange, shared }: SavedViewsProps) {
  const t = useT();
  const { api, workspaceId, connection } = useWorkspaceApi();
  const queryClient = useQueryClient();
  // Shared views only where the service keeps them (docs/decisions.md section 13) and the list can share.
  const extensions = useExtensions();
  const sharing = shared !== undefined && extensions.has('shared-views');
  const canShare = allows(connection.permissions, 'contacts:read-write');
  const sharedQuery = useQuery({ ...sharedViewQueries.list(api, workspaceId), enabled: sharing });
  const sharedViews = sharing ? (sharedQuery.data ?? NO_SHARED_VIEWS) : NO_SHARED_VIEWS;
  const notLoadedId = useId();
  useEffect(() => {
    if (sharing && sharedQuery.data) noteSharedViews(workspaceId, list, sharedQuery.data.length > 0);
  }, [sharing, sharedQuery.data, workspaceId, list]);
  const [deleting, setDeleting] = useState<SharedView | null>(null);
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const fromUrl = params.get(HIDE_PARAM);
  useEffect(() => {
    if (fromUrl === null) return;
    onHiddenChange?.(hiddenOf(fromUrl));
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(HIDE_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [fromUrl, onHiddenChange, setParams]);
  const views = useSavedViews(workspaceId, list);
  const [naming, setNaming] = useState<Naming | null>(null);
  const current = viewSearch(new URLSearchParams(location.search), hidden);
  const pathOf = (view: Pick<SavedView, 'search'>) => `/w/${workspaceId}/${list}${view.search ? `?${view.search}` : ''}`;

  return (
    <Group gap="xs" wrap="wrap" role="group" aria-label={t('lists.savedViews')}>
      <Text size="sm" c="dimmed" component="span">
        {t('lists.views')}
      </Text>
      {views.map((view) => {
        const isCurrent = view.search === current;
        return (
          <Group key={view.id} gap={0} wrap="nowrap">
            <Button component={Link} to={pathOf(view)} size="xs" variant={isCurrent ? 'light' : 'default'} aria-current={isCurrent ? 'true' : undefined}>
              {view.name}
            </Button>
            <AfterInteraction
              fallback={
                <ActionIcon variant="subtle" size="md" aria-label={t('lists.viewOptions', { name: view.name })}>
                  <span aria-hidden="true">⋯</span>
                </ActionIcon>
              }
            >
              <ViewMenu view={view} list={list} link={`${window.location.origin}${pathOf(view)}`} onRename={() => setNaming({ mode: 'rename', view })} />
            </AfterInteraction>
          </Group>
        );
      })}
      {sharedViews.length && shared ? (
        // The shared views' marks and menus speak from the `tools` catalog area, loaded with them.
        <WithArea
          area="tools"
          render={() =>
            sharedViews.map((view) => (
              <SharedViewLink
                key={view.viewId}
                view={view}
                search={sharedViewSearch(view, shared.columns)}
                isCurrent={isSharedViewShown(view, viewQueryOf(shared, hidden))}
                pathOf={pathOf}
                canWrite={canShare}
                onRename={() => setNaming({ mode: 'rename-shared', view })}
                onDelete={() => setDeleting(view)}
              />
            ))
          }
        />
      ) : null}
      {sharing && sharedQuery.isLoadingError ? (
        // Not "no shared views": the row says they could not be loaded, and tries again on request.
        <WithArea
          area="tools"
          render={() => (
            <Group gap={4} wrap="nowrap">
              <Text id={notLoadedId} size="sm" c="var(--mantine-color-error)" role="alert">
                {t('tools.sharedViewsNotLoaded')}
              </Text>
              <Button size="xs" variant="light" aria-describedby={notLoadedId} loading={sharedQuery.isFetching} onClick={() => void sharedQuery.refetch()}>
                {t('common.retry')}
              </Button>
            </Group>
          )}
        />
      ) : null}
      <Button size="xs" variant="subtle" onClick={() => setNaming({ mode: 'save' })}>
        {t('lists.saveView')}
      </Button>
      {naming ? (
        <Suspense fallback={null}>
          {naming.mode === 'rename-shared' ? (
            <NameDialog
              renaming={naming.view.name}
              initial={naming.view.name}
              sharedMax={SHARED_VIEW_NAME_MAX}
              check={(name) => sharedNameProblem(sharedViews, name, SHARED_VIEW_NAME_MAX, naming.view.viewId)}
              onSubmit={async (name) => {
                await renameSharedView(api, queryClient, workspaceId, naming.view, name);
                setNaming(null);
              }}
              onClose={() => setNaming(null)}
            />
          ) : (
            <NameDialog
              renaming={naming.mode === 'rename' ? naming.view.name : undefined}
              initial={naming.mode === 'save' ? '' : naming.view.name}
              share={naming.mode === 'save' && sharing ? { allowed: canShare, max: SHARED_VIEW_NAME_MAX } : undefined}
              check={(name, toShare) =>
                toShare ? sharedNameProblem(sharedViews, name, SHARED_VIEW_NAME_MAX) : nameProblem(views, name, naming.mode === 'rename' ? naming.view.id : undefined)
              }
              onSubmit={async (name, toShare) => {
                if (naming.mode === 'rename') renameView(workspaceId, list, naming.view.id, name);
                else if (toShare && shared) await createSharedView(api, queryClient, workspaceId, name, viewQueryOf(shared, hidden));
                else saveView(workspaceId, list, name, current);
                setNaming(null);
              }}
              onClose={() => setNaming(null)}
            />
          )}
        </Suspense>
      ) : null}
      {deleting ? (
        <Suspense fallback={null}>
          <DeleteSharedViewDialog
            name={deleting.name}
            onConfirm={async () => {
              await deleteSharedView(api, queryClient, workspaceId, deleting.viewId);
              setDeleting(null);
            }}
            onClose={() => setDeleting(null)}
          />
        </Suspense>
      ) : null}
    </Group>
  );
}

/**
 * One shared view in the row (issue 36 point 8): its link (`search`, made by lib/shared-views.ts; marked current when
 * the list shows it, `isCurrent`), the mark "Shared by …a1b2" that describes the link, and its menu (SharedViewMenu, loaded at
 * the first interaction). Rendered once the `tools` catalog area is loaded.
 */
function SharedViewLink({
  view,
  search,
  isCurrent,
  pathOf,
  canWrite,
  onRename,
  onDelete,
}: {
  view: SharedView;
  search: string;
  isCurrent: boolean;
  pathOf: (view: { search: string }) => string;
  canWrite: boolean;
  onRename: () => void;
  onDelete: () => void;
}) {
  const t = useT();
  const markId = useId();
  const path = pathOf({ search });
  return (
    <Group gap={4} wrap="nowrap">
      <Button component={Link} to={path} size="xs" variant={isCurrent ? 'light' : 'default'} aria-current={isCurrent ? 'true' : undefined} aria-describedby={markId}>
        {view.name}
      </Button>
      <Badge id={markId} size="sm" variant="light" color="teal" tt="none">
        {view.keyHint ? t('tools.sharedBy', { hint: view.keyHint }) : t('tools.shared')}
      </Badge>
      <AfterInteraction
        fallback={
          <ActionIcon variant="subtle" size="md" aria-label={t('tools.sharedViewOptions', { name: view.name })}>
            <span aria-hidden="true">⋯</span>
          </ActionIcon>
        }
      >
        <SharedViewMenu name={view.name} link={`${window.location.origin}${path}`} canWrite={canWrite} onRename={onRename} onDelete={onDelete} />
      </AfterInteraction>
    </Group>
  );
}
