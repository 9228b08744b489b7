/**
 * The pop-ups of the saved views row (saved-views.tsx, issue 14 point 7), loaded when first needed (issue 16): a
 * view's menu (rename, copy its link, delete) and the dialog naming a view.
 */
import { ActionIcon, Button, Group, Menu, Modal, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { useWorkspaceApi } from '@/lib/api';
import { type SavedView, deleteView } from '@/lib/saved-views';

/** The menu of `view` of `list`: Rename (`onRename`), Copy link (`link`, its absolute URL), Delete. */
export function ViewMenu({ view, list, link, onRename }: { view: SavedView; list: string; link: string; onRename: () => void }) {
  const { workspaceId } = useWorkspaceApi();
  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(link);
      notifications.show({ message: `Copied the link of the view ${view.name}.` });
    } catch {
      notifications.show({ color: 'red', message: 'The browser did not allow copying; use the view’s link instead.' });
    }
  };
  return (
    <Menu position="bottom-end" shadow="md">
      <Menu.Target>
        <ActionIcon variant="subtle" size="md" aria-label={`Options of the view ${view.name}`}>
          <span aria-hidden="true">⋯</span>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={onRename}>Rename</Menu.Item>
        <Menu.Item onClick={() => void copyLink()}>Copy link</Menu.Item>
        <Menu.Item color="red" onClick={() => deleteView(workspaceId, list, view.id)}>
          Delete
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** A dialog asking for a view's name; `check` gives the problem with a name, shown on the field. */
export function NameDialog({ title, initial, check, onSubmit, onClose }: { title: string; initial: string; check: (name: string) => string | null; onSubmit: (name: string) => void; onClose: () => void }) {
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
