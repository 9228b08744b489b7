/**
 * The saved views of a list page (issue 14 point 7, react-admin's saved queries), one shared component for every
 * list with filters: a row of the views of this workspace and list (lib/saved-views.ts), each a link to its URL (one
 * click opens it; the view shown is marked current), with a menu to rename it, copy its link or delete it; and
 * "Save view", which names the current filters, sort, page size and hidden columns. A URL with `hide=<ids>` (a
 * view's link) sets the list's hidden columns through `onHiddenChange` and loses the parameter (replacing the history
 * entry), so the column menu stays in charge afterwards. Pages load it after the first paint (React.lazy).
 *
 * Issue 16: the row itself is light; each view's menu loads at the page's first interaction (a plain button stands
 * in, AfterInteraction) and the naming dialog when it opens (saved-view-popups.tsx), so a list's first screen does
 * not carry Mantine's Menu and Modal (about 45 KB of gzip with floating-ui and the focus trap).
 */
import { ActionIcon, Button, Group, Text } from '@mantine/core';
import { Suspense, lazy, useEffect, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { loadArea } from '@/i18n/i18n';
import { useT } from '@/i18n/react';
import { useWorkspaceApi } from '@/lib/api';
import { HIDE_PARAM, type SavedView, hiddenOf, nameProblem, renameView, saveView, useSavedViews, viewSearch } from '@/lib/saved-views';
import { AfterInteraction } from './after-interaction';

// The pop-ups' texts (the `tools` catalog area) load with their code.
const popups = () => Promise.all([import('./saved-view-popups'), loadArea('tools')]).then(([m]) => m);
const ViewMenu = lazy(() => popups().then((m) => ({ default: m.ViewMenu })));
const NameDialog = lazy(() => popups().then((m) => ({ default: m.NameDialog })));

export type SavedViewsProps = {
  /** The list page: its path under the workspace, `contacts`, `products`, `collections`, `posts` or `workspaces`. */
  list: string;
  /** The ids of the list's hidden columns, for lists with a column choice. */
  hidden?: readonly string[] | undefined;
  /** Sets the hidden columns (from a view's URL); lists without a column choice leave it out. */
  onHiddenChange?: ((hidden: string[]) => void) | undefined;
};

type Naming = { mode: 'save' } | { mode: 'rename'; view: SavedView };

export function SavedViews({ list, hidden = [], onHiddenChange }: SavedViewsProps) {
  const t = useT();
  const { workspaceId } = useWorkspaceApi();
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
  const pathOf = (view: SavedView) => `/w/${workspaceId}/${list}${view.search ? `?${view.search}` : ''}`;

  return (
    <Group gap="xs" wrap="wrap" role="group" aria-label={t('shell.savedViews')}>
      <Text size="sm" c="dimmed" component="span">
        {t('shell.views')}
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
                <ActionIcon variant="subtle" size="md" aria-label={t('shell.viewOptions', { name: view.name })}>
                  <span aria-hidden="true">⋯</span>
                </ActionIcon>
              }
            >
              <ViewMenu view={view} list={list} link={`${window.location.origin}${pathOf(view)}`} onRename={() => setNaming({ mode: 'rename', view })} />
            </AfterInteraction>
          </Group>
        );
      })}
      <Button size="xs" variant="subtle" onClick={() => setNaming({ mode: 'save' })}>
        {t('shell.saveView')}
      </Button>
      {naming ? (
        <Suspense fallback={null}>
          <NameDialog
            renaming={naming.mode === 'rename' ? naming.view.name : undefined}
            initial={naming.mode === 'save' ? '' : naming.view.name}
            check={(name) => nameProblem(views, name, naming.mode === 'rename' ? naming.view.id : undefined)}
            onSubmit={(name) => {
              if (naming.mode === 'save') saveView(workspaceId, list, name, current);
              else renameView(workspaceId, list, naming.view.id, name);
              setNaming(null);
            }}
            onClose={() => setNaming(null)}
          />
        </Suspense>
      ) : null}
    </Group>
  );
}
