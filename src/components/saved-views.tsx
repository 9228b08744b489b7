/**
 * The saved views of a list page (issue 14 point 7, react-admin's saved queries), one shared component for every
 * list with filters: a row of the views of this workspace and list (lib/saved-views.ts), each a link to its URL (one
 * click opens it; the view shown is marked current), with a menu to rename it, copy its link or delete it; and
 * "Save view", which names the current filters, sort, page size and hidden columns. A URL with `hide=<ids>` (a
 * view's link) sets the list's hidden columns through `onHiddenChange` and loses the parameter (replacing the history
 * entry), so the column menu stays in charge afterwards. Pages load it after the first paint (React.lazy).
 */
import { ActionIcon, Button, Group, Menu, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { useWorkspaceApi } from '@/lib/api';
import { HIDE_PARAM, type SavedView, deleteView, hiddenOf, nameProblem, renameView, saveView, useSavedViews, viewSearch } from '@/lib/saved-views';

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

  const copyLink = async (view: SavedView) => {
    try {
      await navigator.clipboard.writeText(`${window.location.origin}${pathOf(view)}`);
      notifications.show({ message: `Copied the link of the view ${view.name}.` });
    } catch {
      notifications.show({ color: 'red', message: 'The browser did not allow copying; use the view’s link instead.' });
    }
  };

  return (
    <Group gap="xs" wrap="wrap" role="group" aria-label="Saved views">
      <Text size="sm" c="dimmed" component="span">
        Views
      </Text>
      {views.map((view) => {
        const isCurrent = view.search === current;
        return (
          <Group key={view.id} gap={0} wrap="nowrap">
            <Button component={Link} to={pathOf(view)} size="xs" variant={isCurrent ? 'light' : 'default'} aria-current={isCurrent ? 'true' : undefined}>
              {view.name}
            </Button>
            <Menu position="bottom-end" shadow="md">
              <Menu.Target>
                <ActionIcon variant="subtle" size="md" aria-label={`Options of the view ${view.name}`}>
                  <span aria-hidden="true">⋯</span>
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item onClick={() => setNaming({ mode: 'rename', view })}>Rename</Menu.Item>
                <Menu.Item onClick={() => void copyLink(view)}>Copy link</Menu.Item>
                <Menu.Item color="red" onClick={() => deleteView(workspaceId, list, view.id)}>
                  Delete
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        );
      })}
      <Button size="xs" variant="subtle" onClick={() => setNaming({ mode: 'save' })}>
        Save view
      </Button>
      {naming ? (
        <NameDialog
          title={naming.mode === 'save' ? 'Save the current view' : `Rename the view ${naming.view.name}`}
          initial={naming.mode === 'save' ? '' : naming.view.name}
          check={(name) => nameProblem(views, name, naming.mode === 'rename' ? naming.view.id : undefined)}
          onSubmit={(name) => {
            if (naming.mode === 'save') saveView(workspaceId, list, name, current);
            else renameView(workspaceId, list, naming.view.id, name);
            setNaming(null);
          }}
          onClose={() => setNaming(null)}
        />
      ) : null}
    </Group>
  );
}

/** A dialog asking for a view's name; `check` gives the problem with a name, shown on the field. */
function NameDialog({ title, initial, check, onSubmit, onClose }: { title: string; initial: string; check: (name: string) => string | null; onSubmit: (name: string) => void; onClose: () => void }) {
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = check(name);
    if (problem) setError(problem);
    else {
      try {
        onSubmit(name);
      } catch (failure) {
        setError(failure instanceof Error ? failure.message : String(failure));
      }
    }
  };
  return (
    <Modal opened onClose={onClose} title={title} closeButtonProps={{ 'aria-label': 'Close' }}>
      <form onSubmit={submit} aria-label={title}>
        <Stack>
          <TextInput label="View name" value={name} onChange={(event) => setName(event.currentTarget.value)} error={error} data-autofocus />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit">Save</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
